package main

import (
	"bytes"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tune"
)

// TestRunKeepsWhatItSays: from a few self-play games, every position
// written has the pieces, no king, no capture pending and a score in the
// range asked for; the scores file names the same positions in the same
// order; one in `every` is kept; and a missing or damaged file or an
// unknown variant is an error.
func TestRunKeepsWhatItSays(t *testing.T) {
	dir := t.TempDir()
	v := movegen.Italian
	part := filepath.Join(dir, "it.part")
	cfg := tune.PosGenConfig{GenConfig: tune.GenConfig{Variant: v, Games: 8, Nodes: 300, Seed: 3, RandomPlies: 4, TTLog2: 12, Jitter: true},
		Shard: 1, Shards: 1, EvalName: "test"}
	if err := tune.GeneratePositions(cfg, part, nil); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "it.pos")
	if _, err := tune.Merge(data, []string{part}, nil, 0); err != nil {
		t.Fatal(err)
	}
	sel := selection{minPieces: 14, lo: 10, hi: 150, n: 1000, every: 1}
	var out, scores bytes.Buffer
	seen, kept, err := run(data, "italian", sel, &out, &scores)
	if err != nil {
		t.Fatal(err)
	}
	fens := strings.Fields(out.String())
	lines := strings.Split(strings.TrimSpace(scores.String()), "\n")
	if kept == 0 || kept != seen || len(fens) != kept || len(lines) != kept {
		t.Fatalf("%d qualified, %d kept, %d FENs, %d score lines: want some, all kept, as many of each", seen, kept, len(fens), len(lines))
	}
	for i, fen := range fens {
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		f, sc, ok := strings.Cut(lines[i], ";")
		s, err := strconv.Atoi(sc)
		if !ok || err != nil || f != fen {
			t.Fatalf("score line %q for FEN %q", lines[i], fen)
		}
		if s < 0 {
			s = -s
		}
		if n := bits.OnesCount64(p.Occupied()); n < sel.minPieces || p.Kings != 0 || v.HasCapture(&p) || s < sel.lo || s > sel.hi {
			t.Fatalf("%s kept: %d pieces, kings %x, score %d", fen, n, p.Kings, s)
		}
	}
	// One in two of the same ones.
	sel.every = 2
	out.Reset()
	if _, kept2, err := run(data, "italian", sel, &out, nil); err != nil || kept2 != seen/2 {
		t.Fatalf("every 2: %d kept of %d (err %v)", kept2, seen, err)
	}
	if got := strings.Fields(out.String()); len(got) > 0 && got[0] != fens[1] {
		t.Fatalf("every 2 kept %s first, want the second qualifying %s", got[0], fens[1])
	}
	if _, _, err := run(filepath.Join(dir, "none.pos"), "italian", sel, &out, nil); err == nil {
		t.Fatal("a missing file: no error")
	}
	if _, _, err := run(data, "chess", sel, &out, nil); err == nil {
		t.Fatal("an unknown variant: no error")
	}
	// A damaged record is an error naming the file, not the end of it.
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.pos")
	if err := os.WriteFile(damaged, append(b, bytes.Repeat([]byte{0xff}, tune.NewCodec(v).Size())...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(damaged, "italian", sel, &out, nil); err == nil || !strings.Contains(err.Error(), damaged) {
		t.Fatalf("a damaged record: err %v, want one naming the file", err)
	}
}
