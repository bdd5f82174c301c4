package search

import "github.com/damaengine/damaengine/movegen"

// Selectivity parameters, each kept because it measured better in
// self-play (docs/testing.md, "Search").
const (
	// Reverse futility: a quiet, unthreatened non-PV node at most rfpDepth
	// plies from the horizon whose static value beats beta by rfpMargin per
	// ply is cut.
	rfpDepth  = 3
	rfpMargin = 60
	// ProbCut: at non-PV nodes of at least probCutDepth plies, a search
	// probCutReduce plies shallower that beats beta by a margin cuts (the
	// variant's depth and margin: probCutDepthOf, probCutMarginOf).
	probCutDepth  = 5
	probCutReduce = 4
	probCutMargin = 100
	// probCutMarginIntl is International's ProbCut margin: wider than the
	// others' (measured better there, worse in Italian; docs/testing.md,
	// "Pruning margins, razoring, and ProbCut's margin in International").
	probCutMarginIntl = 150
	// probCutDepthIntl is International's ProbCut depth: one ply higher
	// than the others' (measured better there at 0.1 s a move, worse in
	// Italian; docs/testing.md, "The remaining selectivity constants").
	probCutDepthIntl = 6
	// Late-move pruning: at non-PV nodes within 3 plies of the horizon,
	// quiet moves after the first lmpBase+depth² are not searched.
	lmpBase = 3
)

// probCutMarginOf returns the ProbCut margin of variant v, in centi-men.
func probCutMarginOf(v *movegen.Variant) int {
	if v == movegen.International {
		return probCutMarginIntl
	}
	return probCutMargin
}

// probCutDepthOf returns the fewest plies at which variant v's non-PV
// nodes try ProbCut.
func probCutDepthOf(v *movegen.Variant) int {
	if v == movegen.International {
		return probCutDepthIntl
	}
	return probCutDepth
}
