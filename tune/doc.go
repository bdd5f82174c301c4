// Package tune fits the learned evaluation (package eval) to self-play.
//
// It has two steps. Generate plays games of the engine against itself at
// a small node budget, from the embedded opening sets in a seeded shuffled
// order, with a few seeded random plies after each opening so that no two
// games repeat, and appends each game as one line to a games file: the
// result and every quiet position (no capture for the side to move) with
// the search's score of it. A stopped run is continued from the file.
//
// Fit then fits the weights of eval's feature layout by logistic
// regression: the probability that White wins is sigmoid(score/K), where
// score is the hand-written evaluation plus the learned correction and K
// is first fitted to the hand-written evaluation alone (so the weights are
// in centi-men), against a target that blends the game result with the
// search score's probability. It minimises the mean cross-entropy plus an
// L2 penalty by mini-batch Adam with sparse updates, checkpointing after
// each epoch so a stopped fit goes on where it was. Quantize turns the
// weights into a file for eval.WriteWeights.
//
// At scale (issue 45) the games files give way to positions files
// (posfile.go: 16-byte records, a text header): GeneratePositions plays
// one shard of the self-play games into a part file (posgen.go), Merge
// joins the parts into one de-duplicated file whose bytes do not depend on
// how the games were split, and FitNetStream fits a wide network with
// tempo weights streaming from it, on every core with the same bytes on
// any number of them (stream.go); FitPatterns fits pattern tables over a
// network (patfit.go). Both validate on the positions a hash holds out of
// the data, or better on another file of other games (Valid).
package tune
