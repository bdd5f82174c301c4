package eval

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/damaengine/damaengine/movegen"
)

// The learned evaluation of the diagonal variants (Italian, English,
// Russian, Brazilian, Spanish, International), of Italian Damone (both rule
// options) and of Turkish: the variant's hand-written
// evaluation plus a learned correction, a sum of weights fitted offline by
// the tuner (package tune) on self-play positions. Every weight has a
// middlegame and an endgame value, blended by the number of pieces on the
// board as the hand-written terms are.
//
// The features, each computed for White from White's point of view and for
// Black by the same table on the rotated square, and taken as White's
// minus Black's (so a position and its mirror score exactly opposite):
//
//   - men by square: one weight per playable square (the square seen from
//     the men's owner), which also carries the material value of a man;
//   - kings by square, the same for kings;
//   - king mobility: one weight per empty square diagonally next to a king
//     (Turkish: orthogonally next to it);
//   - balance: one weight per wing imbalance |men on the left half - men
//     on the right half|, 0 .. 7 or more;
//   - men patterns: every region of 2 ranks by 4 files starting on an even
//     file (on 8x8: 3 regions across times 7 rank pairs = 21; on 10x10
//     4 x 9 = 36) holds 4 playable squares, each empty (or a king), an own
//     man or an enemy man: 3^4 = 81 configurations per region, one weight
//     each. Regions overlap by two files, so neighbouring structures are
//     seen together. Turkish has none: its 64 squares as 2 x 2 blocks
//     (49 regions) fitted and played worse than the square tables alone;
//   - Turkish only, the side to move's terms: one weight for having the
//     move (tempo), and the side to move's men (1, 2, 3 or more) and
//     kings (1, 2 or more) that the other side could capture now
//     (tkThreatFeatures), counted for the side to move;
//   - Damone only: the Damoni by square (the Dame use the kings' table).
//
// A variant uses its learned evaluation when weights for it are embedded
// (eval/weights/VARIANT.dw, only for variants where the learned
// evaluation measured better in self-play) or were loaded by LoadWeights;
// otherwise its hand-written evaluation alone. A weights file of version 2
// holds a network (net.go) that takes the place of every table here.

// WeightScale is the number of weight units in a centi-man: weights are
// stored as int16 in units of 1/WeightScale centi-man.
const WeightScale = 4

// patternStates is the number of states of a pattern square; patternSize
// the squares in a pattern region; patternConfigs the configurations.
const (
	patternSize    = 4
	patternConfigs = 81 // 3^patternSize
	balanceBuckets = 8
	maxShapes      = 8 // distinct region shapes of the fast form
)

// layout is the feature layout of one variant's learned evaluation.
type layout struct {
	v           *movegen.Variant
	hand        func(p *movegen.Position) int // the hand-written evaluation (White)
	nsq         int                           // playable squares
	sqW, sqB    [64]int16                     // feature square of a bit for White, for Black (-1: off the board)
	sA, sB      uint                          // the diagonal shifts
	board       uint64
	left, right uint64 // halves of the board by file
	winW, winB  [][patternSize]uint8
	// The fast form of the regions: each region's White view is a base
	// bit and a shape; tri[shape][x] is the configuration digit sum of the
	// 8 bits x read from the base (bits of other squares ignored). The
	// Black views need none: the folded tables read them through the
	// White view of the same squares (see fold).
	fastW   []window
	tri     [maxShapes][256]uint8
	nShapes int
	// mate[i] is the region whose Black view covers the squares of region
	// i's White view (the regions are closed under the board's rotation),
	// and owns[i] the squares whose men's weights region i's folded table
	// carries (each playable square in exactly one region).
	mate             []int
	owns             []uint64
	phaseLo, phaseHi int
	// orth marks Turkish's orthogonal board: king mobility counts the
	// empty squares of next[b] (the orthogonal neighbours of bit b), and
	// the regions are read square by square.
	orth bool
	next [64]uint64
	// damone marks Italian Damone's three ranks of piece: the Damoni
	// (Position.Super) have a square table of their own (fSuper); the
	// Dame use the kings' table.
	damone bool
	// handMob, where not nil, is hand that also returns the kings'
	// mobility as mobility counts it (Italian), so that white need not
	// count it twice.
	handMob func(p *movegen.Position) (int, int)
	// diag, where not nil, is the diagonal evaluation hand is the method
	// of, called directly.
	diag *diagEval

	// feature offsets (fTempo and fThreat: Turkish only)
	fMen, fKing, fMob, fBal, fWin, fTempo, fThreat, fSuper, nFeat int

	cur atomic.Pointer[weightTables] // learned weights in use (nil: hand-written only)
	// def is the embedded weights (nil: none), read and built by defaults
	// the first time they are asked for: building a wide network's tables
	// (and folding pattern tables) costs millions of instructions, which a
	// process that never evaluates in this variant, or evaluates it with
	// other weights or none, should not pay.
	def     *weightTables
	defOnce sync.Once
	// pending says the embedded weights are to be put in use at the next
	// read of cur (ensure): true at the start and after ResetWeights. mu
	// orders that late store with the writers (use), so that it never
	// overwrites what a writer put in use.
	pending atomic.Bool
	mu      sync.Mutex
}

// defaults returns l's embedded weights, loading them the first time.
func (l *layout) defaults() *weightTables {
	l.defOnce.Do(func() { l.def = loadEmbedded(l) })
	return l.def
}

// ensure puts l's embedded weights in use if they are pending. Every
// reader of cur that may find it nil calls it.
func (l *layout) ensure() {
	if !l.pending.Load() {
		return
	}
	l.mu.Lock()
	if l.pending.Load() {
		l.cur.Store(l.defaults())
		l.pending.Store(false)
	}
	l.mu.Unlock()
}

// use puts t in use (nil: the hand-written evaluation alone); it is the
// one writer of cur.
func (l *layout) use(t *weightTables) {
	l.mu.Lock()
	l.pending.Store(false)
	l.cur.Store(t)
	l.mu.Unlock()
}

// useDefaults puts the embedded weights back in use from the next read
// (ensure), which loads them if no read has yet: they may never be needed.
func (l *layout) useDefaults() {
	l.mu.Lock()
	l.cur.Store(nil)
	l.pending.Store(true)
	l.mu.Unlock()
}

// window is one view of a pattern region: the bits from base, read
// through shape.
type window struct{ base, shape uint8 }

// weightTables are one variant's weights laid out for the evaluation: the
// square tables by bit for each colour, the rest by feature.
type weightTables struct {
	menW, menB   [64][2]int32 // [bit][mg, eg]
	kingW, kingB [64][2]int32
	supW, supB   [64][2]int32 // Damone: the Damoni
	mob, bal     [][2]int32
	win          [][2]int32 // [region*81 + configuration]
	tempo        [2]int32   // Turkish: the side to move's
	threat       [tkThreatBuckets][2]int32
	raw          []int16 // the file's weights, mg and eg interleaved by feature
	// net, where not nil, is a network file's evaluation (net.go), which
	// replaces every table here.
	net *Net

	// The folded form the diagonal boards are evaluated with (see fold):
	// values packed as mg<<32 + eg, one table per region holding White's
	// view less Black's view of the same squares plus the men's square
	// weights of the squares it owns.
	regs []foldedRegion
	// rows is regs again, a row of regions to an entry, where each
	// board row pair holds rowWidth regions of one shape on consecutive
	// base bits (3 on 8x8, 4 on 10x10); nil where they do not.
	rows           []foldedRow
	rowWidth       int
	kingWp, kingBp [64]int64
	supWp, supBp   [64]int64
	mobP           int64
	balP           [balanceBuckets]int64
}

// foldedRegion is one pattern region of the folded form: where its bits
// are read (the White view's window) and its packed value by configuration.
type foldedRegion struct {
	base uint8       // the lowest bit of the White view's window
	tri  *[256]uint8 // its shape's configuration table (layout.tri)
	// val is indexed by a byte, so that the evaluation reads it without a
	// bounds check; the configurations from patternConfigs on, which
	// overlapping men would give, stay zero.
	val [256]int64
}

// handCounts are counts the hand-written evaluation made that the learned
// correction needs too: the kings' mobility (as layout.mobility counts
// it) where hasMob, and each side's wing imbalance |left − right men|
// (uncapped) where hasBal.
type handCounts struct {
	mob    int
	dw, db int
	hasMob bool
	hasBal bool
}

// foldedRow is a row of rowWidth folded regions of one shape whose bases
// are consecutive bits from base: region k reads the men shifted right by
// base+k. A row is read at once: cfg holds, for the 11 bits from base, the
// configuration digit sums of the row's regions packed 7 bits a region
// (region k's from bit 7k), so that cfg[x] + 2*cfg[y] packs the row's
// configurations (each at most 120: the fields do not carry).
type foldedRow struct {
	base uint8
	cfg  *[rowBits]uint32
	val  [4 * 128]int64 // region k's values from k*128, by configuration
}

// rowBits is the number of entries of a row's configuration table: the 11
// bits a row of 4 regions of 2 x 4 squares spans on 10x10 (9 on 8x8).
const rowBits = 1 << 11

// pack packs a middlegame and an endgame value into one int64 (mg<<32 +
// eg), so that sums of packed values are the packed sums; unpack undoes
// it while each sum stays within 31 bits.
func pack(mg, eg int32) int64 { return int64(mg)<<32 + int64(eg) }

// unpack returns the middlegame and endgame halves of a packed sum.
func unpack(x int64) (mg, eg int32) {
	eg = int32(uint32(x))
	return int32((x - int64(eg)) >> 32), eg
}

// layouts holds the learned-evaluation layout of each variant that has one,
// indexed by Variant.ID.
var layouts [movegen.NumIDs]*layout

// learnedVariants are the variants with a learned-evaluation layout.
var learnedVariants = []*movegen.Variant{
	movegen.Italian, movegen.English, movegen.Russian, movegen.Brazilian,
	movegen.Spanish, movegen.International, movegen.Turkish,
	movegen.Damone, movegen.DamoneAllDamoni,
}

func init() {
	for _, v := range learnedVariants {
		e := evaluations[v]
		if e.white == nil {
			continue
		}
		l := newLayout(v, e.white)
		if l == nil {
			continue
		}
		switch v {
		case movegen.Italian:
			l.handMob = italianWhiteMob
		case movegen.English:
			l.diag = evEnglish
		case movegen.Russian:
			l.diag = evRussian
		case movegen.Brazilian:
			l.diag = evBrazilian
		case movegen.Spanish:
			l.diag = evSpanish
		case movegen.International:
			l.diag = evInternational
		}
		layouts[v.ID()] = l
		e.white = l.white
		evaluations[v] = e
		byID[v.ID()] = e
		handByID[v.ID()] = l.hand
	}
}

// handByID holds the hand-written evaluation of each variant with a
// learned layout, for HandEvaluate.
var handByID [movegen.NumIDs]func(p *movegen.Position) int

// newLayout builds v's feature layout over its hand-written evaluation
// hand, or returns nil when v's board does not fit the diagonal layout.
func newLayout(v *movegen.Variant, hand func(p *movegen.Position) int) *layout {
	sA, sB, ok := diagGeometry(v)
	orth := !ok && v.Board() == ^uint64(0) && v.Files() == 8 && v.Ranks() == 8
	if !ok && !orth {
		return nil
	}
	l := &layout{v: v, hand: hand, sA: sA, sB: sB, board: v.Board(), phaseLo: 6, phaseHi: 22, orth: orth}
	l.pending.Store(true)
	if st := v.Start(); st.Super != 0 {
		l.damone = true
		l.phaseLo, l.phaseHi = dmPhaseLo, dmPhaseHi
	}
	files, ranks := v.Files(), v.Ranks()
	// A region is 2 ranks by regionFiles files, one every fileStep files:
	// 2 x 4 (4 dark squares) on the diagonal boards.
	regionFiles, fileStep := 4, 2
	if orth {
		l.phaseLo, l.phaseHi = 6, 30
	}
	if files == 10 {
		l.phaseLo, l.phaseHi = 8, 32
	}
	for b := range l.sqW {
		l.sqW[b], l.sqB[b] = -1, -1
	}
	// Squares are numbered from White's view rank by rank, file by file.
	for r := 0; r < ranks; r++ {
		for f := 0; f < files; f++ {
			b := v.BitAt(f, r)
			if b < 0 {
				continue
			}
			l.sqW[b] = int16(l.nsq)
			l.sqB[v.BitAt(files-1-f, ranks-1-r)] = int16(l.nsq)
			l.nsq++
			if f < files/2 {
				l.left |= 1 << b
			} else {
				l.right |= 1 << b
			}
		}
	}
	if orth {
		for b := 0; b < 64; b++ {
			f, r := v.Coord(b)
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if nb := v.BitAt(f+d[0], r+d[1]); nb >= 0 {
					l.next[b] |= 1 << nb
				}
			}
		}
	}
	// Turkish has no pattern regions: its 2 x 2 blocks (49 regions, read
	// square by square) fitted and played worse than its square tables
	// alone (docs/testing.md, "Turkish and Damone").
	nr := ranks - 1
	if orth {
		nr = 0
	}
	for r0 := 0; r0 < nr; r0++ {
		for f0 := 0; f0+regionFiles <= files; f0 += fileStep {
			var w, bl [patternSize]uint8
			n := 0
			for r := r0; r <= r0+1; r++ {
				for f := f0; f < f0+regionFiles; f++ {
					b := v.BitAt(f, r)
					if b < 0 {
						continue
					}
					if n == patternSize {
						return nil
					}
					w[n] = uint8(b)
					bl[n] = uint8(v.BitAt(files-1-f, ranks-1-r))
					n++
				}
			}
			if n != patternSize {
				return nil
			}
			l.winW = append(l.winW, w)
			l.winB = append(l.winB, bl)
		}
	}
	l.fMen = 0
	l.fKing = l.nsq
	l.fMob = 2 * l.nsq
	l.fBal = l.fMob + 1
	l.fWin = l.fBal + balanceBuckets
	l.nFeat = l.fWin + len(l.winW)*patternConfigs
	if l.damone {
		l.fSuper = l.nFeat
		l.nFeat += l.nsq
	}
	if orth {
		// Turkish has the side to move's terms too: the move (tempo) and
		// its pieces the other side could capture now (tkThreatBuckets).
		l.fTempo = l.nFeat
		l.fThreat = l.fTempo + 1
		l.nFeat = l.fThreat + tkThreatBuckets
		return l
	}
	shapes := map[[patternSize]uint8]uint8{}
	fast := func(sq [patternSize]uint8) window {
		base := sq[0]
		for _, b := range sq {
			base = min(base, b)
		}
		var off [patternSize]uint8
		for i, b := range sq {
			off[i] = b - base
			if off[i] >= 8 {
				panic("eval: a pattern region spans more than 8 bits")
			}
		}
		id, ok := shapes[off]
		if !ok {
			if l.nShapes == maxShapes {
				panic("eval: more region shapes than maxShapes")
			}
			id = uint8(l.nShapes)
			l.nShapes++
			shapes[off] = id
			t := &l.tri[id]
			for x := range t {
				d := 1
				for i := range off {
					if x>>off[i]&1 != 0 {
						t[x] += uint8(d)
					}
					d *= 3
				}
			}
		}
		return window{base, id}
	}
	for i := range l.winW {
		l.fastW = append(l.fastW, fast(l.winW[i]))
	}
	set := func(sq [patternSize]uint8) (m uint64) {
		for _, b := range sq {
			m |= 1 << b
		}
		return m
	}
	var owned uint64
	for i := range l.winW {
		j := -1
		for k := range l.winB {
			if set(l.winB[k]) == set(l.winW[i]) {
				j = k
			}
		}
		if j < 0 {
			panic("eval: the pattern regions are not closed under rotation")
		}
		l.mate = append(l.mate, j)
		l.owns = append(l.owns, set(l.winW[i])&^owned)
		owned |= set(l.winW[i])
	}
	if owned != l.board {
		panic("eval: the pattern regions do not cover the board")
	}
	return l
}

// tables lays out the weights raw (mg and eg interleaved by feature) for
// the evaluation.
func (l *layout) tables(raw []int16) *weightTables {
	t := &weightTables{raw: raw}
	w := func(f int) [2]int32 { return [2]int32{int32(raw[2*f]), int32(raw[2*f+1])} }
	for b := 0; b < 64; b++ {
		if s := l.sqW[b]; s >= 0 {
			t.menW[b] = w(l.fMen + int(s))
			t.kingW[b] = w(l.fKing + int(s))
			if l.damone {
				t.supW[b] = w(l.fSuper + int(s))
			}
		}
		if s := l.sqB[b]; s >= 0 {
			t.menB[b] = w(l.fMen + int(s))
			t.kingB[b] = w(l.fKing + int(s))
			if l.damone {
				t.supB[b] = w(l.fSuper + int(s))
			}
		}
	}
	t.mob = [][2]int32{w(l.fMob)}
	for i := 0; i < balanceBuckets; i++ {
		t.bal = append(t.bal, w(l.fBal+i))
	}
	t.win = make([][2]int32, len(l.winW)*patternConfigs)
	for i := range t.win {
		t.win[i] = w(l.fWin + i)
	}
	if l.orth {
		t.tempo = w(l.fTempo)
		for i := range t.threat {
			t.threat[i] = w(l.fThreat + i)
		}
	}
	if !l.orth {
		l.fold(t)
	}
	return t
}

// fold fills t's folded form, which scores exactly as the features do with
// a fraction of the work: a region's Black view covers the squares of
// another region's White view and is read from the same bits, so the two
// views' difference is one table by the White view's configuration; and
// each square's man weights are added to the table of the one region that
// owns it, which removes the loops over the men.
func (l *layout) fold(t *weightTables) {
	p := func(e [2]int32) int64 { return pack(e[0], e[1]) }
	t.regs = make([]foldedRegion, len(l.winW))
	for i, sq := range l.winW {
		r := &t.regs[i]
		r.base, r.tri = l.fastW[i].base, &l.tri[l.fastW[i].shape]
		j := l.mate[i]
		for c := 0; c < patternConfigs; c++ {
			var wm, bm uint64
			for k, d := 0, c; k < patternSize; k, d = k+1, d/3 {
				switch d % 3 {
				case 1:
					wm |= 1 << sq[k]
				case 2:
					bm |= 1 << sq[k]
				}
			}
			cb := windowConfig(&l.winB[j], bm, wm)
			v := p(t.win[i*patternConfigs+c]) - p(t.win[j*patternConfigs+cb])
			for x := wm & l.owns[i]; x != 0; x &= x - 1 {
				v += p(t.menW[bits.TrailingZeros64(x)])
			}
			for x := bm & l.owns[i]; x != 0; x &= x - 1 {
				v -= p(t.menB[bits.TrailingZeros64(x)])
			}
			r.val[c] = v
		}
	}
	t.rows, t.rowWidth = foldRows(t.regs)
	for b := range t.kingW {
		t.kingWp[b], t.kingBp[b] = p(t.kingW[b]), p(t.kingB[b])
		t.supWp[b], t.supBp[b] = p(t.supW[b]), p(t.supB[b])
	}
	t.mobP = p(t.mob[0])
	for i := range t.balP {
		t.balP[i] = p(t.bal[i])
	}
}

// foldRows groups the folded regions regs into rows (see foldedRow), or
// returns nil when they do not fall into rows of 3 or 4.
func foldRows(regs []foldedRegion) ([]foldedRow, int) {
	cfgs := map[*[256]uint8]*[rowBits]uint32{}
	cfgOf := func(tri *[256]uint8) *[rowBits]uint32 {
		if c, ok := cfgs[tri]; ok {
			return c
		}
		c := new([rowBits]uint32)
		for x := range c {
			for k := 0; k < 4; k++ {
				c[x] |= uint32(tri[uint8(x>>k)]) << (7 * k)
			}
		}
		cfgs[tri] = c
		return c
	}
	for _, n := range []int{4, 3} {
		if len(regs)%n != 0 {
			continue
		}
		rows := make([]foldedRow, len(regs)/n)
		ok := true
		for i := range rows {
			g := regs[i*n : i*n+n]
			lo := g[0].base
			for k := range g {
				lo = min(lo, g[k].base)
			}
			rows[i].base, rows[i].cfg = lo, cfgOf(g[0].tri)
			for k := range g {
				// Each row's regions in any order: region k of the row
				// has base lo + d.
				d := int(g[k].base) - int(lo)
				if g[k].tri != g[0].tri || d >= n {
					ok = false
					break
				}
				copy(rows[i].val[d*128:d*128+128], g[k].val[:128])
			}
			for k := range g {
				if !slices.ContainsFunc(g, func(r foldedRegion) bool { return int(r.base) == int(lo)+k }) {
					ok = false
				}
			}
		}
		if ok {
			return rows, n
		}
	}
	return nil, 0
}

// white is the learned evaluation from White's point of view: the
// hand-written one plus the learned correction, when weights are in use.
func (l *layout) white(p *movegen.Position) int {
	t := l.cur.Load()
	if t == nil {
		l.ensure()
		t = l.cur.Load()
	}
	if t != nil && t.net != nil {
		return t.net.hand(p) + t.net.full(p, true)
	}
	if l.handMob != nil {
		s, m := l.handMob(p)
		if t != nil {
			s += l.foldedWith(t, p, handCounts{mob: m, hasMob: true})
		}
		return s
	}
	if l.diag != nil {
		s, dw, db := l.diag.whiteWings(p)
		if t != nil {
			s += l.foldedWith(t, p, handCounts{dw: dw, db: db, hasBal: dw >= 0})
		}
		return s
	}
	s := l.hand(p)
	if t != nil {
		s += l.correction(t, p)
	}
	return s
}

// correction is the learned part of the evaluation, White's view, in
// centi-men.
func (l *layout) correction(t *weightTables, p *movegen.Position) int {
	if !l.orth {
		return l.folded(t, p)
	}
	w, b, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	wm, bm := w&^k, b&^k
	var mg, eg int32
	for x := wm; x != 0; x &= x - 1 {
		e := &t.menW[bits.TrailingZeros64(x)&63]
		mg, eg = mg+e[0], eg+e[1]
	}
	for x := bm; x != 0; x &= x - 1 {
		e := &t.menB[bits.TrailingZeros64(x)&63]
		mg, eg = mg-e[0], eg-e[1]
	}
	if k != 0 {
		for x := w & k; x != 0; x &= x - 1 {
			e := &t.kingW[bits.TrailingZeros64(x)&63]
			mg, eg = mg+e[0], eg+e[1]
		}
		for x := b & k; x != 0; x &= x - 1 {
			e := &t.kingB[bits.TrailingZeros64(x)&63]
			mg, eg = mg-e[0], eg-e[1]
		}
		m := int32(l.mobility(w&k, b&k, l.board&^(w|b)))
		mg, eg = mg+m*t.mob[0][0], eg+m*t.mob[0][1]
	}
	dw, db := l.balance(wm), l.balance(bm)
	mg += t.bal[dw][0] - t.bal[db][0]
	eg += t.bal[dw][1] - t.bal[db][1]
	for i := range l.winW {
		cw, cb := windowConfig(&l.winW[i], wm, bm), windowConfig(&l.winB[i], bm, wm)
		ws := t.win[i*patternConfigs : i*patternConfigs+patternConfigs]
		mg += ws[cw][0] - ws[cb][0]
		eg += ws[cw][1] - ws[cb][1]
	}
	// The side to move's terms, with the sign of its colour.
	sg := int32(1)
	if p.Side == movegen.Black {
		sg = -1
	}
	mg, eg = mg+sg*t.tempo[0], eg+sg*t.tempo[1]
	for _, f := range tkThreatFeatures(p) {
		if f >= 0 {
			mg, eg = mg-sg*t.threat[f][0], eg-sg*t.threat[f][1]
		}
	}
	return l.blend(mg, eg, bits.OnesCount64(w|b))
}

// folded is the learned correction of a diagonal board read through the
// folded tables (fold): one lookup per region, and mg and eg summed
// together, packed.
func (l *layout) folded(t *weightTables, p *movegen.Position) int {
	return l.foldedWith(t, p, handCounts{})
}

// foldedWith is folded with the counts of h that the hand-written
// evaluation made, counting the others.
func (l *layout) foldedWith(t *weightTables, p *movegen.Position, h handCounts) int {
	w, b, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	wm, bm := w&^k, b&^k
	var s int64
	switch t.rowWidth {
	case 4:
		s = foldedRows4(t.rows, wm, bm)
	case 3:
		s = foldedRows3(t.rows, wm, bm)
	default:
		s = foldedSum(t.regs, wm, bm)
	}
	if k != 0 {
		sp := p.Super // Damone's Damoni (a subset of the kings), else empty
		for x := w & k &^ sp; x != 0; x &= x - 1 {
			s += t.kingWp[bits.TrailingZeros64(x)&63]
		}
		for x := b & k &^ sp; x != 0; x &= x - 1 {
			s -= t.kingBp[bits.TrailingZeros64(x)&63]
		}
		if sp != 0 {
			for x := w & sp; x != 0; x &= x - 1 {
				s += t.supWp[bits.TrailingZeros64(x)&63]
			}
			for x := b & sp; x != 0; x &= x - 1 {
				s -= t.supBp[bits.TrailingZeros64(x)&63]
			}
		}
		mob := h.mob
		if !h.hasMob {
			mob = l.mobility(w&k, b&k, l.board&^(w|b))
		}
		s += int64(mob) * t.mobP
	}
	if h.hasBal {
		s += t.balP[min(h.dw, balanceBuckets-1)&(balanceBuckets-1)] - t.balP[min(h.db, balanceBuckets-1)&(balanceBuckets-1)]
	} else {
		s += t.balP[l.balance(wm)&(balanceBuckets-1)] - t.balP[l.balance(bm)&(balanceBuckets-1)]
	}
	mg, eg := unpack(s)
	return l.blend(mg, eg, bits.OnesCount64(w|b))
}

// foldedSum is the packed sum of the folded regions' values for the men
// wm and bm: a loop of its own, not inlined, so that its few values stay
// in registers (inlined in folded, a third of its instructions were
// spills and reloads).
//
//go:noinline
func foldedSum(regs []foldedRegion, wm, bm uint64) int64 {
	var s int64
	for i := range regs {
		r := &regs[i]
		sh := r.base & 63
		tri := r.tri
		c := uint(tri[uint8(wm>>sh)]) + 2*uint(tri[uint8(bm>>sh)])
		s += r.val[uint8(c)]
	}
	return s
}

// foldedRows4 is foldedSum by rows of 4 regions (10x10).
//
//go:noinline
func foldedRows4(rows []foldedRow, wm, bm uint64) int64 {
	var s int64
	for i := range rows {
		r := &rows[i]
		sh := r.base & 63
		c := r.cfg[wm>>sh&(rowBits-1)] + 2*r.cfg[bm>>sh&(rowBits-1)]
		v := &r.val
		s += v[int(c&127)]
		s += v[1*128+int(c>>7&127)]
		s += v[2*128+int(c>>14&127)]
		s += v[3*128+int(c>>21&127)]
	}
	return s
}

// foldedRows3 is foldedSum by rows of 3 regions (8x8).
//
//go:noinline
func foldedRows3(rows []foldedRow, wm, bm uint64) int64 {
	var s int64
	for i := range rows {
		r := &rows[i]
		sh := r.base & 63
		c := r.cfg[wm>>sh&(rowBits-1)] + 2*r.cfg[bm>>sh&(rowBits-1)]
		v := &r.val
		s += v[int(c&127)]
		s += v[1*128+int(c>>7&127)]
		s += v[2*128+int(c>>14&127)]
	}
	return s
}

// blend mixes the middlegame and endgame sums for n pieces and converts
// them to centi-men; it truncates toward zero, so blend(-x) = -blend(x).
func (l *layout) blend(mg, eg int32, n int) int {
	span := int32(l.phaseHi - l.phaseLo)
	k := min(max(int32(n-l.phaseLo), 0), span)
	x := int64(mg)*int64(k) + int64(eg)*int64(span-k)
	// The layouts' spans, each divided by as a constant (a multiplication
	// and shifts, where a 64-bit division waits tens of cycles): the same
	// quotient, truncated toward zero.
	switch span {
	case 16:
		return int(x / (16 * WeightScale))
	case 24:
		return int(x / (24 * WeightScale))
	case 12:
		return int(x / (12 * WeightScale))
	}
	return int(x / int64(span*WeightScale))
}

// phase returns the middlegame share of the blend with n pieces.
func (l *layout) phase(n int) float64 {
	span := l.phaseHi - l.phaseLo
	return float64(min(max(n-l.phaseLo, 0), span)) / float64(span)
}

// mobility counts the empty squares diagonally next to White's kings wk,
// less those next to Black's kings bk.
func (l *layout) mobility(wk, bk, empty uint64) int {
	if l.orth {
		n := 0
		for x := wk; x != 0; x &= x - 1 {
			n += bits.OnesCount64(l.next[bits.TrailingZeros64(x)&63] & empty)
		}
		for x := bk; x != 0; x &= x - 1 {
			n -= bits.OnesCount64(l.next[bits.TrailingZeros64(x)&63] & empty)
		}
		return n
	}
	a, c := l.sA&63, l.sB&63
	return bits.OnesCount64(wk>>a&empty) + bits.OnesCount64(wk>>c&empty) +
		bits.OnesCount64(wk<<a&empty) + bits.OnesCount64(wk<<c&empty) -
		bits.OnesCount64(bk>>a&empty) - bits.OnesCount64(bk>>c&empty) -
		bits.OnesCount64(bk<<a&empty) - bits.OnesCount64(bk<<c&empty)
}

// balance returns the wing-imbalance bucket of men m.
func (l *layout) balance(m uint64) int {
	d := bits.OnesCount64(m&l.left) - bits.OnesCount64(m&l.right)
	if d < 0 {
		d = -d
	}
	return min(d, balanceBuckets-1)
}

// windowConfig returns the configuration of region sq: by square, 0 for
// empty (or a king), 1 for a man of own, 2 for a man of opp.
func windowConfig(sq *[patternSize]uint8, own, opp uint64) int {
	c := 0
	for i := patternSize - 1; i >= 0; i-- {
		b := sq[i] & 63
		c = 3*c + int(own>>b&1) + 2*int(opp>>b&1)
	}
	return c
}

// Feature is one term of a position's learned correction: the weight of
// feature Index counts Coef times (negative for Black's side).
type Feature struct {
	Index int32
	Coef  int16
}

// FeatureCount returns the number of learned features of v (each with a
// middlegame and an endgame weight), or 0 when v has no learned layout.
func FeatureCount(v *movegen.Variant) int {
	if l := layoutOf(v); l != nil {
		return l.nFeat
	}
	return 0
}

// AppendFeatures appends the learned features of p (White's point of view)
// to dst and returns it, with the middlegame share of the phase blend
// (0..1) and the hand-written evaluation of p for White. The learned
// correction is Σ Coef·(phase·mg[Index] + (1-phase)·eg[Index]) in weight
// units. For a variant without a layout it returns dst, 0 and the
// evaluation of p for White.
func AppendFeatures(v *movegen.Variant, p *movegen.Position, dst []Feature) ([]Feature, float64, int) {
	l := layoutOf(v)
	if l == nil {
		return dst, 0, EvaluateWhite(v, p)
	}
	w, b, k := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	wm, bm := w&^k, b&^k
	add := func(i, c int) { dst = append(dst, Feature{int32(i), int16(c)}) }
	for x := wm; x != 0; x &= x - 1 {
		add(l.fMen+int(l.sqW[bits.TrailingZeros64(x)]), 1)
	}
	for x := bm; x != 0; x &= x - 1 {
		add(l.fMen+int(l.sqB[bits.TrailingZeros64(x)]), -1)
	}
	sp := p.Super & k
	for x := w & k &^ sp; x != 0; x &= x - 1 {
		add(l.fKing+int(l.sqW[bits.TrailingZeros64(x)]), 1)
	}
	for x := b & k &^ sp; x != 0; x &= x - 1 {
		add(l.fKing+int(l.sqB[bits.TrailingZeros64(x)]), -1)
	}
	if l.damone {
		for x := w & sp; x != 0; x &= x - 1 {
			add(l.fSuper+int(l.sqW[bits.TrailingZeros64(x)]), 1)
		}
		for x := b & sp; x != 0; x &= x - 1 {
			add(l.fSuper+int(l.sqB[bits.TrailingZeros64(x)]), -1)
		}
	}
	if m := l.mobility(w&k, b&k, l.board&^(w|b)); m != 0 {
		add(l.fMob, m)
	}
	if dw, db := l.balance(wm), l.balance(bm); dw != db {
		add(l.fBal+dw, 1)
		add(l.fBal+db, -1)
	}
	for i := range l.winW {
		cw, cb := windowConfig(&l.winW[i], wm, bm), windowConfig(&l.winB[i], bm, wm)
		if cw != cb {
			add(l.fWin+i*patternConfigs+cw, 1)
			add(l.fWin+i*patternConfigs+cb, -1)
		}
	}
	if l.orth {
		sg := 1
		if p.Side == movegen.Black {
			sg = -1
		}
		add(l.fTempo, sg)
		for _, f := range tkThreatFeatures(p) {
			if f >= 0 {
				add(l.fThreat+f, -sg)
			}
		}
	}
	return dst, l.phase(bits.OnesCount64(w | b)), l.hand(p)
}

// HandEvaluate is the hand-written evaluation of p for the side to move,
// whatever weights are loaded: the baseline the learned evaluation is
// measured against.
func HandEvaluate(v *movegen.Variant, p *movegen.Position) int {
	var s int
	if v != nil && handByID[v.ID()] != nil {
		s = handByID[v.ID()](p)
	} else {
		s = EvaluateWhite(v, p)
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}

// UsesLearned reports whether v's evaluation uses learned weights now.
func UsesLearned(v *movegen.Variant) bool {
	l := layoutOf(v)
	if l == nil {
		return false
	}
	l.ensure()
	return l.cur.Load() != nil
}

// layoutOf returns v's learned layout, or nil.
func layoutOf(v *movegen.Variant) *layout {
	if v == nil {
		return nil
	}
	return layouts[v.ID()]
}
