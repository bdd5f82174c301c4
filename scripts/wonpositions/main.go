// Command wonpositions writes endgame positions that the endgame tables
// call won for the side to move, for the conversion checks of issue 16
// (does the engine win its won endings, instead of shuffling into the
// move rule?):
//
//	go run ./scripts/wonpositions --variant turkish --dir /tmp/egdb-dtc --pieces 4 --count 25 > won4-turkish.txt
//
// It places --pieces pieces at random (seeded: the same flags give the same
// file), each of either colour and any kind (man or king; in Damone also a
// Damone; men never on their own promotion row: the FEN parser refuses
// them), keeps the positions with no
// capture pending that the tables in --dir call won for the side to move
// with a distance to conversion of at least --min-distance plies and, in
// variants with a move rule, within it (so that a win exists under the
// rules the engine plays by), and writes --count of them, one FEN a line,
// the format `damaengine match --openings` reads. Each piece count of the
// sides (e.g. 3 against 1, 2 against 2) is tried in turn.
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
)

func main() {
	variant := flag.String("variant", "italian", "rule set")
	dir := flag.String("dir", "", "endgame table directory (as egdb build --dir)")
	pieces := flag.Int("pieces", 4, "pieces on the board")
	count := flag.Int("count", 25, "positions to write")
	minDist := flag.Int("min-distance", 9, "least distance to conversion, plies")
	seed := flag.Uint64("seed", 1, "seed of the placements")
	flag.Parse()
	v, err := movegen.Lookup(*variant)
	if err != nil {
		fail(err)
	}
	if *pieces < 2 || *count < 1 {
		fail(fmt.Errorf("--pieces at least 2 and --count at least 1"))
	}
	db, err := egdb.New(64)
	if err != nil {
		fail(err)
	}
	defer db.Close()
	if err := db.Load(v, *pieces, *dir); err != nil {
		fail(err)
	}
	rng := rand.New(rand.NewPCG(*seed, 0x5eed))
	var squares []int
	for b := v.Board(); b != 0; b &= b - 1 {
		squares = append(squares, bits.TrailingZeros64(b))
	}
	seen := map[string]bool{}
	written, tries := 0, 0
	for written < *count {
		if tries++; tries > 10_000_000 {
			fail(fmt.Errorf("only %d won positions found in %d placements", written, tries))
		}
		// The side to move has 1..pieces-1 pieces, in turn.
		ours := 1 + tries%(*pieces-1)
		fen, ok := place(v, rng, squares, ours, *pieces-ours)
		if !ok || seen[fen] {
			continue
		}
		p, err := v.ParseFEN(fen)
		if err != nil || v.HasCapture(&p) {
			continue
		}
		w, dist, ok := db.ProbeDistance(v, &p)
		if !ok || w != egdb.Win || dist < *minDist || (v.DrawPlies > 0 && dist > v.DrawPlies) {
			continue
		}
		seen[fen] = true
		written++
		fmt.Println(fen)
	}
	fmt.Fprintf(os.Stderr, "wonpositions: %d positions from %d placements\n", written, tries)
}

// place returns the FEN of a random placement of ours pieces for the side
// to move and theirs for the other side, White or Black to move at random.
func place(v *movegen.Variant, rng *rand.Rand, squares []int, ours, theirs int) (string, bool) {
	kinds := []string{"K", ""} // rng 0 a king, as before Damone was added
	if v.Start().Super != 0 {
		kinds = append(kinds, "D") // Italian Damone's third rank
	}
	side := [2]string{"W", "B"}[rng.IntN(2)]
	used := map[int]bool{}
	lists := map[string][]string{}
	for i := 0; i < ours+theirs; i++ {
		colour := side
		if i >= ours {
			colour = map[string]string{"W": "B", "B": "W"}[side]
		}
		b := squares[rng.IntN(len(squares))]
		if used[b] {
			return "", false
		}
		used[b] = true
		name := v.SquareName(b)
		name = kinds[rng.IntN(len(kinds))] + name
		lists[colour] = append(lists[colour], name)
	}
	return side + ":W" + strings.Join(lists["W"], ",") + ":B" + strings.Join(lists["B"], ","), true
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "wonpositions:", err)
	os.Exit(1)
}
