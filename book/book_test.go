package book

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// tinyEval is a cheap deterministic evaluator: a depth-2 search.
func tinyEval(v *movegen.Variant) Evaluator {
	return SearchEvaluator(v, 16, search.Limits{Depth: 2})
}

func tinyBuild(t *testing.T, v *movegen.Variant, n int, file string) (*Book, Stats) {
	t.Helper()
	bk, st, err := Build(context.Background(), Config{Variant: v, Positions: n, Alpha: 0.05, Eval: tinyEval(v), File: file})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return bk, st
}

// TestKeysFixed pins movegen's Zobrist keys: a book is only valid while
// they stay the same.
func TestKeysFixed(t *testing.T) {
	for _, tc := range []struct {
		v   *movegen.Variant
		key uint64
	}{
		{movegen.Italian, 0x8424b29431460c3c},
		{movegen.International, 0x59e818d7727b6a67},
	} {
		p := tc.v.Start()
		if p.Key != p.ComputeKey() {
			t.Errorf("%s: incremental key %016x, computed %016x", tc.v.Name, p.Key, p.ComputeKey())
		}
		if p.Key != tc.key {
			t.Errorf("%s: start key %016x, books were built with %016x: movegen's Zobrist table changed, rebuild the books", tc.v.Name, p.Key, tc.key)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	ents := map[uint64]Entry{
		3:       {Score: -12, Depth: 7, Expanded: true},
		1:       {Score: 9999, Depth: 1, Terminal: true},
		1 << 63: {Score: -32000, Depth: 255},
	}
	b := newBook("russian", ents)
	b.RootHash, b.TimePerNode, b.Alpha = 42, 30*time.Millisecond, 0.05
	data := b.Encode()
	if len(data) != headerSize+entrySize*3+crcSize {
		t.Fatalf("encoded %d bytes", len(data))
	}
	c, err := Decode(data, movegen.Russian)
	if err != nil {
		t.Fatal(err)
	}
	if c.Variant() != "russian" || c.Len() != 3 || c.RootHash != 42 || c.TimePerNode != 30*time.Millisecond || c.Alpha != 0.05 {
		t.Errorf("header back as %s %d %d %v %v", c.Variant(), c.Len(), c.RootHash, c.TimePerNode, c.Alpha)
	}
	for k, e := range ents {
		got, ok := c.Lookup(k)
		if !ok || got != e {
			t.Errorf("key %d: got %+v %v, want %+v", k, got, ok, e)
		}
	}
	if _, ok := c.Lookup(2); ok {
		t.Error("key 2 found")
	}
	if !bytes.Equal(c.Encode(), data) {
		t.Error("re-encoding differs")
	}
}

func TestDecodeErrors(t *testing.T) {
	good := newBook("italian", map[uint64]Entry{1: {Score: 5}, 2: {Score: -5}}).Encode()
	flip := func(i int) []byte {
		d := bytes.Clone(good)
		d[i] ^= 0x40
		return d
	}
	version := bytes.Clone(good)
	version[8] = 9
	for _, tc := range []struct {
		name string
		data []byte
		v    *movegen.Variant
		want string
	}{
		{"empty", nil, nil, "truncated"},
		{"text", []byte("hello, this is not a book at all, just some text here"), nil, "not a damaengine book"},
		{"short header", good[:20], nil, "truncated"},
		{"truncated entries", good[:len(good)-7], nil, "truncated"},
		{"trailing", append(bytes.Clone(good), 0), nil, "after the 2 positions"},
		{"flipped entry bit", flip(headerSize + 3), nil, "checksum"},
		{"flipped name bit", flip(17), nil, "checksum"},
		{"version", version, nil, "version 9"},
		{"wrong variant", good, movegen.International, "for italian, not international"},
	} {
		_, err := Decode(tc.data, tc.v)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := Decode(good, movegen.Italian); err != nil {
		t.Errorf("good book: %v", err)
	}
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "missing.book"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	p := filepath.Join(dir, "bad.book")
	os.WriteFile(p, good[:30], 0o644)
	if _, err := Load(p, nil); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("truncated file: error %v does not name the file", err)
	}
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
	var ch Choices
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
		var ch Choices
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

func TestPick(t *testing.T) {
	ch := []Choice{{Score: 20}, {Score: 15}, {Score: 10}, {Score: -50}}
	count := map[int]int{}
	for i := range 4000 {
		c, _ := Pick(ch, 10, uint64(i)*0x9E3779B97F4A7C15)
		count[c.Score]++
	}
	if count[-50] != 0 || count[20] <= count[15] || count[15] <= count[10] || count[10] == 0 {
		t.Errorf("choices by score: %v", count)
	}
	for i := range 100 {
		if c, _ := Pick(ch, 0, uint64(i)*0x9E3779B97F4A7C15); c.Score != 20 {
			t.Fatalf("margin 0 chose %d", c.Score)
		}
	}
	if _, ok := Pick(nil, 10, 1); ok {
		t.Error("Pick of nothing")
	}
	if Weight(0, 10) != 1 || Weight(10, 10) != 0.125 || Weight(11, 10) != 0 {
		t.Errorf("weights %v %v %v", Weight(0, 10), Weight(10, 10), Weight(11, 10))
	}
}

func TestProbeAllocs(t *testing.T) {
	v := movegen.Italian
	bk, _ := tinyBuild(t, v, 20, "")
	p := v.Start()
	var ch Choices
	if a := testing.AllocsPerRun(100, func() { bk.Probe(v, &p, &ch) }); a != 0 {
		t.Errorf("Probe allocates %v times", a)
	}
}

func BenchmarkProbe(b *testing.B) {
	v := movegen.Italian
	bk, err := Embedded(v)
	if err != nil {
		b.Skip(err)
	}
	p := v.Start()
	var ch Choices
	b.ReportAllocs()
	for b.Loop() {
		bk.Probe(v, &p, &ch)
	}
}

func BenchmarkLookupMiss(b *testing.B) {
	v := movegen.Italian
	bk, err := Embedded(v)
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	k := uint64(0)
	for b.Loop() {
		k += 0x9E3779B97F4A7C15
		bk.Lookup(k)
	}
}
