// Package movegen holds the rules of draughts: the board geometry, the
// Position and Move types, move generation for each rule set, making moves
// with incremental Zobrist keys, perft, and the text forms of positions (PDN
// FEN, the Hub position string) and moves.
//
// The package imports nothing else of the project. Everything on the hot path
// (Generate, Play, Perft) works on small values and fixed-size arrays and
// allocates nothing.
//
// Rules are data: a Variant names its board, numbering, start position and
// capture rules, and a generator specialised per board family reads them.
// Italian draughts is the first rule set (see rules.md §1 and italian.go).
package movegen
