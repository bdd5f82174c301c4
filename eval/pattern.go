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
// A window is PatFiles files by PatRanks ranks of the board, one at every
// file and rank where it fits (on 8x8, 5 x 5 = 25 windows; on 10x10,
// 7 x 7 = 49), so that the windows overlap and every local structure is
// seen whole in several of them. A diagonal board's 4 x 4 window holds
// PatSquares = 8 playable squares, each empty (or a king: kings are the
// network's business), an own man or an other man: PatConfigs = 3^8
// configurations, each with a middlegame and an endgame weight blended by
// the number of pieces as the linear weights are (layout.blend).
//
// Colour symmetry as in the network: each window is read twice, from
// White's view (its squares in order of rank then file from White's side,
// White's men own) and from Black's (the squares rotated, Black's men own),
// through the same table, and the term is the first sum less the second;
// so a position and its colour mirror score exactly opposite.
//
// The tables are fitted over a network that stays as it is (tune
// patterns: the residual the network leaves), in units of 1/WeightScale
// centi-man, and travel with it in a weights file of version 5
// (weights.go). White's men are read from the bitboards a window at a
// time: with BMI2, one PEXT a colour gives the window's 8 bits and a
// table their configuration digits (patSums, pattern_amd64.s); elsewhere
// square by square (Patterns.sums), tested to agree.

// PatFiles and PatRanks are a window's size; PatSquares its playable
// squares on a diagonal board; PatConfigs the configurations of one.
const (
	PatFiles   = 4
	PatRanks   = 4
	PatSquares = 8
	PatConfigs = 6561 // 3^PatSquares
)

// patGeometry is one layout's windows: the bits of each window's squares
// in digit order (increasing bit, the order PEXT reads them in), from
// White's view (w), and the same squares rotated for Black's view (b:
// b[i][d] is the rotation of w[i][d]); mask[i] is window i's squares and
// mate[i] the window whose rotated squares are window i's.
type patGeometry struct {
	w, b [][PatSquares]uint8
	mask []uint64
	mate []int
}

var patGeo [movegen.NumIDs]struct {
	once sync.Once
	g    *patGeometry
}

// patternGeometry returns v's windows, or nil when v has no diagonal
// layout.
func patternGeometry(v *movegen.Variant) *patGeometry {
	l := layoutOf(v)
	if l == nil || l.orth {
		return nil
	}
	e := &patGeo[v.ID()]
	e.once.Do(func() {
		files, ranks := v.Files(), v.Ranks()
		rot := func(b int) int {
			f, r := v.Coord(b)
			return v.BitAt(files-1-f, ranks-1-r)
		}
		g := &patGeometry{}
		for r0 := 0; r0+PatRanks <= ranks; r0++ {
			for f0 := 0; f0+PatFiles <= files; f0++ {
				var m uint64
				for r := r0; r < r0+PatRanks; r++ {
					for f := f0; f < f0+PatFiles; f++ {
						if x := v.BitAt(f, r); x >= 0 {
							m |= 1 << x
						}
					}
				}
				if bits.OnesCount64(m) != PatSquares {
					panic("eval: a pattern window does not hold PatSquares squares")
				}
				var w, b [PatSquares]uint8
				for d, x := 0, m; x != 0; d, x = d+1, x&(x-1) {
					w[d] = uint8(bits.TrailingZeros64(x))
					b[d] = uint8(rot(int(w[d])))
				}
				g.w, g.b, g.mask = append(g.w, w), append(g.b, b), append(g.mask, m)
			}
		}
		for i := range g.b {
			var m uint64
			for _, x := range g.b[i] {
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

// PatternWindows returns the number of pattern windows of v (0: none).
func PatternWindows(v *movegen.Variant) int {
	if g := patternGeometry(v); g != nil {
		return len(g.w)
	}
	return 0
}

// patConfig is the configuration of the window whose squares are sq, own
// men own and the other side's opp: Σ 3^i·state(sq[i]), state 1 for an
// own man, 2 for an other man, 0 otherwise.
func patConfig(sq *[PatSquares]uint8, own, opp uint64) int {
	c := 0
	for i := PatSquares - 1; i >= 0; i-- {
		b := sq[i] & 63
		c = 3*c + int(own>>b&1) + 2*int(opp>>b&1)
	}
	return c
}

// PatternIndexes appends to a and b, for each window of v, the index
// (window × PatConfigs + configuration) of p's White view and of its Black
// view, and returns them with the middlegame share of the blend (0 to 1),
// for the tuner.
func PatternIndexes(v *movegen.Variant, p *movegen.Position, a, b []int32) ([]int32, []int32, float64) {
	g := patternGeometry(v)
	if g == nil {
		return a, b, 0
	}
	wm, bm := p.Men(movegen.White), p.Men(movegen.Black)
	for i := range g.w {
		a = append(a, int32(i*PatConfigs+patConfig(&g.w[i], wm, bm)))
		b = append(b, int32(i*PatConfigs+patConfig(&g.b[i], bm, wm)))
	}
	return a, b, layoutOf(v).phase(bits.OnesCount64(p.Occupied()))
}

// Patterns are a variant's pattern tables ready to evaluate with.
type Patterns struct {
	l *layout
	g *patGeometry
	// t are the weights as fitted and written: t[(window×PatConfigs +
	// configuration)×2 + 0 or 1] is the middlegame or endgame weight of
	// the configuration read from either side's view, in units of
	// 1/WeightScale centi-man.
	t []int16
	// f is t folded for White's view alone and packed: f[window×PatConfigs
	// + c] is mg·2^16 + eg, where mg and eg are t's middlegame and endgame
	// weights of configuration c of the window from White's view less
	// those of the configuration the same squares show from Black's (read
	// through the window mate whose rotation they are), so that one read
	// a window gives both views' difference in both phases. A sum of
	// packed entries is MG·2^16 + EG, EG read back from its low 16 bits as
	// long as |EG| < 2^15, which packed says holds for every position (the
	// largest |eg| of each window summed is below it).
	f      []int32
	packed bool
}

// NewPatterns makes v's pattern tables from their weights (windows ×
// PatConfigs × 2: middlegame and endgame interleaved).
func NewPatterns(v *movegen.Variant, t []int16) (*Patterns, error) {
	g := patternGeometry(v)
	if g == nil {
		return nil, fmt.Errorf("eval patterns: %v has no pattern windows", v)
	}
	if len(t) != len(g.w)*PatConfigs*2 {
		return nil, fmt.Errorf("eval patterns: %d weights, want %d for %s", len(t), len(g.w)*PatConfigs*2, v.RulesName())
	}
	pt := &Patterns{l: layoutOf(v), g: g, t: t, f: make([]int32, len(t)/2)}
	egBound := 0
	var pow [PatSquares]int
	for d, x := 0, 1; d < PatSquares; d, x = d+1, 3*x {
		pow[d] = x
	}
	for j := range g.w {
		i := g.mate[j] // window i's Black view reads window j's squares
		// val[e][st]: what a man of state st on digit e of window j
		// (White's view) adds to the configuration window i's Black view
		// reads: the colours swap (own is Black there) and the digit moves
		// to the place of its square in window i's rotated order.
		var val [PatSquares][3]int
		for d, sq := range g.b[i] {
			e := slices.Index(g.w[j][:], sq)
			val[e] = [3]int{0, 2 * pow[d], pow[d]}
		}
		// The configurations in order, their digits kept as an odometer.
		var dig [PatSquares]int
		cb, egMax := 0, 0
		for c := 0; c < PatConfigs; c++ {
			x, y := 2*(j*PatConfigs+c), 2*(i*PatConfigs+cb)
			mg, eg := int(t[x])-int(t[y]), int(t[x+1])-int(t[y+1])
			if mg < -32767 || mg > 32767 || eg < -32767 || eg > 32767 {
				return nil, fmt.Errorf("eval patterns: window %d, configuration %d: folded weights %d, %d beyond 16 bits", j, c, mg, eg)
			}
			pt.f[j*PatConfigs+c] = int32(mg<<16 + eg)
			egMax = max(egMax, eg, -eg)
			for e := 0; e < PatSquares; e++ {
				cb -= val[e][dig[e]]
				dig[e] = (dig[e] + 1) % 3
				cb += val[e][dig[e]]
				if dig[e] != 0 {
					break
				}
			}
		}
		egBound += egMax
	}
	pt.packed = egBound < 1<<15
	return pt, nil
}

// White returns the pattern term of p, White's view, in centi-men.
func (pt *Patterns) White(p *movegen.Position) int {
	wm, bm := p.Men(movegen.White), p.Men(movegen.Black)
	var mg, eg int32
	if patKernel && pt.packed {
		s := patSums(wm, bm, &pt.g.mask[0], len(pt.g.mask), &patTern[0], &pt.f[0])
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
	f := pt.f
	for i := range pt.g.w {
		e := f[i*PatConfigs+patConfig(&pt.g.w[i], wm, bm)]
		lo := int32(int16(e))
		mg += (e - lo) >> 16
		eg += lo
	}
	return mg, eg
}

// patTern[x] is the configuration digits of the 8 bits x as an own side's
// men: Σ 3^d over the set bits d (the other side's are twice that).
var patTern = func() (t [256]uint16) {
	for x := range t {
		for d, p := 0, 1; d < PatSquares; d, p = d+1, 3*p {
			if x>>d&1 != 0 {
				t[x] += uint16(p)
			}
		}
	}
	return t
}()
