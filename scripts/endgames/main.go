// Command endgames picks endgame starting positions out of played games,
// for matches that measure the endgame tables (issue 16):
//
//	go run ./scripts/endgames --variant italian --pieces 8 --max 200 games.pdn ... > endgames-italian.txt
//
// For each game of the PDN files, in order, it replays the moves and keeps
// the first position with at most --pieces pieces on the board, no capture
// pending for the side to move, and at least two pieces a side (so the
// position is not already decided by a lone piece). Duplicates are dropped
// and at most --max positions are written, one FEN a line: the format
// `damaengine match --openings` reads.
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"os"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

func main() {
	variant := flag.String("variant", "italian", "rule set of the games")
	pieces := flag.Int("pieces", 8, "keep the first position with at most this many pieces")
	most := flag.Int("max", 200, "write at most this many positions")
	flag.Parse()
	v, err := movegen.Lookup(*variant)
	if err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	n := 0
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fail(err)
		}
		games, err := pdn.Read(f, v)
		f.Close()
		if err != nil {
			fail(fmt.Errorf("%s: %v", name, err))
		}
		for _, g := range games {
			if fen, ok := pick(v, g, *pieces); ok && !seen[fen] && n < *most {
				seen[fen] = true
				n++
				fmt.Println(fen)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "endgames: %d positions\n", n)
}

// pick returns the first quiet position of g with at most limit pieces and
// two or more a side.
func pick(v *movegen.Variant, g *pdn.Game, limit int) (string, bool) {
	p := g.Start
	for _, m := range g.Moves {
		p.Play(m)
		w, b := bits.OnesCount64(p.Pieces[movegen.White]), bits.OnesCount64(p.Pieces[movegen.Black])
		if w < 2 || b < 2 {
			return "", false
		}
		if w+b <= limit && !v.HasCapture(&p) {
			return v.FEN(&p), true
		}
	}
	return "", false
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "endgames:", err)
	os.Exit(2)
}
