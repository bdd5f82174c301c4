package eval

import "github.com/damaengine/damaengine/movegen"

// Man is the value of a man: the unit of every score (centi-men).
const Man = 100

// Evaluate returns the static score of p for the side to move (positive =
// good for the side to move), in centi-men, under the rules of v.
func Evaluate(v *movegen.Variant, p *movegen.Position) int {
	s := EvaluateWhite(v, p)
	if p.Side == movegen.Black {
		return -s
	}
	return s
}

// EvaluateWhite returns the static score of p from White's point of view
// (positive = good for White), whoever is to move. Each variant has its
// own evaluation, chosen by v.Name (Damone and DamoneAllDamoni share the
// name "damone"; v.HasLossRule tells them apart); a variant without one, a
// Variant value whose board is not the one its name implies, or a nil v,
// gets the generic evaluation, material and advancement, which works on any
// board.
func EvaluateWhite(v *movegen.Variant, p *movegen.Position) int {
	if v == nil {
		return genericWhite(nil, p)
	}
	var e *diagEval
	switch v.Name {
	case "italian":
		return italianWhite(p)
	case "turkish":
		if v.Board() == movegen.BoardT {
			return turkishWhite(p)
		}
	case "damone":
		if v.Board() == movegen.Board8 {
			return damoneWhite(p, v.HasLossRule())
		}
	case "english":
		e = evEnglish
	case "russian":
		e = evRussian
	case "brazilian":
		e = evBrazilian
	case "spanish":
		e = evSpanish
	case "international":
		e = evInternational
	}
	if e == nil {
		return genericWhite(v, p)
	}
	return e.white(p)
}

// Material returns the material balance of p for the side to move: Man
// (100) per man and the variant's king value per king (Italian KingValue
// 280, English 140, Russian, Brazilian and Spanish 300, International 320,
// Turkish 300; in Damone a Dama 280 and a Damone 450; other variants 250,
// and 350 for a piece above a king).
// It is the "simpler evaluation" that self-play tests measure the full
// evaluation against.
func Material(v *movegen.Variant, p *movegen.Position) int {
	var s int
	switch {
	case v == nil:
		s = genericMaterial(p)
	case v.Name == "italian":
		s = italianMaterial(p)
	case v.Name == "turkish" && v.Board() == movegen.BoardT:
		s = turkishMaterial(p)
	case v.Name == "damone" && v.Board() == movegen.Board8:
		s = damoneMaterial(p)
	default:
		if e := diagFor(v.Name); e != nil {
			s = e.material(p)
		} else {
			s = genericMaterial(p)
		}
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}
