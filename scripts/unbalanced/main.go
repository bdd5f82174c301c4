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
	"io"
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
	var sw io.Writer
	if *scores != "" {
		f, err := os.Create(*scores)
		if err != nil {
			fmt.Fprintln(os.Stderr, "unbalanced:", err)
			os.Exit(1)
		}
		defer f.Close()
		sw = f
	}
	sel := selection{minPieces: *minPieces, lo: *lo, hi: *hi, n: *n, every: max(1, *every)}
	seen, kept, err := run(*data, *vname, sel, os.Stdout, sw)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unbalanced:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "unbalanced: %d positions qualified before the last kept, %d written\n", seen, kept)
}

// selection is what run keeps: positions of at least minPieces pieces
// whose |score| is lo..hi, one in every of them, until it has n.
type selection struct {
	minPieces, lo, hi, n, every int
}

// run writes the FENs of data's positions that sel keeps to out, and
// "FEN;score" lines to scores if it is not nil; it returns how many
// qualified and how many it wrote.
func run(data, vname string, sel selection, out, scores io.Writer) (seen, kept int, err error) {
	v, err := movegen.Lookup(vname)
	if err != nil {
		return 0, 0, err
	}
	pr, err := tune.OpenPositions(data)
	if err != nil {
		return 0, 0, err
	}
	defer pr.Close()
	var r tune.Record
	var ml movegen.MoveList
	for kept < sel.n && pr.Next(&r) == nil {
		p := r.Pos
		s := r.Score
		if s < 0 {
			s = -s
		}
		if bits.OnesCount64(p.Occupied()) < sel.minPieces || p.Kings != 0 || s < sel.lo || s > sel.hi {
			continue
		}
		if v.Generate(&p, &ml); ml.N == 0 || v.HasCapture(&p) {
			continue
		}
		if seen++; seen%sel.every != 0 {
			continue
		}
		fen := v.FEN(&p)
		fmt.Fprintln(out, fen)
		if scores != nil {
			fmt.Fprintf(scores, "%s;%d\n", fen, r.Score)
		}
		kept++
	}
	return seen, kept, nil
}
