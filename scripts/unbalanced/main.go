// Command unbalanced writes an opening set of early, quiet positions that a
// self-play search scored as one side ahead, for matches whose games
// should be less often drawn than from the embedded, even openings
// (docs/screening-openings.md).
//
// It reads a positions file of `damaengine tune gen --format positions`
// (merged by `tune merge`; it holds quiet positions only, no capture
// pending) and prints, one FEN a line, the positions with at least
// --min-pieces pieces, no king and a legal move whose search score (for
// White, centi-men) is --lo to --hi either way, keeping one in --every of
// them until it has --n. With --scores FILE it writes each kept position's
// FEN and score there ("FEN;score").
//
//	go run ./scripts/unbalanced --variant italian --data it7v.pos --min-pieces 18 \
//	    --lo 100 --hi 220 --every 2 --n 300 > italian-unbalanced.txt
package main

import (
	"errors"
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
	sel := selection{minPieces: *minPieces, lo: *lo, hi: *hi, n: *n, every: max(1, *every)}
	if err := write(*data, *vname, *scores, sel); err != nil {
		fmt.Fprintln(os.Stderr, "unbalanced:", err)
		os.Exit(1)
	}
}

// write runs sel over data, the FENs to stdout and, if scores is not
// empty, the "FEN;score" lines to that file.
func write(data, vname, scores string, sel selection) error {
	var sw io.Writer
	var f *os.File
	if scores != "" {
		var err error
		if f, err = os.Create(scores); err != nil {
			return err
		}
		sw = f
	}
	seen, kept, err := run(data, vname, sel, os.Stdout, sw)
	if f != nil {
		err = errors.Join(err, f.Close())
	}
	if err == nil {
		fmt.Fprintf(os.Stderr, "unbalanced: %d positions qualified before the last kept, %d written\n", seen, kept)
	}
	return err
}

// selection is what run keeps: positions of at least minPieces pieces
// whose |score| is lo..hi, one in every of them, until it has n.
type selection struct {
	minPieces, lo, hi, n, every int
}

// run writes the FENs of data's positions that sel keeps to out, and
// "FEN;score" lines to scores if it is not nil; it returns how many
// qualified and how many it wrote. A damaged record is an error, not the
// end of the file.
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
	for kept < sel.n {
		if err := pr.Next(&r); err == io.EOF {
			break
		} else if err != nil {
			return seen, kept, err
		}
		p := r.Pos
		s := r.Score
		if s < 0 {
			s = -s
		}
		if bits.OnesCount64(p.Occupied()) < sel.minPieces || p.Kings != 0 || s < sel.lo || s > sel.hi {
			continue
		}
		if v.Generate(&p, &ml); ml.N == 0 {
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
