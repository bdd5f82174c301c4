package bookbuild

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/book"
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// tinyEval is a cheap deterministic evaluator: a depth-2 search.
func tinyEval(v *movegen.Variant) Evaluator {
	return SearchEvaluator(v, 16, search.Limits{Depth: 2})
}

func tinyBuild(t *testing.T, v *movegen.Variant, n int, file string) (*book.Book, Stats) {
	t.Helper()
	bk, st, err := Build(context.Background(), Config{Variant: v, Positions: n, Alpha: 0.05, Eval: tinyEval(v), File: file})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return bk, st
}

// TestBackup checks negamax on a hand-made tree: the root has two
// children, one expanded with two leaves, one a leaf.
//
//	root ── a (expanded) ── a1: +30, a2: -10   a = max(-30, 10) = 10
//	     └─ b: leaf -5                          root = max(-10, 5) = 5
//
// and with a won leaf the mate distance grows by one ply per level.
func TestBackup(t *testing.T) {
	v := movegen.Italian
	pos := func(k uint64) movegen.Position { return movegen.Position{Key: k} }
	b := &builder{cfg: Config{Variant: v, Alpha: 1}, index: map[uint64]int32{}}
	root := b.insert(&node{pos: pos(1), expanded: true})
	a := b.insert(&node{pos: pos(2), expanded: true, score: -100})
	bb := b.insert(&node{pos: pos(3), score: -5})
	a1 := b.insert(&node{pos: pos(4), score: 30})
	a2 := b.insert(&node{pos: pos(5), score: -10})
	b.nodes[root].kids = []int32{a, bb}
	b.nodes[a].kids = []int32{a1, a2}
	b.roots = []int32{root}
	b.backup()
	for i, want := range map[int32]int{root: 5, a: 10, bb: -5, a1: 30, a2: -10} {
		if got := b.nodes[i].value; got != want {
			t.Errorf("node %d: value %d, want %d", i, got, want)
		}
	}
	// pick: b costs 1 (the best move at the root), a costs 1 + 15 and a2
	// 1 + 15 + 1: the cheapest leaf is b.
	if got := b.pick(); got != bb {
		t.Errorf("pick = %d, want %d", got, bb)
	}
	b.cfg.Alpha = 0 // pure breadth: the first leaf at ply 1
	if got := b.pick(); got != bb {
		t.Errorf("pick with alpha 0 = %d, want %d", got, bb)
	}
	b.nodes[a2].score = -(search.Mate - 3) // a2 is lost in 3: a wins in 4
	b.backup()
	if got, want := b.nodes[a].value, search.Mate-4; got != want {
		t.Errorf("a after a mate: %d, want %d", got, want)
	}
	if got, want := b.nodes[root].value, -(search.Mate - 4); got != 5 {
		t.Errorf("root after a mate: %d, want 5 (b), not %d", got, want)
	}
}

func TestBuildTiny(t *testing.T) {
	v := movegen.Italian
	var progress bytes.Buffer
	bk, st, err := Build(context.Background(), Config{Variant: v, Positions: 40, Alpha: 0.05, Eval: tinyEval(v), Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if bk.Len() < 40 || st.Added != bk.Len() || st.Expanded == 0 {
		t.Errorf("book of %d positions, stats %+v", bk.Len(), st)
	}
	if !strings.Contains(progress.String(), "positions/s") || !strings.Contains(progress.String(), "ETA") {
		t.Errorf("progress line %q", progress.String())
	}
	start := v.Start()
	var ch book.Choices
	if n := bk.Probe(v, &start, &ch); n != 7 {
		t.Fatalf("start: %d book moves, want all 7", n)
	}
	e, _ := bk.Lookup(start.Key)
	if ch.Moves[0].Score != e.Score {
		t.Errorf("best move scores %d, the start %d", ch.Moves[0].Score, e.Score)
	}
	for i := 1; i < ch.N; i++ {
		if ch.Moves[i].Score > ch.Moves[i-1].Score {
			t.Errorf("choices not best first: %+v", ch.Slice())
		}
	}
	if line := bk.Line(v, start, 20); len(line) == 0 {
		t.Error("no book line from the start")
	}
	// every expanded position's score is the negamax of its children
	var walk func(p movegen.Position, d int)
	walk = func(p movegen.Position, d int) {
		e, ok := bk.Lookup(p.Key)
		if !ok || !e.Expanded || d > 30 {
			return
		}
		var ch book.Choices
		bk.Probe(v, &p, &ch)
		if ch.Moves[0].Score != e.Score {
			t.Errorf("%s: score %d, best child gives %d", v.FEN(&p), e.Score, ch.Moves[0].Score)
		}
		for _, c := range ch.Slice() {
			q := p
			q.Play(c.Move)
			walk(q, d+1)
		}
	}
	walk(start, 0)
}

func TestResume(t *testing.T) {
	v := movegen.English
	file := filepath.Join(t.TempDir(), "english.book")
	first, _ := tinyBuild(t, v, 15, file)
	second, st := tinyBuild(t, v, 35, file)
	if st.Resumed != first.Len() {
		t.Errorf("resumed %d positions, the file held %d", st.Resumed, first.Len())
	}
	if second.Len() < 35 || st.Added != second.Len()-first.Len() {
		t.Errorf("second run: %d positions, added %d (first %d)", second.Len(), st.Added, first.Len())
	}
	// a cancelled build keeps what it had
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bk, _, err := Build(ctx, Config{Variant: v, Positions: 100, Eval: tinyEval(v), File: file})
	if !errors.Is(err, context.Canceled) || bk.Len() != second.Len() {
		t.Errorf("cancelled: %v, %d positions", err, bk.Len())
	}
	// other roots or another variant are refused
	other := v.Start()
	var ml movegen.MoveList
	v.Generate(&other, &ml)
	other.Play(ml.Moves[0])
	if _, _, err := Build(context.Background(), Config{Variant: v, Roots: []movegen.Position{other}, Positions: 5, Eval: tinyEval(v), File: file}); err == nil || !strings.Contains(err.Error(), "other root") {
		t.Errorf("other roots: %v", err)
	}
	if _, _, err := Build(context.Background(), Config{Variant: movegen.Italian, Positions: 5, Eval: tinyEval(movegen.Italian), File: file}); err == nil || !strings.Contains(err.Error(), "for english, not italian") {
		t.Errorf("other variant: %v", err)
	}
	os.WriteFile(file, []byte("garbage"), 0o644)
	if _, _, err := Build(context.Background(), Config{Variant: v, Positions: 5, Eval: tinyEval(v), File: file}); err == nil || !strings.Contains(err.Error(), "cannot resume") {
		t.Errorf("corrupt file: %v", err)
	}
}

// TestMirrorBooks grows a book from the start and one from the start seen
// from the other side (v.Flip: turned round, colours and side to move
// swapped) with an evaluator that is symmetric by construction (the static
// evaluation for the side to move), and checks that every position the two
// books share up to the mirror has the same score, and that the probes of
// the two roots give the same scores. A score stored from one colour's
// view rather than the mover's, or a sign slip at one colour's plies,
// breaks it. English is the variant where Black moves first (the
// start-grown English book once scored badly and such a slip was
// suspected; docs/testing.md); Italian is the control.
func TestMirrorBooks(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.English, movegen.Italian} {
		ev := func(p movegen.Position) (int, int) { return eval.Evaluate(v, &p), 0 }
		grow := func(root movegen.Position) *book.Book {
			bk, _, err := Build(context.Background(), Config{Variant: v, Roots: []movegen.Position{root}, Positions: 60, Alpha: 0.02, Eval: ev})
			if err != nil {
				t.Fatal(err)
			}
			return bk
		}
		start := v.Start()
		flip := v.Flip(&start)
		a, b := grow(start), grow(flip)
		shared := 0
		var walk func(p movegen.Position, d int)
		seen := map[uint64]bool{}
		walk = func(p movegen.Position, d int) {
			if seen[p.Key] || d > 12 {
				return
			}
			seen[p.Key] = true
			ea, ok := a.Lookup(p.Key)
			if !ok {
				return
			}
			f := v.Flip(&p)
			if eb, ok := b.Lookup(f.Key); ok {
				shared++
				if ea.Score != eb.Score {
					t.Errorf("%s %s: score %d; its mirror %s scores %d", v.Name, v.FEN(&p), ea.Score, v.FEN(&f), eb.Score)
				}
			}
			if !ea.Expanded {
				return
			}
			var ml movegen.MoveList
			v.Generate(&p, &ml)
			for _, m := range ml.Slice() {
				q := p
				q.Play(m)
				walk(q, d+1)
			}
		}
		walk(start, 0)
		if shared < 30 {
			t.Errorf("%s: the books share only %d positions up to the mirror", v.Name, shared)
		}
		var ca, cb book.Choices
		if a.Probe(v, &start, &ca) == 0 || a.Probe(v, &start, &ca) != b.Probe(v, &flip, &cb) {
			t.Fatalf("%s: %d root moves, %d in the mirror", v.Name, ca.N, cb.N)
		}
		for i := range ca.N {
			if ca.Moves[i].Score != cb.Moves[i].Score {
				t.Errorf("%s: root move %d scores %d, in the mirror %d", v.Name, i, ca.Moves[i].Score, cb.Moves[i].Score)
			}
		}
	}
}
