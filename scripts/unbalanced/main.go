// Command unbalanced writes an opening set of early, quiet positions that a
// self-play search scored as one side ahead, for matches whose games
// should be less often drawn than from the embedded, even openings
// (docs/screening-openings.md).
//
// It reads a positions file of `damaengine tune gen --format positions`
// (merged by `tune merge`) and prints, one FEN a line, the positions with at
// least --min-pieces pieces, no king and no capture pending whose search
// score (for White, centi-men) is --lo to --hi either way, keeping one in
// --every of them until it has --n. With --scores FILE it writes each kept
// position's FEN and score there ("FEN;score").
//
//	go run ./scripts/unbalanced --variant italian --data it7v.pos --min-pieces 18 \
//	    --lo 100 --hi 220 --every 2 --n 300 > italian-unbalanced.txt
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"os"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tune"
)

func main() {
	data := flag.String("data", "", "positions file (`tune merge` output)")
	vname := flag.String("variant", "italian", "the positions' variant")
	minPieces := flag.Int("min-pieces", 20, "fewest pieces on the board")
	lo := flag.Int("lo", 50, "least |score|, centi-men")
	hi := flag.Int("hi", 120, "most |score|, centi-men")
	n := flag.Int("n", 300, "positions to write")
	every := flag.Int("every", 1, "keep one in this many of those that qualify")
	scores := flag.String("scores", "", "also write FEN;score lines to this file")
	flag.Parse()
	if err := run(*data, *vname, *scores, *minPieces, *lo, *hi, *n, max(1, *every)); err != nil {
		fmt.Fprintln(os.Stderr, "unbalanced:", err)
		os.Exit(1)
	}
}

func run(data, vname, scores string, minPieces, lo, hi, n, every int) error {
	v, err := movegen.Lookup(vname)
	if err != nil {
		return err
	}
	pr, err := tune.OpenPositions(data)
	if err != nil {
		return err
	}
	defer pr.Close()
	var sf *os.File
	if scores != "" {
		if sf, err = os.Create(scores); err != nil {
			return err
		}
		defer sf.Close()
	}
	var r tune.Record
	var ml movegen.MoveList
	seen, kept := 0, 0
	for kept < n && pr.Next(&r) == nil {
		p := r.Pos
		s := r.Score
		if s < 0 {
			s = -s
		}
		if bits.OnesCount64(p.Occupied()) < minPieces || p.Kings != 0 || s < lo || s > hi {
			continue
		}
		if v.Generate(&p, &ml); ml.N == 0 || v.HasCapture(&p) {
			continue
		}
		if seen++; seen%every != 0 {
			continue
		}
		fen := v.FEN(&p)
		fmt.Println(fen)
		if sf != nil {
			fmt.Fprintf(sf, "%s;%d\n", fen, r.Score)
		}
		kept++
	}
	fmt.Fprintf(os.Stderr, "unbalanced: %d positions qualified before the last kept, %d written\n", seen, kept)
	return nil
}
