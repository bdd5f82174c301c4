package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The Turkish evaluation (rules.md §3): all 64 squares, orthogonal moves,
// flying orthogonal kings. The package documentation (doc.go, "Turkish
// evaluation") describes every term; keep the two in step.
//
// Layout (movegen/turkish.go): bit = (7-rank)*8 + file, a8 = bit 0, h1 =
// bit 63. White's men step up (a right shift by 8), Black's down; the 180°
// turn of the board is bit b ↔ 63-b.
//
// Colour symmetry holds by construction. The men's terms are one function,
// turkishMen, that sees the men it scores as White's (stepping up); Black's
// men are scored by the same function on the board turned upside down
// (bits.ReverseBytes64, one byte swap). That is the 180° turn followed by a
// left-right mirror, and every men's term is unchanged by the mirror (the
// advancement depends on the rank only; the fills, steps and cones are the
// same to the left and to the right), so it gives exactly Black's terms on
// the turned board. The kings' reach and captures look in all four
// directions alike, so they are computed for both colours on the board as
// it stands. Material and trade-down are antisymmetric sums.

// Turkish weights, in centi-men.
const (
	// TurkishKingValue is the value of a Turkish king. It slides along
	// whole ranks and files over all 64 squares (14 squares from anywhere
	// on an empty board, where a diagonal flying king reaches 7 to 13),
	// captures from afar and, because captured pieces leave the board at
	// once, sweeps long multi-captures through a thinned position; men
	// cannot step back out of its lines and are safe from it only with the
	// square behind them taken. It wins most endings against a few men, so
	// it is worth about three men, as the flying kings of the diagonal
	// variants. Self-play against the generic evaluation agrees (200 games,
	// 10000 nodes a move: 250 scored 68%, 300 75%, 350 74%).
	TurkishKingValue = 300

	tkPhaseLo = 6  // at or below this many pieces: pure endgame
	tkPhaseHi = 26 // at or above: pure middlegame (32 at the start)

	tkImmobileMG = 2 // a man with no square to step to
	tkImmobileEG = 6

	tkKingRay = 1 // per empty square the side's kings can slide to

	// En prise (a piece an enemy king could capture right now). With its
	// owner to move it is a threat the owner can often parry: a share of
	// the piece's value, and a surcharge for two or more pieces hit at
	// once (one of them usually falls). With the king's side to move the
	// capture is on: half the value of all of them.
	tkThreatMan    = 15
	tkThreatKing   = 60
	tkThreatDouble = 40

	tkTrade = 2 // trade-down: material × tkTrade / (pieces + 2)
)

var (
	// tkAdvMG and tkAdvEG are the advancement bonus of a man by rank-1
	// (rank 1 .. rank 7; a man on rank 8 is crowned).
	tkAdvMG = [7]int{0, 0, 1, 3, 6, 10, 15}
	tkAdvEG = [7]int{0, 2, 6, 12, 21, 34, 52}
	// tkPassed is the bonus of a man with a free path to promotion by the
	// ranks it still has to go (index 0 unused); half once the opponent has
	// a king, which can still catch it.
	tkPassed = [7]int{0, 80, 55, 36, 22, 12, 6}
)

// Masks of the Turkish layout (movegen's fileA and fileH are unexported).
const (
	tkFileA    uint64 = 0x0101010101010101
	tkFileH           = tkFileA << 7
	tkNotFileA        = ^tkFileA
	tkNotFileH        = ^tkFileH
)

var (
	// tkAdv[n] is the advancement table with n pieces on the board, as bit
	// planes over White's squares: a man on bit s earns Σ 2^j·[s ∈ plane j].
	tkAdv [33][manPlanes]uint64
	// tkTradeK[n] is the trade-down factor ×1024 with n pieces.
	tkTradeK [33]int
	// tkImmobile[n] is the penalty of a man that cannot move.
	tkImmobile [33]int
	// tkPassedVal[k][row] is the free-path bonus of a White man on layout
	// row (bit>>3; row = ranks to go), k = 1 when the opponent has a king.
	tkPassedVal [2][8]int
)

func init() {
	for n := range tkAdv {
		for row := 1; row < 8; row++ { // row 0 = rank 8: no man stays there
			r := 7 - row // rank-1
			w := blendPhase(tkAdvMG[r], tkAdvEG[r], n, tkPhaseLo, tkPhaseHi)
			if w < 0 || w >= 1<<manPlanes {
				panic("eval: Turkish advancement weight out of range")
			}
			for j := 0; j < manPlanes; j++ {
				if w>>j&1 != 0 {
					tkAdv[n][j] |= 0xFF << (8 * row)
				}
			}
		}
		tkTradeK[n] = tradeFactor(tkTrade, n)
		tkImmobile[n] = blendPhase(tkImmobileMG, tkImmobileEG, n, tkPhaseLo, tkPhaseHi)
	}
	for row := 1; row < len(tkPassed); row++ {
		tkPassedVal[0][row] = tkPassed[row]
		tkPassedVal[1][row] = tkPassed[row] / 2
	}
}

// Occluded fills (Kogge-Stone): g spread along one direction through the
// empty squares e, including g itself. Sideways fills mask the propagator
// so that no bit wraps round the edge onto the next rank.

func tkFillUp(g, e uint64) uint64 {
	g |= e & (g >> 8)
	e &= e >> 8
	g |= e & (g >> 16)
	e &= e >> 16
	return g | e&(g>>32)
}

func tkFillDown(g, e uint64) uint64 {
	g |= e & (g << 8)
	e &= e << 8
	g |= e & (g << 16)
	e &= e << 16
	return g | e&(g<<32)
}

func tkFillLeft(g, e uint64) uint64 { // towards file a: >> 1
	e &= tkNotFileH
	g |= e & (g >> 1)
	e &= e >> 1
	g |= e & (g >> 2)
	e &= e >> 2
	return g | e&(g>>4)
}

func tkFillRight(g, e uint64) uint64 { // towards file h: << 1
	e &= tkNotFileA
	g |= e & (g << 1)
	e &= e << 1
	g |= e & (g << 2)
	e &= e << 2
	return g | e&(g<<4)
}

// tkKingReach returns, for the kings k on a board with empty squares e,
// the empty squares they can slide to (ray) and the pieces among targets
// they could capture right now (hit: first piece on a line, with an empty
// square just beyond it).
func tkKingReach(k, e, targets uint64) (ray, hit uint64) {
	u := tkFillUp(k, e)
	d := tkFillDown(k, e)
	l := tkFillLeft(k, e)
	r := tkFillRight(k, e)
	ray = (u | d | l | r) &^ k
	hit = (u >> 8) & targets & (e << 8)
	hit |= (d << 8) & targets & (e >> 8)
	hit |= ((l & tkNotFileA) >> 1) & targets & ((e & tkNotFileH) << 1)
	hit |= ((r & tkNotFileH) << 1) & targets & ((e & tkNotFileA) >> 1)
	return ray, hit
}

// turkishWhite is the Turkish evaluation from White's point of view.
func turkishWhite(p *movegen.Position) int {
	pc := takeCensus(p)
	n := pc.pieces(32)
	s := pc.traded(TurkishKingValue, tkTradeK[n])

	// Men: Black's seen as White's on the board turned upside down.
	empty := ^(pc.w | pc.b)
	if pc.wm != 0 {
		s += turkishMen(pc.wm, pc.bm, pc.b, empty, n, pc.bk != 0)
	}
	if pc.bm != 0 {
		s -= turkishMen(bits.ReverseBytes64(pc.bm), bits.ReverseBytes64(pc.wm),
			bits.ReverseBytes64(pc.w), bits.ReverseBytes64(empty), n, pc.wk != 0)
	}

	// Kings: their reach, and the pieces they could capture now.
	if pc.k != 0 {
		var rayW, rayB, hitW, hitB uint64
		if pc.wk != 0 {
			rayW, hitB = tkKingReach(pc.wk, empty, pc.b)
		}
		if pc.bk != 0 {
			rayB, hitW = tkKingReach(pc.bk, empty, pc.w)
		}
		s += tkKingRay * (bits.OnesCount64(rayW) - bits.OnesCount64(rayB))
		if hitW|hitB != 0 {
			s -= tkEnPriseCost(hitW, pc.k, p.Side == movegen.White) -
				tkEnPriseCost(hitB, pc.k, p.Side == movegen.Black)
		}
	}
	return s
}

// tkEnPriseCost is what a side loses for its pieces ep that an enemy king
// could capture now; toMove: the side is to move (a threat to parry),
// else the capture is on.
func tkEnPriseCost(ep, kings uint64, toMove bool) int {
	if ep == 0 {
		return 0
	}
	em, ek := bits.OnesCount64(ep&^kings), bits.OnesCount64(ep&kings)
	if !toMove {
		return (em*Man + ek*TurkishKingValue) / 2
	}
	c := em*tkThreatMan + ek*tkThreatKing
	if em+ek >= 2 {
		c += tkThreatDouble
	}
	return c
}

// tkFree returns the men (seen as White's, stepping up) with a free path
// to promotion: no piece of opp ahead on the man's file, nor on the
// neighbouring files beyond the man's rank. The squares behind every enemy
// piece (a downward fill, three shifts) are the squares whose file ahead
// holds it; spread one file each way and one rank down, they are the
// squares whose neighbouring files ahead hold it.
func tkFree(men, opp uint64) uint64 {
	f := opp
	f |= f << 8
	f |= f << 16
	f |= f << 32
	return men &^ (f | ((f&tkNotFileA)>>1|(f&tkNotFileH)<<1)<<8)
}

// turkishMen scores the men of one side, seen as White (they step up,
// towards bit 0), against the enemy men oppMen and all enemy pieces opp,
// on a board with empty squares empty: their advancement (men not blocked
// head-on by an enemy man), the men that cannot move, and the men with a
// free path to promotion (oppKing: the enemy has a king, which halves it).
// Every term is the same on the board mirrored left to right, so Black's
// men need only the board turned upside down (bits.ReverseBytes64), not
// the full 180° turn.
func turkishMen(men, oppMen, opp, empty uint64, n int, oppKing bool) int {
	// Advancement of men not blocked head-on by an enemy man.
	free := men &^ (oppMen << 8)
	t := &tkAdv[n]
	s := bits.OnesCount64(free&t[0]) +
		bits.OnesCount64(free&t[1])<<1 +
		bits.OnesCount64(free&t[2])<<2 +
		bits.OnesCount64(free&t[3])<<3 +
		bits.OnesCount64(free&t[4])<<4 +
		bits.OnesCount64(free&t[5])<<5

	// Men with no square to step to (forward, left or right).
	mobile := empty<<8 | (empty&tkNotFileH)<<1 | (empty&tkNotFileA)>>1
	s -= tkImmobile[n] * bits.OnesCount64(men&^mobile)

	if pass := tkFree(men, opp); pass != 0 {
		ki := 0
		if oppKing {
			ki = 1
		}
		v := &tkPassedVal[ki]
		for ; pass != 0; pass &= pass - 1 {
			s += v[bits.TrailingZeros64(pass)>>3&7]
		}
	}
	return s
}

// tkThreatBuckets is the number of Turkish threat features of the learned
// correction (tkThreatFeatures): the side to move's men the other side
// could capture now, 1, 2 or 3 and more, and its kings, 1 or 2 and more.
const tkThreatBuckets = 5

// tkThreatFeatures returns the threat features of p (indices below
// tkThreatBuckets, -1 for none): the bucket of the side to move's men, and
// that of its kings, that a piece of the other side could capture now by
// a jump (a man forward or sideways, a king from afar along a line).
func tkThreatFeatures(p *movegen.Position) [2]int {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := ^(own | opp)
	om, ok := opp&^p.Kings, opp&p.Kings
	var hit uint64
	if us == movegen.White { // Black's men step down
		hit = (om << 8) & own & (empty >> 8)
	} else {
		hit = (om >> 8) & own & (empty << 8)
	}
	hit |= ((om & tkNotFileA) >> 1) & own & ((empty & tkNotFileH) << 1)
	hit |= ((om & tkNotFileH) << 1) & own & ((empty & tkNotFileA) >> 1)
	if ok != 0 {
		_, h := tkKingReach(ok, empty, own)
		hit |= h
	}
	f := [2]int{-1, -1}
	if hit == 0 {
		return f
	}
	if n := bits.OnesCount64(hit &^ p.Kings); n > 0 {
		f[0] = min(n, 3) - 1
	}
	if n := bits.OnesCount64(hit & p.Kings); n > 0 {
		f[1] = 3 + min(n, 2) - 1
	}
	return f
}
