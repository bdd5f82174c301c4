// Package eval is the static evaluation of draughts positions, one function
// per variant, selected by the variant's name (Italian is the only one so far
// and the default for names it does not know).
//
// Scores are in centi-men: a man is worth Man (100). Evaluate scores a
// position for the side to move, EvaluateWhite for White; Material is the
// bare material count used as a baseline ("the simpler evaluation") in
// self-play tests. Win, loss and draw scores belong to the search, not here.
//
// Every evaluation obeys one hard rule: a position and its colour-flipped
// mirror (movegen.Position.Flip8: the board turned 180°, colours swapped, the
// other side to move) score exactly opposite in EvaluateWhite and exactly the
// same in Evaluate. It holds by construction: each White term is computed
// from White's point of view, and each Black term by the same table applied
// to the rotated bit (bit b of the 8x8 layout ↔ bit 35-b), with the same
// integer arithmetic, so no rounding can break it.
//
// The evaluation runs at every leaf of the search, so it is built from
// bitboard popcounts and precomputed tables only: no loop over pieces or
// moves, no allocation. Per-square weights are stored as bit planes — a table
// whose weights fit in k bits becomes k masks, and the weighted sum over a
// set of pieces is Σ 2^j·popcount(pieces & plane[j]) — so a whole
// piece-square table costs a handful of popcounts. Terms that depend on the
// game phase are blended into one table per phase at package initialisation.
//
// # Italian evaluation
//
// The Italian evaluation (rules.md §1) is the sum of the terms below, in
// centi-men, each computed for White and for Black (the same tables on the
// rotated bit, b ↔ 35-b) and taken as White's minus Black's.
// "Rank" counts from the owner's side: a White man on rank 1 stands on
// White's back rank (b1 d1 f1 h1), one on rank 7 is a step from crowning.
// Terms that change with the game phase are blended linearly between a
// middlegame (MG) weight, used with 22 or more pieces on the board, and an
// endgame (EG) weight, used with 6 or fewer.
//
// Material: Man (100) per man, KingValue (280) per king.
//
// Advancement: a man earns, by rank 1..7, MG 0 0 0 0 2 4 6 and
// EG 0 2 5 9 15 25 40. The reward grows toward promotion, steeply in the
// endgame, where a man that runs through crowns; in the middlegame it stays
// small, because a man far up the board is a target, not an asset.
//
// Over-extension: in the middlegame a man on ranks 5-7, off the side
// edges, with no piece of its own on either square diagonally behind it,
// costs 8 (EG 0): an enemy man in front of it can jump it as soon as a
// square behind it is empty. Edge men cannot be jumped at all and are exempt.
//
// Tempo: the classic tempo count, the sum over a side's men of the ranks
// they have advanced (rank-1), compared between the sides: MG +2 per unit
// of difference (development and space), EG -1 (in a locked endgame the
// side with fewer tempi used keeps spare moves and wins the opposition; the
// advancement term still drives men that can run to promotion).
//
// Back-rank guard: a man on its own back rank stops enemy men crowning
// there and takes those that arrive on the rank in front of it. b1 and f1
// (the "bridge" of checkers, mirrored onto the Italian board) earn 8 each,
// d1 and h1 4 each, in the middlegame only (EG 0), and a quarter of that
// once the opponent already has a king.
//
// Centre: a man on c4, e4, d5 or f5 (for Black: f5, d5, e4, c4) earns
// MG 6, EG 2. A king earns 2 per step of centrality, the sum of its
// distances (in files and ranks) from the nearest side edge and from the
// nearest of ranks 1 and 8 (0 on a8 and h1, 6 on d5 and e4): 0-12.
//
// King mobility: 3 for every empty square diagonally next to a king (0-12
// per king); a king hemmed in by its own or enemy pieces is worth less.
//
// Trading down: the side ahead in material gets material difference ×
// 2 / (pieces on the board + 2) on top: with 24 pieces a man up is worth
// about 8 more, with 4 pieces about 33, so when ahead trading pieces pays.
package eval
