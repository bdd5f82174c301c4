package search

// Selectivity parameters, each kept because it measured better in
// self-play (docs/testing.md, "Search").
const (
	// Reverse futility: a quiet, unthreatened non-PV node at most rfpDepth
	// plies from the horizon whose static value beats beta by rfpMargin per
	// ply is cut.
	rfpDepth  = 3
	rfpMargin = 60
	// ProbCut: at non-PV nodes of at least probCutDepth plies, a search
	// probCutReduce plies shallower that beats beta by probCutMargin cuts.
	probCutDepth  = 5
	probCutReduce = 4
	probCutMargin = 100
	// Late-move pruning: at non-PV nodes within 3 plies of the horizon,
	// quiet moves after the first lmpBase+depth² are not searched.
	lmpBase = 3
)
