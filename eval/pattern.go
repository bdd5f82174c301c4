package eval

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/damaengine/damaengine/movegen"
)

// Pattern tables (issue 45, design (a)): a term added to a network's
// score, one table of weights per board window, indexed by the
// configuration of the men in that window.
//
// Two shapes of windows (PatShape). PatSquare: PatFiles files by
// PatRanks ranks of the board, one at every file and rank where it fits
// (on 8x8, 5 x 5 = 25 windows; on 10x10, 7 x 7 = 49), so that the windows
// overlap and every local structure is seen whole in several of them. A
// diagonal board's 4 x 4 window holds PatSquares = 8 playable squares,
// each empty (or a king: kings are the network's business), an own man or
// an other man: PatConfigs = 3^8 configurations, each with a middlegame
// and an endgame weight blended by the number of pieces as the linear
// weights are (layout.blend). PatTall: 4 files by 6 ranks, fewer and
// larger (8 on 10x10, 6 on 8x8), 12 squares and 3^12 configurations a
// window; most of these never occur in play.
//
// Colour symmetry as in the network: each window is read twice, from
// White's view (its squares in order of rank then file from White's side,
// White's men own) and from Black's (the squares rotated, Black's men own),
// through the same table, and the term is the first sum less the second;
// so a position and its colour mirror score exactly opposite.
//
// The tables are fitted over a network that stays as it is (tune
// patterns: the residual the network leaves), in units of 1/WeightScale
// centi-man, and travel with it in a weights file of version 5 (6 for
// PatTall and PatCentre; weights.go). A network may carry a set of each
// shape (PatSet, version 7: tune patterns --keep fits a second set over
// the network and its first), whose terms add up. White's men are read
// from the bitboards a window at a time: with BMI2, one PEXT a colour
// gives the window's 8 (or 12) bits and a table their configuration
// digits (patSums, patSumsWide, pattern_amd64.s); elsewhere square by
// square (Patterns.sums), tested to agree.

// PatShape is a family of pattern windows: its windows' size and where
// they sit on the board.
type PatShape uint8

const (
	// PatSquare is 4 x 4 windows at every file and rank where one fits:
	// 8 playable squares a window (25 windows on 8x8, 49 on 10x10).
	PatSquare PatShape = 0
	// PatTall is 4 files by 6 ranks, at every other file (files 1–4,
	// 3–6, …) and at the two edges of the board (ranks 1–6 and the top
	// six): 12 playable squares a window, 3^12 configurations (8 windows
	// on 10x10, 6 on 8x8). The strong 10x10 engines read their men
	// through windows of this size; they see a third of the board's
	// formations whole.
	PatTall PatShape = 1
	// PatCentre is PatTall's windows in the board's middle band (ranks
	// 3–8 on 10x10, 2–7 on 8x8), at the same files: 4 windows on 10x10,
	// 3 on 8x8, which see whole the central formations that PatTall's two
	// bands (overlapping by two ranks) cut in half. A second set beside a
	// PatTall one (PatSet).
	PatCentre PatShape = 2
	// PatShapes is the number of shapes.
	PatShapes = 3
)

// PatFiles and PatRanks are a PatSquare window's size; PatSquares its
// playable squares on a diagonal board; PatConfigs the configurations of
// one. MaxPatSquares bounds any shape's squares.
const (
	PatFiles      = 4
	PatRanks      = 4
	PatSquares    = 8
	PatConfigs    = 6561 // 3^PatSquares
	MaxPatSquares = 12
)

// Squares returns the playable squares of one of s's windows.
func (s PatShape) Squares() int {
	if s == PatTall || s == PatCentre {
		return 12
	}
	return PatSquares
}

// Configs returns the configurations of one of s's windows: 3^Squares.
func (s PatShape) Configs() int {
	c := 1
	for range s.Squares() {
		c *= 3
	}
	return c
}

// String names s as the command line does: "4x4", "4x6" or "4x6c" (the
// centre band).
func (s PatShape) String() string {
	switch s {
	case PatTall:
		return "4x6"
	case PatCentre:
		return "4x6c"
	}
	return "4x4"
}

// ParsePatShape reads a shape's name ("4x4", "4x6" or "4x6c").
func ParsePatShape(name string) (PatShape, error) {
	for s := range PatShape(PatShapes) {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("pattern shape %q: want 4x4, 4x6 or 4x6c", name)
}

// patGeometry is one layout's windows of one shape: the bits of each
// window's squares in digit order (increasing bit, the order PEXT reads
// them in), from White's view (w), and the same squares rotated for
// Black's view (b: b[i][d] is the rotation of w[i][d]); mask[i] is window
// i's squares and mate[i] the window whose rotated squares are window
// i's; n the squares a window and configs its configurations.
type patGeometry struct {
	shape      PatShape
	n, configs int
	w, b       [][MaxPatSquares]uint8
	mask       []uint64
	mate       []int
}

var patGeo [movegen.NumIDs][PatShapes]struct {
	once sync.Once
	g    *patGeometry
}

// patternGeometry returns v's windows of shape s, or nil when v has no
// diagonal layout.
func patternGeometry(v *movegen.Variant, s PatShape) *patGeometry {
	l := layoutOf(v)
	if l == nil || l.orth || s >= PatShapes {
		return nil
	}
	e := &patGeo[v.ID()][s]
	e.once.Do(func() {
		files, ranks := v.Files(), v.Ranks()
		rot := func(b int) int {
			f, r := v.Coord(b)
			return v.BitAt(files-1-f, ranks-1-r)
		}
		g := &patGeometry{shape: s, n: s.Squares(), configs: s.Configs()}
		wf, wr, fstep := PatFiles, PatRanks, 1
		rows := []int{}
		for r0 := 0; r0+wr <= ranks; r0++ {
			rows = append(rows, r0)
		}
		switch s {
		case PatTall:
			wr, fstep = 6, 2
			rows = []int{0, ranks - wr}
		case PatCentre:
			wr, fstep = 6, 2
			rows = []int{(ranks - wr) / 2}
		}
		for _, r0 := range rows {
			for f0 := 0; f0+wf <= files; f0 += fstep {
				var m uint64
				for r := r0; r < r0+wr; r++ {
					for f := f0; f < f0+wf; f++ {
						if x := v.BitAt(f, r); x >= 0 {
							m |= 1 << x
						}
					}
				}
				if bits.OnesCount64(m) != g.n {
					panic("eval: a pattern window does not hold its shape's squares")
				}
				var w, b [MaxPatSquares]uint8
				for d, x := 0, m; x != 0; d, x = d+1, x&(x-1) {
					w[d] = uint8(bits.TrailingZeros64(x))
					b[d] = uint8(rot(int(w[d])))
				}
				g.w, g.b, g.mask = append(g.w, w), append(g.b, b), append(g.mask, m)
			}
		}
		for i := range g.b {
			var m uint64
			for _, x := range g.b[i][:g.n] {
				m |= 1 << x
			}
			j := slices.Index(g.mask, m)
			if j < 0 {
				panic("eval: the pattern windows are not closed under rotation")
			}
			g.mate = append(g.mate, j)
		}
		e.g = g
	})
	return e.g
}

// PatternWindows returns the number of pattern windows of shape s on v (0:
// none).
func PatternWindows(v *movegen.Variant, s PatShape) int {
	if g := patternGeometry(v, s); g != nil {
		return len(g.w)
	}
	return 0
}

// config is the configuration of the window whose squares are sq, own men
// own and the other side's opp: Σ 3^i·state(sq[i]), state 1 for an own
// man, 2 for an other man, 0 otherwise.
func (g *patGeometry) config(sq *[MaxPatSquares]uint8, own, opp uint64) int {
	c := 0
	for i := g.n - 1; i >= 0; i-- {
		b := sq[i] & 63
		c = 3*c + int(own>>b&1) + 2*int(opp>>b&1)
	}
	return c
}

// PatternIndexes appends to a and b, for each window of shape s on v, the
// index (window × configurations + configuration) of p's White view and
// of its Black view, and returns them with the middlegame share of the
// blend (0 to 1), for the tuner.
func PatternIndexes(v *movegen.Variant, s PatShape, p *movegen.Position, a, b []int32) ([]int32, []int32, float64) {
	g := patternGeometry(v, s)
	if g == nil {
		return a, b, 0
	}
	wm, bm := p.Men(movegen.White), p.Men(movegen.Black)
	for i := range g.w {
		a = append(a, int32(i*g.configs+g.config(&g.w[i], wm, bm)))
		b = append(b, int32(i*g.configs+g.config(&g.b[i], bm, wm)))
	}
	return a, b, layoutOf(v).phase(bits.OnesCount64(p.Occupied()))
}

// PatSet is one set of pattern tables as fitted and written: the shape
// of its windows and its weights (windows × configurations × 2,
// middlegame and endgame interleaved, in units of 1/WeightScale
// centi-man). A network may carry several sets of different shapes
// (NetWeights.Pats), whose terms add up.
type PatSet struct {
	Shape PatShape
	W     []int16
}

// MaxPatSets bounds the sets of pattern tables one network carries.
const MaxPatSets = 4

// PatternSets are a network's sets of pattern tables ready to evaluate
// with; their terms add up.
type PatternSets []*Patterns

// NewPatternSets makes v's tables of each set in sets (none for none),
// as a network carrying them does (and the tuner, which holds them fixed
// under a fit), refusing two sets of one shape: their terms would only
// add up to one set's.
func NewPatternSets(v *movegen.Variant, sets []PatSet) (PatternSets, error) {
	if len(sets) > MaxPatSets {
		return nil, fmt.Errorf("eval patterns: %d sets of tables, at most %d", len(sets), MaxPatSets)
	}
	var pts PatternSets
	for i, ps := range sets {
		for _, o := range sets[:i] {
			if o.Shape == ps.Shape {
				return nil, fmt.Errorf("eval patterns: two sets of %v tables", ps.Shape)
			}
		}
		pt, err := NewPatterns(v, ps.Shape, ps.W)
		if err != nil {
			return nil, err
		}
		pts = append(pts, pt)
	}
	return pts, nil
}

// White returns the sum of the sets' pattern terms of p, White's view, in
// centi-men.
func (ps PatternSets) White(p *movegen.Position) int {
	s := 0
	for _, pt := range ps {
		s += pt.White(p)
	}
	return s
}

// Patterns are a variant's pattern tables ready to evaluate with.
type Patterns struct {
	l *layout
	g *patGeometry
	// t are the weights as fitted and written: t[(window×configurations
	// + configuration)×2 + 0 or 1] is the middlegame or endgame weight of
	// the configuration read from either side's view, in units of
	// 1/WeightScale centi-man.
	t []int16
	// f is t folded for White's view alone and packed:
	// f[window×configurations + c] is mg·2^16 + eg, where mg and eg are
	// t's middlegame and endgame weights of configuration c of the window
	// from White's view less those of the configuration the same squares
	// show from Black's (read through the window mate whose rotation they
	// are), so that one read a window gives both views' difference in
	// both phases. A sum of packed entries is MG·2^16 + EG, EG read back
	// from its low 16 bits as long as |EG| < 2^15, which packed says holds
	// for every position (the largest |eg| of each window summed is below
	// it).
	f      []int32
	packed bool
}

// NewPatterns makes v's pattern tables of shape s from their weights
// (windows × configurations × 2: middlegame and endgame interleaved).
func NewPatterns(v *movegen.Variant, s PatShape, t []int16) (*Patterns, error) {
	g := patternGeometry(v, s)
	if g == nil {
		return nil, fmt.Errorf("eval patterns: %v has no pattern windows of shape %v", v, s)
	}
	nc := g.configs
	if len(t) != len(g.w)*nc*2 {
		return nil, fmt.Errorf("eval patterns: %d weights, want %d for %s's %v windows", len(t), len(g.w)*nc*2, v.RulesName(), s)
	}
	pt := &Patterns{l: layoutOf(v), g: g, t: t, f: make([]int32, len(t)/2)}
	var pow [MaxPatSquares]int
	for d, x := 0, 1; d < g.n; d, x = d+1, 3*x {
		pow[d] = x
	}
	// Most weights are zero (configurations play never shows), so only
	// the folded entries a weight that is set reaches are made: window
	// j's entry c from j's White-view weight of c and window i = mate[j]'s
	// Black-view weight of the configuration cb its rotated squares show.
	// Digit d of i's Black view reads the square at digit pos[d] of j's,
	// own and other swapped. The map c → cb (and back) moves and
	// recolours digits, each on its own, so it is a sum over the digits:
	// a table of the low half's digits plus one of the high half's
	// (digitMap). The entry is made from each side's set weights: j's
	// White-view ones (c to cb) and i's Black-view ones (cb to c).
	swap := [3]int{0, 2, 1}
	egMax := make([]int, len(g.w))
	for j := range g.w {
		i := g.mate[j] // window i's Black view reads window j's squares
		var pos, inv [MaxPatSquares]int
		for d, sq := range g.b[i][:g.n] {
			pos[d] = slices.Index(g.w[j][:g.n], sq)
			inv[pos[d]] = d
		}
		toB := newDigitMap(g.n, func(e, v int) int { return pow[inv[e]] * swap[v] })
		toW := newDigitMap(g.n, func(d, v int) int { return pow[pos[d]] * swap[v] })
		fold := func(c, cb int) error {
			x, y := 2*(j*nc+c), 2*(i*nc+cb)
			mg, eg := int(t[x])-int(t[y]), int(t[x+1])-int(t[y+1])
			if mg < -32767 || mg > 32767 || eg < -32767 || eg > 32767 {
				return fmt.Errorf("eval patterns: window %d, configuration %d: folded weights %d, %d beyond 16 bits", j, c, mg, eg)
			}
			pt.f[j*nc+c] = int32(mg<<16 + eg)
			egMax[j] = max(egMax[j], eg, -eg)
			return nil
		}
		for _, side := range [2]struct {
			w    int       // the window whose weights are read
			turn *digitMap // from that window's configuration to the other's
			wv   bool      // true: j's White view (c); false: i's Black view (cb)
		}{{j, toB, true}, {i, toW, false}} {
			tw := t[2*side.w*nc : 2*(side.w+1)*nc]
			for x, w := range tw {
				if w == 0 || x&1 == 1 && tw[x-1] != 0 {
					continue // a configuration once, at its first weight set
				}
				k := x / 2
				c, cb := k, side.turn.of(k)
				if !side.wv {
					c, cb = cb, k
				}
				if err := fold(c, cb); err != nil {
					return nil, err
				}
			}
		}
	}
	egBound := 0
	for _, m := range egMax {
		egBound += m
	}
	pt.packed = egBound < 1<<15
	return pt, nil
}

// digitMap is a map of configurations that sends each digit on its own
// (a move of squares and a swap of colours, as between a window's two
// views), so that it is a sum over the digits, made of two tables: one
// of the configurations of the low half's digits, one of the high half's.
type digitMap struct {
	lo, hi []int
	split  int // 3^(the low half's digits)
}

// newDigitMap returns the map of n-digit configurations whose digit e of
// value v adds add(e, v).
func newDigitMap(n int, add func(e, v int) int) *digitMap {
	h := n / 2
	half := func(from, to int) []int {
		size := 1
		for range to - from {
			size *= 3
		}
		t := make([]int, size)
		for a := range t {
			for e, x := from, a; e < to; e, x = e+1, x/3 {
				t[a] += add(e, x%3)
			}
		}
		return t
	}
	m := &digitMap{lo: half(0, h), hi: half(h, n)}
	m.split = len(m.lo)
	return m
}

// of returns the image of configuration c.
func (m *digitMap) of(c int) int { return m.lo[c%m.split] + m.hi[c/m.split] }

// White returns the pattern term of p, White's view, in centi-men.
func (pt *Patterns) White(p *movegen.Position) int {
	wm, bm := p.Men(movegen.White), p.Men(movegen.Black)
	var mg, eg int32
	if patKernel && pt.packed {
		var s int64
		if pt.g.shape == PatSquare {
			s = patSums(wm, bm, &pt.g.mask[0], len(pt.g.mask), &patTern[0], &pt.f[0])
		} else {
			s = patSumsWide(wm, bm, &pt.g.mask[0], len(pt.g.mask), &patTernWide[0], &pt.f[0], 4*pt.g.configs)
		}
		eg = int32(int16(s))
		mg = int32((s - int64(eg)) >> 16)
	} else {
		mg, eg = pt.sums(wm, bm)
	}
	return pt.l.blend(mg, eg, bits.OnesCount64(p.Occupied()))
}

// sums is White's sums without the kernel: each window's configuration
// read square by square, each entry unpacked.
func (pt *Patterns) sums(wm, bm uint64) (mg, eg int32) {
	f, g := pt.f, pt.g
	for i := range g.w {
		e := f[i*g.configs+g.config(&g.w[i], wm, bm)]
		lo := int32(int16(e))
		mg += (e - lo) >> 16
		eg += lo
	}
	return mg, eg
}

// patTern[x] is the configuration digits of the 8 bits x as an own side's
// men: Σ 3^d over the set bits d (the other side's are twice that).
// patTernWide is the same for 12 bits.
var (
	patTern     = ternTable[uint16](PatSquares)
	patTernWide = ternTable[uint32](MaxPatSquares)
)

// ternTable returns the configuration digits of every n-bit x: Σ 3^d over
// its set bits d.
func ternTable[T uint16 | uint32](n int) []T {
	t := make([]T, 1<<n)
	for x := range t {
		for d, p := 0, 1; d < n; d, p = d+1, 3*p {
			if x>>d&1 != 0 {
				t[x] += T(p)
			}
		}
	}
	return t
}
