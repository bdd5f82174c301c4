package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The table-driven evaluation of the diagonal variants other than Italian:
// English (short kings), Russian, Brazilian, Spanish (flying kings on 8x8)
// and International (flying kings on 10x10). One engine, diagEval, reads
// each variant's weights (variants.go); every table is built once, at
// package initialisation, from the variant's own coordinates (v.Coord):
// White's weights from White's point of view, Black's as the same weights on
// the rotated bit (file f, rank r ↔ files-1-f, ranks-1-r), so the evaluation
// is colour-symmetric by construction.
//
// Both board layouts (movegen/board.go, board10.go) put White at the high
// bits: a White man steps forward by shifting right by sA or sB (4 and 5 on
// 8x8, 5 and 6 on 10x10), a Black man by shifting left; a step off the
// board lands on a ghost bit or outside the layout and is masked away by
// the board. newDiagEval checks all of this against v.Coord and v.BitAt
// before it trusts the shifts.

// maxN is the largest piece count the per-phase tables are indexed by;
// counts above it (none in a legal position) use the last entry.
const maxN = 40

// maxWing is the largest wing imbalance the wing table is indexed by.
const maxWing = 20

// diagEval holds one variant's precomputed evaluation tables.
type diagEval struct {
	name   string
	king   int    // value of a king
	flying bool   // kings fly: mobility along rays, long-diagonal bonus
	sA, sB uint   // the two diagonal shifts of the layout
	board  uint64 // playable bits

	// men[n][k]: the men's table with n pieces on the board; k is 1 when
	// the opponent of the men's owner has a king. Advancement, tempo,
	// centre and back-rank guard, blended for the phase.
	men [maxN + 1][2]manTable

	tradeK  [maxN + 1]int32 // trade-down factor ×1024
	exposed [maxN + 1]int32 // over-extension penalty
	expW    uint64          // squares where an unsupported White man is over-extended
	expB    uint64

	outposts bool
	outpost  [maxN + 1]int32 // bonus per outpost
	outW     uint64          // squares where a supported White man is an outpost
	outB     uint64

	wings bool
	wing  [maxN + 1][maxWing + 1]int32 // penalty by |left-right| men
	left  uint64                       // files a .. (files/2)-1
	right uint64                       // the other half

	btDepth  int          // ranks the breakthrough fill looks ahead
	btW, btB uint64       // squares where a free man earns a bonus
	btValW   [2][64]int16 // bonus of a free White man by bit, [opponent has a king]
	btValB   [2][64]int16 // the same for Black, on rotated bits
	// coneW[b]: the squares from which an enemy man would reach bit b in
	// at most btDepth diagonal steps towards White's side (the fill of
	// freeMen, square by square): a White man on b is free when no Black
	// man is there. coneB the same for Black.
	coneW, coneB [64]uint64

	kingCentre int       // short kings: per step of centrality
	kingStep   int       // short kings: per empty neighbour
	kCentW     [4]uint64 // short kings' centrality planes (weights 0-15)
	kCentB     [4]uint64

	kingRay  int    // flying kings: per empty square on their rays
	longDiag int    // flying kings: bonus for a king on the long diagonal
	diag     uint64 // the long diagonal (corner to corner)
}

// diagGeometry derives the two diagonal shifts of v's layout and checks
// that they are exact steps: for every playable bit, a shift by sA or sB
// either leaves the board or reaches the diagonal neighbour one rank away
// (lower bits = higher ranks, White's forward direction), and every square
// has its 180° image on the board. It returns ok false for a board the
// table-driven evaluation cannot trust (the caller then uses the generic
// evaluation).
func diagGeometry(v *movegen.Variant) (sA, sB uint, ok bool) {
	if v == nil || v.Board() == 0 {
		return 0, 0, false
	}
	files, ranks := v.Files(), v.Ranks()
	board := v.Board()
	var shifts [2]int
	ns := 0
	for b := 0; b < 64; b++ {
		f, r := v.Coord(b)
		if (f >= 0) != (board>>b&1 != 0) {
			return 0, 0, false
		}
		if f < 0 {
			continue
		}
		if v.BitAt(files-1-f, ranks-1-r) < 0 {
			return 0, 0, false
		}
		for _, df := range [2]int{-1, 1} {
			nb := v.BitAt(f+df, r+1)
			if nb < 0 {
				continue
			}
			d := b - nb
			if d <= 0 {
				return 0, 0, false
			}
			switch {
			case ns > 0 && shifts[0] == d, ns > 1 && shifts[1] == d:
			case ns < 2:
				shifts[ns] = d
				ns++
			default:
				return 0, 0, false
			}
		}
	}
	if ns != 2 {
		return 0, 0, false
	}
	for b := 0; b < 64; b++ {
		f, r := v.Coord(b)
		if f < 0 {
			continue
		}
		for _, s := range shifts {
			for _, dir := range [2]int{-1, 1} { // -1: forward (rank+1), +1: backward
				t := b + dir*s
				if t < 0 || t >= 64 || board>>t&1 == 0 {
					continue
				}
				tf, tr := v.Coord(t)
				if tr != r-dir || (tf != f-1 && tf != f+1) {
					return 0, 0, false
				}
			}
		}
	}
	if shifts[0] > shifts[1] {
		shifts[0], shifts[1] = shifts[1], shifts[0]
	}
	return uint(shifts[0]), uint(shifts[1]), true
}

// newDiagEval builds the evaluation tables of v with weights wt, or
// returns nil when v's board does not fit the shift-based layout.
func newDiagEval(v *movegen.Variant, wt *diagWeights) *diagEval {
	sA, sB, ok := diagGeometry(v)
	if !ok || len(wt.advMG) < v.Ranks()-1 || len(wt.advEG) < v.Ranks()-1 || wt.phaseHi <= wt.phaseLo {
		return nil
	}
	e := &diagEval{
		name: v.Name, king: wt.king, flying: wt.flying,
		sA: sA, sB: sB, board: v.Board(),
		outposts:   wt.outpostMG != 0 || wt.outpostEG != 0,
		wings:      wt.wingMG != 0 || wt.wingEG != 0,
		kingCentre: wt.kingCentre, kingStep: wt.kingStep,
		kingRay: wt.kingRay, longDiag: wt.longDiag,
	}
	files, ranks := v.Files(), v.Ranks()
	// rot is the 180° turn of a bit: the square seen from the other side.
	rot := func(b int) int {
		f, r := v.Coord(b)
		return v.BitAt(files-1-f, ranks-1-r)
	}
	blend := func(mg, eg, n int) int { return blendPhase(mg, eg, n, wt.phaseLo, wt.phaseHi) }

	for n := 0; n <= maxN; n++ {
		for k := 0; k < 2; k++ {
			e.men[n][k] = diagMen(v, wt, n, k == 1, rot)
		}
		e.tradeK[n] = int32(tradeFactor(wt.trade, n))
		e.exposed[n] = int32(blend(wt.exposedMG, 0, n))
		e.outpost[n] = int32(blend(wt.outpostMG, wt.outpostEG, n))
		for d := 2; d <= maxWing; d++ {
			x := (d - 1) * (d - 1)
			e.wing[n][d] = int32(blend(min(wt.wingMG*x, wt.wingCap), min(wt.wingEG*x, wt.wingCap), n))
		}
	}

	corner := v.BitAt(0, 0) >= 0 // a1 dark: the long diagonal is a1-h8 (a1-j10)
	for b := 0; b < 64; b++ {
		f, r := v.Coord(b)
		if f < 0 {
			continue
		}
		bit, rbit := uint64(1)<<b, uint64(1)<<rot(b)
		interior := f >= 1 && f <= files-2
		if interior && r >= wt.exposedRanks[0] && r <= wt.exposedRanks[1] {
			e.expW |= bit
			e.expB |= rbit
		}
		if e.outposts && interior && r >= wt.outpostRanks[0] && r <= wt.outpostRanks[1] {
			e.outW |= bit
			e.outB |= rbit
		}
		if f < files/2 {
			e.left |= bit
		} else {
			e.right |= bit
		}
		if d := ranks - 1 - r; d >= 1 && d < len(wt.breakthrough) && wt.breakthrough[d] != 0 {
			e.btW |= bit
			e.btB |= rbit
			for k := 0; k < 2; k++ {
				x := wt.breakthrough[d]
				if k == 1 {
					x /= 2 // an enemy king can still stop it
				}
				e.btValW[k][b] = int16(x)
				e.btValB[k][rot(b)] = int16(x)
			}
			e.btDepth = max(e.btDepth, d)
		}
		c := min(f, files-1-f) + min(r, ranks-1-r)
		for j := range e.kCentW {
			if c>>j&1 != 0 {
				e.kCentW[j] |= bit
				e.kCentB[j] |= rbit
			}
		}
		if (corner && f == r) || (!corner && f+r == files-1) {
			e.diag |= bit
		}
	}
	for x := e.board; x != 0; x &= x - 1 {
		b := bits.TrailingZeros64(x)
		for f := fillUp(1<<b, e.board, e.btDepth, sA, sB); f != 0; f &= f - 1 {
			e.coneW[bits.TrailingZeros64(f)] |= 1 << b
		}
		for f := fillDown(1<<b, e.board, e.btDepth, sA, sB); f != 0; f &= f - 1 {
			e.coneB[bits.TrailingZeros64(f)] |= 1 << b
		}
	}
	return e
}

// diagMen builds the men's table of v for White with n pieces on the board
// (oppKings: Black has a king) and its rotation for Black.
func diagMen(v *movegen.Variant, wt *diagWeights, n int, oppKings bool, rot func(int) int) manTable {
	var w [64]int
	ranks := v.Ranks()
	for b := 0; b < 64; b++ {
		f, r := v.Coord(b)
		if f < 0 || r >= ranks-1 { // not a square; the crowning rank
			continue
		}
		adv := r
		mg := wt.advMG[adv] + wt.tempoMG*adv
		eg := wt.advEG[adv] + wt.tempoEG*adv
		if r >= wt.centreRanks[0] && r <= wt.centreRanks[1] && f >= wt.centreFiles[0] && f <= wt.centreFiles[1] {
			mg += wt.centreMG
			eg += wt.centreEG
		}
		if adv == 0 && !oppKings && f < len(wt.guard) {
			mg += wt.guard[f]
			eg += wt.guard[f] / 2
		}
		w[b] = blendPhase(mg, eg, n, wt.phaseLo, wt.phaseHi)
	}
	return newManTable(w[:], v.Board(), rot, v.Name)
}

// white is the evaluation of p from White's point of view.
func (e *diagEval) white(p *movegen.Position) int {
	s, _, _ := e.whiteWings(p)
	return s
}

// whiteWings is white and the wing imbalances it counted, |left − right|
// men of White (dw) and of Black (db), uncapped; both -1 where the
// evaluation has no wing term and does not count them.
func (e *diagEval) whiteWings(p *movegen.Position) (int, int, int) {
	pc := takeCensus(p)
	n := pc.pieces(maxN)
	s := pc.traded(e.king, int(e.tradeK[n]))

	// Men: advancement, tempo, centre and guard, one table per side.
	var wki, bki int // 1 when the men's opponent has a king
	if pc.bk != 0 {
		wki = 1
	}
	if pc.wk != 0 {
		bki = 1
	}
	tw, tb := &e.men[n][wki], &e.men[n][bki]
	s += sum(&tw.w, pc.wm) - tw.bias*pc.nwm - sum(&tb.b, pc.bm) + tb.bias*pc.nbm

	// Over-extension: advanced men with no own piece behind them.
	a, c := e.sA&63, e.sB&63
	s -= int(e.exposed[n]) * (bits.OnesCount64(pc.wm&e.expW&^(pc.w>>a|pc.w>>c)) -
		bits.OnesCount64(pc.bm&e.expB&^(pc.b<<a|pc.b<<c)))
	if e.outposts { // advanced men held by own pieces on both squares behind
		s += int(e.outpost[n]) * (bits.OnesCount64(pc.wm&e.outW&(pc.w>>a)&(pc.w>>c)) -
			bits.OnesCount64(pc.bm&e.outB&(pc.b<<a)&(pc.b<<c)))
	}
	dw, db := -1, -1
	if e.wings {
		dw, db = wingGap(pc.wm, e.left, e.right), wingGap(pc.bm, e.left, e.right)
		s -= int(e.wing[n][dw]) - int(e.wing[n][db])
	}
	if pc.wm&e.btW|pc.bm&e.btB != 0 {
		s += e.breakthrough(pc.wm, pc.bm, wki, bki)
	}
	if pc.k != 0 {
		s += e.kings(pc.wk, pc.bk, e.board&^(pc.w|pc.b))
	}
	return s, dw, db
}

// wingGap returns |men on the left half - men on the right half|, capped
// at maxWing (which no count reaches).
func wingGap(m, left, right uint64) int {
	d := bits.OnesCount64(m&left) - bits.OnesCount64(m&right)
	if d < 0 {
		d = -d
	}
	return min(d, maxWing)
}

// freeMen returns the men of each side that have no enemy man in their
// promotion cone (the squares ahead reachable by forward diagonal steps,
// btDepth ranks deep), among the candidates cw and cb.
func (e *diagEval) freeMen(wm, bm, cw, cb uint64) (fw, fb uint64) {
	for ; cw != 0; cw &= cw - 1 {
		b := bits.TrailingZeros64(cw) & 63
		if e.coneW[b]&bm == 0 {
			fw |= 1 << b
		}
	}
	for ; cb != 0; cb &= cb - 1 {
		b := bits.TrailingZeros64(cb) & 63
		if e.coneB[b]&wm == 0 {
			fb |= 1 << b
		}
	}
	return fw, fb
}

// fillUp adds to f the squares d diagonal steps up from it, within board;
// fillDown the squares d steps down (they build the cones of freeMen).
func fillUp(f, board uint64, d int, a, c uint) uint64 {
	for ; d > 0; d-- {
		f |= (f<<a | f<<c) & board
	}
	return f
}

func fillDown(f, board uint64, d int, a, c uint) uint64 {
	for ; d > 0; d-- {
		f |= (f>>a | f>>c) & board
	}
	return f
}

// breakthrough scores the men with a free path to promotion (freeMen's
// test, summed as it goes).
func (e *diagEval) breakthrough(wm, bm uint64, wki, bki int) int {
	s := 0
	vw, vb := &e.btValW[wki], &e.btValB[bki]
	for x := wm & e.btW; x != 0; x &= x - 1 {
		if b := bits.TrailingZeros64(x) & 63; e.coneW[b]&bm == 0 {
			s += int(vw[b])
		}
	}
	for x := bm & e.btB; x != 0; x &= x - 1 {
		if b := bits.TrailingZeros64(x) & 63; e.coneB[b]&wm == 0 {
			s -= int(vb[b])
		}
	}
	return s
}

// kings scores the kings for White: mobility along their rays and the long
// diagonal for flying kings; centrality and free neighbours for short ones.
func (e *diagEval) kings(wk, bk, empty uint64) int {
	a, c := e.sA&63, e.sB&63
	if e.flying {
		s := e.kingRay * (bits.OnesCount64(rays(wk, empty, a, c)) - bits.OnesCount64(rays(bk, empty, a, c)))
		if wk&e.diag != 0 {
			s += e.longDiag
		}
		if bk&e.diag != 0 {
			s -= e.longDiag
		}
		return s
	}
	cen := 0
	for j := range e.kCentW {
		cen += (bits.OnesCount64(wk&e.kCentW[j]) - bits.OnesCount64(bk&e.kCentB[j])) << j
	}
	m := bits.OnesCount64(wk>>a&empty) + bits.OnesCount64(wk>>c&empty) +
		bits.OnesCount64(wk<<a&empty) + bits.OnesCount64(wk<<c&empty) -
		bits.OnesCount64(bk>>a&empty) - bits.OnesCount64(bk>>c&empty) -
		bits.OnesCount64(bk<<a&empty) - bits.OnesCount64(bk<<c&empty)
	return e.kingCentre*cen + e.kingStep*m
}

// rays returns the empty squares the kings k can slide to (the union over
// all of them, each square counted once).
func rays(k, empty uint64, a, c uint) uint64 {
	var r uint64
	if k == 0 {
		return 0
	}
	for x := k >> a & empty; x != 0; x = x >> a & empty {
		r |= x
	}
	for x := k >> c & empty; x != 0; x = x >> c & empty {
		r |= x
	}
	for x := k << a & empty; x != 0; x = x << a & empty {
		r |= x
	}
	for x := k << c & empty; x != 0; x = x << c & empty {
		r |= x
	}
	return r
}
