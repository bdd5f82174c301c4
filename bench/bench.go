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
	// The others: the start, then positions from a fixed engine self-play
	// game (plies 12, 30, 50, 70).
	"damone": {
		"W:W16,20,23,K24,27,30,K31,D32:BD1,K2,3,6,K9,10,13,17",
		"W:W8,15,20,23,K28,30,K31,D32:BD1,K3,7,K9,11,13,17,18",
		"W:W4,12,16,K28,K31,D32:BD1,K9,K10,13,23,25,29",
		"W:W3,4,K7,8,K31,D32:BK2,D9,K10,25,29,30",
	},
	"english": {
		"B:W21-32:B1-12",
		"B:W10,20-23,25-27,29-31:B1-3,5-8,11,12,14",
		"B:W14,19-21,24,30,31:B1,3,6,10-12,18",
		"B:W11,19,31:B12,14,22,26",
		"B:WK9,K11,31:B12,K22,K23,25",
	},
	"russian": {
		"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
		"W:Wa1,c1,e1,g1,d2,h2,a3,g3,d4:Bb4,a5,f6,a7,e7,g7,b8,d8,f8,h8",
		"W:We1,g1,d2,a3,f4:Bb4,a5,a7,e7,f8,h8",
		"W:Wc3,h6:Bh4,a5,c5",
		"W:Wd4,Kh8:Ba3,Kb4",
	},
	"brazilian": {
		"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
		"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3:Be5,g5,f6,h6,a7,e7,b8,d8,f8",
		"W:Wa1,e1,h2,e3,b4,d4:Bg5,d6,f6,h6,g7,d8",
		"W:Wd2,h2,f4,a5:Bd6,f6,h6",
	},
	"spanish": {
		"W:W1-12:B21-32",
		"W:W1-4,6,8,9,11,13,16:B18,20,22,24,25,28-32",
		"W:W1,3,6,9,10,13,15:B16-18,22-24,29,30",
		"W:W1,K32:BK3,17,24,K25,29,30",
	},
	"international": {
		"W:W31-50:B1-20",
		"W:W28,31-37,41-50:B1-13,16,17,19,23,24",
		"W:W25,27,28,31-35,37-39,41,43,44,46,47,49,50:B1,3-6,8,9,11-13,16-20,23,24,26",
		"W:W27,29,31,32,35,37,38,41,45-47,49:B1,3-6,8,11,15-18,26",
		"W:W23,28,35,41,45,47,49:B1,3-6,25,26",
	},
	"turkish": {
		"W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
		"W:Wb2,c2,e2,f2,g2,h2,a3,b3,d3,e3,f3,h3,a4,c4,d4,g4:Bb5,e5,f5,h5,a6,b6,c6,d6,g6,h6,a7,c7,d7,e7,f7,g7",
		"W:We2,f2,h2,a3,b3,c3,f3,g3,h3,a4,d4,e4:Bh4,b5,c5,g5,h5,a6,d6,h6,a7,d7,f7,h7",
		"W:Wh2,a3,f3,g3,h3,a4,d4,e4,d5:Bb5,g5,h5,a6,c6,f6,g6,h6,a7",
		"W:Wh2,a3,a4,d4,e4,f4,e5:Bh4,b5,c5,a6,f6,h6,a7",
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
