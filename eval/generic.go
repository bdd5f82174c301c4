package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The generic evaluation, for variants without an evaluation of their own
// (today none of movegen's; tomorrow whatever it adds, and the baseline
// the Turkish and Damone evaluations were measured against): material, and a
// small bonus per rank a man has advanced, read from v.Coord for each man.
// It knows nothing of the rules, so it claims little; it never indexes a
// table by a bit, so no board, however large, can make it fail.

// Generic weights, in centi-men.
const (
	// genericKing is a king of unknown rules: between a short king (about
	// 1.4 men) and a flying one (about 3).
	genericKing = 250
	// genericSuper is the extra value of a piece above a king (a Damone,
	// Position.Super): it outranks a king and may capture it.
	genericSuper = 100
	// genericAdv is the bonus per rank a man has advanced.
	genericAdv = 3
)

// genericMaterial is the material balance for White under unknown rules.
func genericMaterial(p *movegen.Position) int {
	return materialWhite(p, genericKing, genericKing+genericSuper)
}

// materialWhite is the material balance for White of every evaluation:
// Man per man, king per king and super per Damone (Position.Super, a
// subset of the kings; empty outside Damone).
func materialWhite(p *movegen.Position, king, super int) int {
	w, b, k, sp := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings, p.Super
	return (bits.OnesCount64(w&^k)-bits.OnesCount64(b&^k))*Man +
		(bits.OnesCount64(w&k&^sp)-bits.OnesCount64(b&k&^sp))*king +
		(bits.OnesCount64(w&sp)-bits.OnesCount64(b&sp))*super
}

// genericWhite is the generic evaluation from White's point of view:
// material, and genericAdv per rank for each man (White counts its ranks
// from rank 0, Black from the last rank, so the score is colour-symmetric
// on any board whose 180° turn is v.Flip). A variant without a board (a
// Variant value not made by movegen) gets material only.
func genericWhite(v *movegen.Variant, p *movegen.Position) int {
	s := genericMaterial(p)
	if v == nil || v.Board() == 0 {
		return s
	}
	last := v.Ranks() - 1
	for m := p.Pieces[movegen.White] &^ p.Kings; m != 0; m &= m - 1 {
		if _, r := v.Coord(bits.TrailingZeros64(m)); r >= 0 {
			s += genericAdv * r
		}
	}
	for m := p.Pieces[movegen.Black] &^ p.Kings; m != 0; m &= m - 1 {
		if _, r := v.Coord(bits.TrailingZeros64(m)); r >= 0 {
			s -= genericAdv * (last - r)
		}
	}
	return s
}
