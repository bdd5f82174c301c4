package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// KingValue is the value of an Italian king in centi-men. An Italian king
// steps only one square, but men cannot capture it and the capture priority
// rules favour it, so it is worth well over two men; 280 sits in the usual
// 250-300 range.
const KingValue = 280

// Weights of the Italian terms, in centi-men. The package documentation
// (doc.go, "Italian evaluation") describes each term; keep the two in step.
const (
	itPhaseLo = 6  // at or below this many pieces: pure endgame
	itPhaseHi = 22 // at or above: pure middlegame
	itPhaseW  = itPhaseHi - itPhaseLo

	itTempoMG = 2
	itTempoEG = -1

	itCentreMG = 6
	itCentreEG = 2

	itGuardKingsDiv = 4 // guard divided by this once the opponent has a king

	itExposedMG = 8

	itKingCentre = 2
	itKingMob    = 3

	itTrade = 2
)

var (
	// itAdvMG and itAdvEG are the advancement bonus of a man by rank-1.
	itAdvMG = [7]int{0, 0, 0, 0, 2, 4, 6}
	itAdvEG = [7]int{0, 2, 5, 9, 15, 25, 40}
	// itGuard is the back-rank bonus by file (a..h) of the back-rank square.
	itGuard = [8]int{0, 8, 0, 4, 0, 8, 0, 4}
)

var (
	// itMen[n][k] is the men's table with n pieces on the board (capped at
	// 24); k is 1 when the opponent of the men's owner has a king.
	itMen [25][2]manTable
	// itExposed[n] is the over-extension penalty with n pieces.
	itExposed [25]int
	// itTradeK[n] is the trade-down factor ×1024 with n pieces.
	itTradeK [25]int
	// itExpW and itExpB are the squares where an unsupported man is
	// over-extended: White's ranks 5-7, files b-g, and Black's mirror.
	itExpW, itExpB uint64
	// itCentW and itCentB are the king centrality planes (weights 0-6).
	itCentW, itCentB [3]uint64
)

// blend mixes a middlegame and an endgame weight for n pieces in the
// Italian phase (blendPhase).
func blend(mg, eg, n int) int { return blendPhase(mg, eg, n, itPhaseLo, itPhaseHi) }

func init() {
	for n := range itMen {
		for k := range itMen[n] {
			itMen[n][k] = buildMen(n, k == 1)
		}
		itExposed[n] = blend(itExposedMG, 0, n)
		itTradeK[n] = tradeFactor(itTrade, n)
	}
	for b := 0; b < 36; b++ {
		if !sqValid(b) {
			continue
		}
		r, f := sqRow(b), sqFile(b)
		if r >= 1 && r <= 3 && f >= 1 && f <= 6 {
			itExpW |= 1 << b
			itExpB |= 1 << rot(b)
		}
		rank := 7 - r // 0 = rank 1
		c := min(f, 7-f) + min(rank, 7-rank)
		for j := range itCentW {
			if c>>j&1 != 0 {
				itCentW[j] |= 1 << b
				itCentB[j] |= 1 << rot(b)
			}
		}
	}
}

// buildMen builds the men's table for White with n pieces on the board
// (oppKings: Black has a king), and its rotation for Black.
func buildMen(n int, oppKings bool) manTable {
	var w [36]int
	for b := 0; b < 36; b++ {
		r := sqRow(b)
		if !sqValid(b) || r == 0 { // ghosts; rank 8, where men are crowned
			continue
		}
		adv, f := 7-r, sqFile(b)
		mg := itAdvMG[adv] + itTempoMG*adv
		eg := itAdvEG[adv] + itTempoEG*adv
		if (adv == 3 && (f == 2 || f == 4)) || (adv == 4 && (f == 3 || f == 5)) {
			mg += itCentreMG
			eg += itCentreEG
		}
		if adv == 0 {
			g := itGuard[f]
			if oppKings {
				g /= itGuardKingsDiv
			}
			mg += g
		}
		w[b] = blend(mg, eg, n)
	}
	return newManTable(w[:], movegen.Board8, rot, "Italian")
}

// italianWhite is the Italian evaluation from White's point of view.
func italianWhite(p *movegen.Position) int {
	s, _ := italianWhiteMob(p)
	return s
}

// italianWhiteMob is italianWhite and the kings' mobility it counts (as
// layout.mobility does: the empty squares next to White's kings less
// those next to Black's; 0 without kings), which the learned correction
// then need not count again.
func italianWhiteMob(p *movegen.Position) (int, int) {
	pc := takeCensus(p)
	n := pc.pieces(24)
	s := pc.traded(KingValue, itTradeK[n])

	// Men: advancement, tempo, centre and guard, one table per side.
	var wki, bki int
	if pc.bk != 0 {
		wki = 1
	}
	if pc.wk != 0 {
		bki = 1
	}
	tw, tb := &itMen[n][wki], &itMen[n][bki]
	s += sum(&tw.w, pc.wm) - tw.bias*pc.nwm - sum(&tb.b, pc.bm) + tb.bias*pc.nbm

	// Over-extension: advanced men with no own piece behind them.
	s -= itExposed[n] * (bits.OnesCount64(pc.wm&itExpW&^(pc.w>>4|pc.w>>5)) -
		bits.OnesCount64(pc.bm&itExpB&^(pc.b<<4|pc.b<<5)))

	m := 0
	if pc.k != 0 {
		var k int
		k, m = italianKings(pc.wk, pc.bk, movegen.Board8&^(pc.w|pc.b))
		s += k
	}
	return s, m
}

// italianKings scores the kings' centrality and mobility for White, and
// returns the mobility m (empty squares next to White's kings less those
// next to Black's).
func italianKings(wk, bk, empty uint64) (int, int) {
	c := bits.OnesCount64(wk&itCentW[0]) - bits.OnesCount64(bk&itCentB[0]) +
		(bits.OnesCount64(wk&itCentW[1])-bits.OnesCount64(bk&itCentB[1]))<<1 +
		(bits.OnesCount64(wk&itCentW[2])-bits.OnesCount64(bk&itCentB[2]))<<2
	m := bits.OnesCount64(wk>>4&empty) + bits.OnesCount64(wk>>5&empty) +
		bits.OnesCount64(wk<<4&empty) + bits.OnesCount64(wk<<5&empty) -
		bits.OnesCount64(bk>>4&empty) - bits.OnesCount64(bk>>5&empty) -
		bits.OnesCount64(bk<<4&empty) - bits.OnesCount64(bk<<5&empty)
	return itKingCentre*c + itKingMob*m, m
}
