package eval

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// patVariants are the variants with pattern windows the tests cover: an
// 8x8 board of each orientation and the 10x10 one.
var patVariants = []*movegen.Variant{movegen.Italian, movegen.English, movegen.International}

// randomPatterns returns pattern weights of shape s for v drawn from
// [-r, r].
func randomPatterns(v *movegen.Variant, s PatShape, r int, seed uint64) []int16 {
	rng := rand.New(rand.NewPCG(seed, 0x7a77))
	t := make([]int16, PatternWindows(v, s)*s.Configs()*2)
	for i := range t {
		t[i] = int16(rng.IntN(2*r+1) - r)
	}
	return t
}

// patMirror returns p turned by 180° with the colours swapped.
func patMirror(v *movegen.Variant, p *movegen.Position) movegen.Position {
	rot := func(x uint64) (y uint64) {
		for ; x != 0; x &= x - 1 {
			f, r := v.Coord(bits.TrailingZeros64(x))
			y |= 1 << v.BitAt(v.Files()-1-f, v.Ranks()-1-r)
		}
		return y
	}
	q := movegen.Position{Kings: rot(p.Kings), Super: rot(p.Super), Side: p.Side ^ 1}
	q.Pieces[movegen.White], q.Pieces[movegen.Black] = rot(p.Pieces[movegen.Black]), rot(p.Pieces[movegen.White])
	return q
}

// TestPatternWindows: the windows' count and shape on each board, every
// square in one at least, and each window's rotation a window.
func TestPatternWindows(t *testing.T) {
	want := [PatShapes]map[*movegen.Variant]int{
		{movegen.Italian: 25, movegen.English: 25, movegen.International: 49},
		{movegen.Italian: 6, movegen.English: 6, movegen.International: 8},
		{movegen.Italian: 3, movegen.English: 3, movegen.International: 4},
	}
	for s := range PatShape(PatShapes) {
		for _, v := range patVariants {
			checkWindows(t, v, s, want[s][v])
		}
		if PatternWindows(movegen.Turkish, s) != 0 {
			t.Fatal("Turkish has pattern windows")
		}
	}
	for _, name := range []string{"4x4", "4x6", "4x6c"} {
		if s, err := ParsePatShape(name); err != nil || s.String() != name {
			t.Fatalf("%s: %v, %v", name, s, err)
		}
	}
	if _, err := ParsePatShape("5x5"); err == nil || !strings.Contains(err.Error(), "5x5") {
		t.Fatalf("5x5: %v, want an error naming it", err)
	}
}

// checkWindows checks v's windows of shape s: n of them, each of s's
// size, covering the board (PatCentre: its middle six ranks), each
// window's rotation a window.
func checkWindows(t *testing.T, v *movegen.Variant, s PatShape, n int) {
	t.Helper()
	g := patternGeometry(v, s)
	if len(g.w) != n {
		t.Fatalf("%s %v: %d windows, want %d", v.RulesName(), s, len(g.w), n)
	}
	{
		var all uint64
		for i, m := range g.mask {
			all |= m
			if g.mate[g.mate[i]] != i {
				t.Fatalf("%s: window %d's mate's mate is %d", v.RulesName(), i, g.mate[g.mate[i]])
			}
		}
		want := v.Board() // PatCentre's: the middle six ranks
		if s == PatCentre {
			want = 0
			for r := (v.Ranks() - 6) / 2; r < (v.Ranks()+6)/2; r++ {
				for f := range v.Files() {
					if x := v.BitAt(f, r); x >= 0 {
						want |= 1 << x
					}
				}
			}
		}
		if all != want {
			t.Fatalf("%s %v: the windows cover %x, want %x", v.RulesName(), s, all, want)
		}
		for i, m := range g.mask {
			if bits.OnesCount64(m) != s.Squares() {
				t.Fatalf("%s %v: window %d holds %d squares", v.RulesName(), s, i, bits.OnesCount64(m))
			}
		}
	}
}

// TestPatternFold: the folded tables give exactly what the tuner's two
// views through the fitted tables give, in every variant, with and
// without the kernel; and a position and its colour mirror score exactly
// opposite.
func TestPatternFold(t *testing.T) {
	for _, c := range []struct {
		v      *movegen.Variant
		s      PatShape
		r      int
		packed bool
		sparse bool // all but one weight in 20 zero, as fitted tables are
	}{
		{movegen.Italian, PatSquare, 400, true, false}, {movegen.English, PatSquare, 400, true, false}, {movegen.International, PatSquare, 150, true, false},
		// 49 windows of up to ±800 folded: beyond what the packed sum
		// carries, so the portable sums take it.
		{movegen.International, PatSquare, 400, false, false},
		{movegen.Italian, PatTall, 400, true, false}, {movegen.English, PatTall, 400, true, false}, {movegen.International, PatTall, 400, true, false},
		{movegen.International, PatTall, 3000, false, false},
		{movegen.Italian, PatSquare, 400, true, true}, {movegen.International, PatTall, 400, true, true},
		{movegen.International, PatCentre, 400, true, true}, {movegen.Italian, PatCentre, 400, true, false},
	} {
		v := c.v
		raw := randomPatterns(v, c.s, c.r, 3)
		if c.sparse {
			rng := rand.New(rand.NewPCG(4, 4))
			for i := range raw {
				if rng.IntN(20) != 0 {
					raw[i] = 0
				}
			}
		}
		pt, err := NewPatterns(v, c.s, raw)
		if err != nil {
			t.Fatal(err)
		}
		if pt.packed != c.packed {
			t.Fatalf("%s, weights ±%d: packed %v, want %v", v.RulesName(), c.r, pt.packed, c.packed)
		}
		l := layoutOf(v)
		var a, b []int32
		for _, game := range wideGames(v, 6, 120, 11) {
			for i := range game {
				p := &game[i]
				var ph float64
				a, b, ph = PatternIndexes(v, c.s, p, a[:0], b[:0])
				var mg, eg int32
				for j := range a {
					mg += int32(raw[2*a[j]]) - int32(raw[2*b[j]])
					eg += int32(raw[2*a[j]+1]) - int32(raw[2*b[j]+1])
				}
				n := bits.OnesCount64(p.Occupied())
				if ph != l.phase(n) {
					t.Fatalf("phase %v, want %v", ph, l.phase(n))
				}
				want := l.blend(mg, eg, n)
				got := pt.White(p)
				old := patKernel
				patKernel = false
				port := pt.White(p)
				patKernel = old
				if got != want || port != want {
					t.Fatalf("%s %v ply %d: kernel %d, portable %d, two views %d", v.RulesName(), c.s, i, got, port, want)
				}
				m := patMirror(v, p)
				if mm := pt.White(&m); mm != -got {
					t.Fatalf("%s %v ply %d: %d, its mirror %d", v.RulesName(), c.s, i, got, mm)
				}
			}
		}
	}
}

// TestPatternFile: a network with pattern tables written as a weights
// file (version 5 for one set of 4 x 4 windows, 6 for one of 4 x 6, 7 for
// both) reads back the same, loads, and evaluates as the network plus the
// tables; a damaged one is refused with a reason.
func TestPatternFile(t *testing.T) {
	for _, c := range []struct {
		name   string
		shapes []PatShape
		ver    int
	}{
		{"4x4", []PatShape{PatSquare}, PatternVersion},
		{"4x6", []PatShape{PatTall}, PatShapeVersion},
		{"both", []PatShape{PatSquare, PatTall}, PatSetsVersion},
		{"both, 4x6 first", []PatShape{PatTall, PatSquare}, PatSetsVersion},
		{"4x6c", []PatShape{PatCentre}, PatShapeVersion},
		{"three", []PatShape{PatTall, PatSquare, PatCentre}, PatSetsVersion},
	} {
		t.Run(c.name, func(t *testing.T) { testPatternFile(t, c.shapes, c.ver) })
	}
}

func testPatternFile(t *testing.T, shapes []PatShape, ver int) {
	v := movegen.Italian
	active := ActiveNet(v)
	if active == nil {
		t.Skip("no embedded Italian network")
	}
	nw := active.Weights()
	nw.Pats = nil // the embedded network's own tables, if it has them, are not this test's
	base, err := newNet(layoutOf(v), nw)
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range shapes {
		w := randomPatterns(v, s, 50, 5+uint64(k))
		for i := range w {
			if i%3 == 0 {
				w[i] = 0 // the bitmap skips them
			}
		}
		nw.Pats = append(nw.Pats, PatSet{Shape: s, W: w})
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, v, nw); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if int(b[4]) != ver || len(b) > maxWeightsFile {
		t.Fatalf("version %d, %d bytes; want version %d", b[4], len(b), ver)
	}
	got, err := ReadNet(v, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pats) != len(nw.Pats) {
		t.Fatalf("read back %d sets, want %d", len(got.Pats), len(nw.Pats))
	}
	for k, ps := range nw.Pats {
		if g := got.Pats[k]; g.Shape != ps.Shape || !slices.Equal(g.W, ps.W) {
			t.Fatalf("set %d read back as %v, %d weights (equal: %v); want %v, %d", k, g.Shape, len(g.W), slices.Equal(g.W, ps.W), ps.Shape, len(ps.W))
		}
	}
	n, err := newNet(layoutOf(v), *got)
	if err != nil {
		t.Fatal(err)
	}
	var alone []*Patterns // each set on its own
	for _, ps := range nw.Pats {
		pt, err := NewPatterns(v, ps.Shape, ps.W)
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, pt)
	}
	for _, game := range wideGames(v, 2, 80, 9) {
		for i := range game {
			p := &game[i]
			var acc NetAcc
			n.Refresh(&acc, p)
			want := base.White(p, &acc)
			for _, pt := range alone {
				want += pt.White(p)
			}
			if s := n.White(p, &acc); s != want {
				t.Fatalf("ply %d: %d, want the network's and the tables' %d", i, s, want)
			}
		}
	}
	tables := 0 // the bitmaps' bytes
	for _, ps := range nw.Pats {
		tables += (len(ps.W) + 7) / 8
	}
	type badFile struct {
		name string
		v    *movegen.Variant
		data []byte
		want string
	}
	damaged := []badFile{
		{"another variant", movegen.English, b, "not english"},
		{"truncated in the tables", v, b[:len(b)-4-tables], "truncated"},
		{"truncated at the end", v, b[:len(b)-2], "truncated"},
		{"a weight changed", v, func() []byte { x := bytes.Clone(b); x[len(x)-10] ^= 1; return x }(), "checksum"},
		{"trailing bytes", v, append(bytes.Clone(b), 0, 0, 0, 0, 0), "checksum"},
	}
	// The layout's bytes after the name: squares, hidden units, buckets,
	// tempo (7), then the sets' count (version 7) and windows.
	lay := 7 + int(b[6]) + 7
	switch ver {
	case PatternVersion:
		damaged = append(damaged, badFile{"read as 4 x 6", v, func() []byte { x := bytes.Clone(b); x[4] = PatShapeVersion; return x }(), "pattern"})
	case PatShapeVersion:
		damaged = append(damaged, badFile{"read as 4 x 4", v, func() []byte { x := bytes.Clone(b); x[4] = PatternVersion; return x }(), "pattern"})
	case PatSetsVersion:
		for _, d := range []struct {
			name string
			at   int
			to   []byte
			want string
		}{
			{"one set", lay, []byte{1}, "sets of pattern tables"},
			{"nine sets", lay, []byte{9}, "sets of pattern tables"},
			{"a shape unknown", lay + 3, []byte{7}, "pattern shape 7"},
			{"the same shape twice", lay + 4, b[lay+1 : lay+4], "two sets"}, // the second set's windows and shape made the first's
		} {
			x := bytes.Clone(b)
			copy(x[d.at:], d.to)
			damaged = append(damaged, badFile{d.name, v, x, d.want})
		}
	}
	for _, c := range damaged {
		_, err := ReadNet(c.v, bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	bad := nw
	bad.Pats = []PatSet{{Shape: shapes[0], W: nw.Pats[0].W[:10]}}
	if err := WriteNet(&buf, v, bad); err == nil {
		t.Error("10 pattern weights accepted")
	}
	bad.Pats = []PatSet{nw.Pats[0], nw.Pats[0]}
	if err := WriteNet(&buf, v, bad); err == nil || !strings.Contains(err.Error(), "two sets") {
		t.Errorf("two sets of one shape: %v", err)
	}
}

// TestPatternNoAllocs: scoring allocates nothing.
func TestPatternNoAllocs(t *testing.T) {
	v := movegen.International
	for s := range PatShape(PatShapes) {
		pt, err := NewPatterns(v, s, randomPatterns(v, s, 100, 7))
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		if n := testing.AllocsPerRun(100, func() { pt.White(&p) }); n != 0 {
			t.Fatalf("%v: %v allocations a call", s, n)
		}
	}
}

func BenchmarkPatterns(b *testing.B) {
	for _, v := range patVariants {
		for s := range PatShape(PatShapes) {
			b.Run(v.RulesName()+"/"+s.String(), func(b *testing.B) {
				pt, err := NewPatterns(v, s, randomPatterns(v, s, 100, 7))
				if err != nil {
					b.Fatal(err)
				}
				game := wideGames(v, 1, 60, 3)[0]
				b.ResetTimer()
				s := 0
				for i := 0; i < b.N; i++ {
					s += pt.White(&game[i%len(game)])
				}
				_ = s
			})
		}
	}
}

// TestEvaluateWhiteNoPatterns: the evaluation without the tables plus the
// tables is the evaluation, for the embedded Italian network (which has
// them) and for a variant whose network has none.
func TestEvaluateWhiteNoPatterns(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.Italian, movegen.English} {
		n := ActiveNet(v)
		for _, game := range wideGames(v, 2, 60, 21) {
			for i := range game {
				p := &game[i]
				tables := 0
				if n != nil && n.pat != nil {
					tables = n.pat.White(p)
				}
				if got, want := EvaluateWhiteNoPatterns(v, p)+tables, EvaluateWhite(v, p); got != want {
					t.Fatalf("%s ply %d: %d without the tables + %d, the evaluation %d", v.RulesName(), i, got-tables, tables, want)
				}
			}
		}
	}
	if n := ActiveNet(movegen.Italian); n == nil || n.pat == nil {
		t.Error("the embedded Italian network has no pattern tables")
	}
}
