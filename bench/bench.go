package bench

import (
	"fmt"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// BenchPositions are the fixed positions "damaengine bench" searches, per
// variant: openings, middlegames and endgames.
var BenchPositions = map[string][]string{
	"italian": {
		"W:W21-32:B1-12",
		"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15",
		"W:W17,19,23,24,25,29,30,31:B1,2,3,5,6,9,11,12,K32",
		"B:W9,16,17,21,28,29,31,32:B1,2,3,5,6,7,8,10,K27",
		"W:W6,20,21,22,24,25,26,28,29,30:B1,3,4,5,7,9,12,14,17",
		"W:W16,24,25,28,31:B1,2,5,6,8,11,14,18,K30",
		"W:W10,19,25,27,28,29,31:B1,3,4,8,9,16,26",
		"W:W11,15,K16,23,25,26,27,28,31,32:B3,8,14",
		"B:W17,18,K19,22,24,26,28,31,32:B8,11,20",
		"W:W18,22,23,27,30:B5,9,10,14",
		"W:WK10:BK23,K31,K32",
		"B:WK4,5,8,K13:BK15",
	},
}

// DefaultBenchDepth is the depth of each bench search.
const DefaultBenchDepth = 14

// BenchTableLog2 is the table size of bench searches (2^18 entries).
const BenchTableLog2 = 18

// BenchLine is the result of one bench position.
type BenchLine struct {
	Variant string
	FEN     string
	Move    string
	Score   int
	Nodes   uint64
	Time    time.Duration
}

// Bench searches every bench position of variant v to depth with one
// thread and a fresh table of fixed size, calling line after each. The
// total node count is deterministic: it changes only when the search or
// the evaluation does.
func Bench(v *movegen.Variant, depth int, line func(BenchLine)) (nodes uint64, elapsed time.Duration, err error) {
	fens := BenchPositions[v.Name]
	if len(fens) == 0 {
		return 0, 0, fmt.Errorf("no bench positions for %s", v.Name)
	}
	eng := search.New(v, BenchTableLog2)
	for _, fen := range fens {
		p, err := v.ParseFEN(fen)
		if err != nil {
			return 0, 0, fmt.Errorf("bench position %s: %v", fen, err)
		}
		eng.NewGame()
		start := time.Now()
		res := eng.Search(search.NewControl(false), search.Game{Pos: p}, search.Limits{Depth: depth}, nil)
		el := time.Since(start)
		nodes += res.Nodes
		elapsed += el
		if line != nil {
			mv := "none"
			if res.HasMove {
				mv = v.HubMove(res.Move)
			}
			line(BenchLine{Variant: v.Name, FEN: fen, Move: mv, Score: res.Score, Nodes: res.Nodes, Time: el})
		}
	}
	return nodes, elapsed, nil
}
