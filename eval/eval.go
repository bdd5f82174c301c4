package eval

import "github.com/damaengine/damaengine/movegen"

// Man is the value of a man: the unit of every score (centi-men).
const Man = 100

// Evaluate returns the static score of p for the side to move (positive =
// good for the side to move), in centi-men, under the rules of v.
func Evaluate(v *movegen.Variant, p *movegen.Position) int {
	var s int
	if e := evaluationOf(v); e != nil { // EvaluateWhite, written out: one call less
		s = e.white(p)
	} else {
		s = genericWhite(v, p)
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}

// EvaluateWhite returns the static score of p from White's point of view
// (positive = good for White), whoever is to move, by the evaluation the
// table evaluations gives v; a variant without one, a Variant value not
// made by movegen, or a nil v, gets the generic evaluation, material and
// advancement, which works on any board.
func EvaluateWhite(v *movegen.Variant, p *movegen.Position) int {
	if e := evaluationOf(v); e != nil {
		return e.white(p)
	}
	return genericWhite(v, p)
}

// Material returns the material balance of p for the side to move: Man
// (100) per man and the variant's king value per king (Italian KingValue
// 280, English 140, Russian, Brazilian and Spanish 300, International 320,
// Turkish 300; in Damone a Dama 280 and a Damone 450; other variants 250,
// and 350 for a piece above a king).
// It is the "simpler evaluation" that self-play tests measure the full
// evaluation against.
func Material(v *movegen.Variant, p *movegen.Position) int {
	s := genericMaterial(p)
	if e := evaluationOf(v); e != nil {
		s = materialWhite(p, e.king, e.super)
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}

// evaluation is one variant's evaluation from White's point of view, and
// the piece values of its material balance (the simpler evaluation).
type evaluation struct {
	white       func(p *movegen.Position) int
	king, super int // a king's value; a Damone's (Position.Super)
}

// evaluations chooses each variant's evaluation, keyed by the variant
// value (Damone and DamoneAllDamoni are two values). A variant that is not
// here, or whose table-driven evaluator could not be built, gets the
// generic evaluation.
var evaluations = map[*movegen.Variant]evaluation{
	movegen.Italian:         {italianWhite, KingValue, KingValue},
	movegen.Damone:          {func(p *movegen.Position) int { return damoneWhite(p, false) }, DamaValue, DamoneValue},
	movegen.DamoneAllDamoni: {func(p *movegen.Position) int { return damoneWhite(p, true) }, DamaValue, DamoneValue},
	movegen.Turkish:         {turkishWhite, TurkishKingValue, TurkishKingValue},
	movegen.English:         evEnglish.evaluation(),
	movegen.Russian:         evRussian.evaluation(),
	movegen.Brazilian:       evBrazilian.evaluation(),
	movegen.Spanish:         evSpanish.evaluation(),
	movegen.International:   evInternational.evaluation(),
}

// byID holds evaluations indexed by Variant.ID, so that the search's call
// finds its evaluation without a map lookup; index 0 (a Variant not made
// by movegen) and variants without an evaluation stay empty.
var byID [movegen.NumIDs]evaluation

func init() {
	for v, e := range evaluations {
		byID[v.ID()] = e
	}
}

// evaluationOf returns v's evaluation, or nil for the generic one.
func evaluationOf(v *movegen.Variant) *evaluation {
	if v == nil {
		return nil
	}
	if e := &byID[v.ID()]; e.white != nil {
		return e
	}
	return nil
}

// Evaluator is Evaluate for one variant with the variant's evaluation
// looked up once (For): the search's call then reaches it without the
// function values Evaluate goes through.
type Evaluator struct {
	v *movegen.Variant
	l *layout     // the learned layout, or nil
	e *evaluation // the evaluation without a layout, or nil (generic)
}

// For returns the Evaluator of v: Evaluator.Evaluate(p) = Evaluate(v, p).
func For(v *movegen.Variant) Evaluator {
	x := Evaluator{v: v, e: evaluationOf(v)}
	if l := layoutOf(v); l != nil && x.e != nil {
		x.l, x.e = l, nil // byID's white for v is l.white
	}
	return x
}

// Evaluate is Evaluate(v, p) for the Evaluator's variant v.
func (x *Evaluator) Evaluate(p *movegen.Position) int {
	var s int
	switch {
	case x.l != nil:
		s = x.l.white(p)
	case x.e != nil:
		s = x.e.white(p)
	default:
		s = genericWhite(x.v, p)
	}
	if p.Side == movegen.Black {
		return -s
	}
	return s
}
