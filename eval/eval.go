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
// (positive = good for White), whoever is to move.
func EvaluateWhite(v *movegen.Variant, p *movegen.Position) int {
	switch v.Name {
	// Later variants add a case here: case "english": return englishWhite(p)
	default: // "italian", and for now every variant without its own evaluation
		return italianWhite(p)
	}
}

// Material returns the material balance of p for the side to move: Man
// (100) per man and the variant's king value (for Italian, KingValue) per
// king. It is the "simpler evaluation" that self-play tests measure the full
// evaluation against.
func Material(v *movegen.Variant, p *movegen.Position) int {
	var s int
	switch v.Name {
	default: // "italian"
		s = italianMaterial(p)
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}
