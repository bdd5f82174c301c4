// Package search finds the best move: iterative deepening over a
// principal-variation alpha-beta search with aspiration windows, a
// transposition table (its move tried before the others are even scored),
// killer, counter-move and history move ordering, late-move reductions and
// pruning, reverse futility and ProbCut at non-PV nodes (params.go), a
// quiescence search that resolves pending captures, and draws by repetition
// and by the variant's move rule inside the tree.
//
// The search never prints. It reports through a callback (Info at each
// completed depth) and returns a Result. It is stopped through a Control,
// whose methods may be called from any goroutine. With several threads, the
// workers search the same tree sharing the transposition table (Lazy SMP);
// the first worker's result is the answer.
//
// Scores are in centi-men from the side to move. A win in n plies scores
// Mate-n and a loss -(Mate-n), which the protocol shows as 99.xx.
package search
