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
	// variant's depth and margin: probCutOf).
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

// probCutOf returns variant v's ProbCut settings: the fewest plies at
// which a non-PV node tries it, and the margin over beta, in centi-men.
func probCutOf(v *movegen.Variant) (depth, margin int) {
	if v == movegen.International {
		return probCutDepthIntl, probCutMarginIntl
	}
	return probCutDepth, probCutMargin
}
