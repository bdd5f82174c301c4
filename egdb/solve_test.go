package egdb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestSolverAgrees: the un-move solver gives every value and distance the
// reference solver (stored move graph) gives, per slice group of up to 3
// pieces (4 on the 32-square boards without -short) in every supported
// variant family, Damone's three ranks of piece included.
func TestSolverAgrees(t *testing.T) {
	vs := append(append([]*movegen.Variant(nil), testVariants...), movegen.Damone, movegen.Turkish, movegen.International)
	for _, v := range vs {
		pieces := 3
		if !testing.Short() && v.Board() == movegen.Board8 && v != movegen.Turkish {
			pieces = 4
		}
		db, _ := New(8)
		if err := db.Build(v, pieces, "", nil); err != nil {
			t.Fatal(err)
		}
		vt := db.vars[v.ID()]
		seen := map[Slice]bool{}
		for _, s := range SlicesOf(v, pieces) {
			if seen[s] {
				continue
			}
			group := []Slice{s}
			if m := s.Mirror(); m != s {
				group = append(group, m)
			}
			codes, dists, err := vt.solveRef(db, group)
			if err != nil {
				t.Fatal(err)
			}
			for gi, g := range group {
				seen[g] = true
				tab := vt.tabs[g]
				bad := 0
				for i := range codes[gi] {
					if db.code(tab, i) != codes[gi][i] || db.byteAt(tab.dist, i) != dists[gi][i] {
						if bad++; bad <= 3 {
							p, _ := vt.ix.position(g, i)
							t.Errorf("%s %s %s: code %d dist %d, reference %d %d", v.Name, g, v.FEN(&p),
								db.code(tab, i), db.byteAt(tab.dist, i), codes[gi][i], dists[gi][i])
						}
					}
				}
			}
		}
	}
}

// TestUnmoves: the positions unmoves finds for a position are exactly
// those with no capture pending that reach it by a move neither capturing
// nor promoting, each once, and unmoveIndexes gives their numbers.
func TestUnmoves(t *testing.T) {
	vs := append(append([]*movegen.Variant(nil), testVariants...), movegen.Damone, movegen.Turkish, movegen.International)
	for _, v := range vs {
		db, _ := New(1)
		vt, _ := db.varOf(v)
		ix := vt.ix
		for _, s := range SlicesOf(v, 3) {
			// Forward: every edge from s into its mirror, as a count per
			// (parent, child) pair.
			type edge struct{ from, to movegen.Position }
			fwd := map[edge]int{}
			var ml movegen.MoveList
			for idx := 0; idx < ix.size(s); idx++ {
				p, ok := ix.position(s, idx)
				if !ok || v.HasCapture(&p) {
					continue
				}
				v.Generate(&p, &ml)
				for _, m := range ml.Slice() {
					if m.Promote {
						continue
					}
					c := p
					c.Play(m)
					c.Key = 0
					fwd[edge{p, c}]++
				}
			}
			ms := s.Mirror()
			back := 0
			var ys []movegen.Position
			var ids []uint32
			si := ix.sliceIndex(s)
			for idx := 0; idx < ix.size(ms); idx++ {
				x, ok := ix.position(ms, idx)
				if !ok {
					continue
				}
				c := ix.flip(&x)
				c.Key = 0
				ys = vt.unmoves(&c, ys[:0])
				// The solver's numbers of the same positions.
				ids = vt.unmoveIndexes(&c, &si, 7, 1<<31, ids[:0])
				if len(ids) != len(ys) {
					t.Fatalf("%s %s: %s: %d un-moves, %d numbers", v.Name, s, v.FEN(&c), len(ys), len(ids))
				}
				for i, y := range ys {
					if want := uint32(7+ix.index(s, &y)) | 1<<31; ids[i] != want {
						t.Fatalf("%s %s: %s un-moved to %s: number %#x, want %#x", v.Name, s, v.FEN(&c), v.FEN(&y), ids[i], want)
					}
				}
				for _, y := range ys {
					y.Key = 0
					if v.HasCapture(&y) {
						continue
					}
					if fwd[edge{y, c}] != 1 {
						t.Fatalf("%s %s: %s un-moved to %s, %d moves that way", v.Name, s, v.FEN(&c), v.FEN(&y), fwd[edge{y, c}])
					}
					back++
				}
			}
			total := 0
			for e, k := range fwd {
				if k != 1 {
					t.Fatalf("%s: %s reaches %s by %d moves", v.Name, v.FEN(&e.from), v.FEN(&e.to), k)
				}
				total++
			}
			if back != total {
				t.Errorf("%s %s: %d moves, %d un-moves", v.Name, s, total, back)
			}
		}
	}
}

// BenchmarkBuild builds Italian's tables of up to 4 pieces in memory (for
// profiles of the solver).
func BenchmarkBuild(b *testing.B) {
	for range b.N {
		db, _ := New(8)
		if err := db.Build(movegen.Italian, 4, "", nil); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

// TestBuildThreads: a build on several threads writes the files of the
// build on one, byte for byte: Italian up to 4 pieces (3 with -short),
// Turkish and Damone up to 3.
func TestBuildThreads(t *testing.T) {
	sets := []struct {
		v      *movegen.Variant
		pieces int
	}{{movegen.Italian, 4}, {movegen.Turkish, 3}, {movegen.Damone, 3}}
	for _, set := range sets {
		if testing.Short() && set.pieces > 3 {
			set.pieces = 3
		}
		var files [2]map[string][]byte
		for i, threads := range []int{1, 3} {
			dir := t.TempDir()
			db, _ := New(8)
			if err := db.BuildThreads(set.v, set.pieces, dir, threads, nil); err != nil {
				t.Fatal(err)
			}
			db.Close()
			files[i] = map[string][]byte{}
			ents, err := os.ReadDir(filepath.Join(dir, set.v.Name))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				b, err := os.ReadFile(filepath.Join(dir, set.v.Name, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				files[i][e.Name()] = b
			}
		}
		if len(files[0]) != 2*len(SlicesOf(set.v, set.pieces)) || len(files[1]) != len(files[0]) {
			t.Fatalf("%s: %d files on one thread, %d on three", set.v.Name, len(files[0]), len(files[1]))
		}
		for name, b := range files[0] {
			if !bytes.Equal(b, files[1][name]) {
				t.Errorf("%s %s: the file of three threads differs", set.v.Name, name)
			}
		}
	}
}

// TestCursor: a cursor walks a slice's numbers as position decodes them,
// from any start.
func TestCursor(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.Italian, movegen.Damone, movegen.Turkish, movegen.International} {
		db, _ := New(1)
		vt, _ := db.varOf(v)
		ix := vt.ix
		for _, s := range SlicesOf(v, 3) {
			n := ix.size(s)
			for _, start := range []int{0, n / 3} {
				cu := ix.cursor(s, start)
				for idx := start; idx < n; idx++ {
					p, ok := cu.position()
					q, ok2 := ix.position(s, idx)
					if ok != ok2 || p != q {
						t.Fatalf("%s %s %d: cursor %v %v, position %v %v", v.Name, s, idx, ok, p, ok2, q)
					}
					cu.next()
				}
			}
		}
	}
}
