// Package eval is the static evaluation of draughts positions, one
// evaluation per variant, chosen by the *movegen.Variant value in one table
// (evaluations, eval.go; never by the variant's name): Italian has its
// own (italian.go); English, Russian, Brazilian, Spanish and International
// share one table-driven engine (diag.go) with weights of their own
// (variants.go); Turkish (turkish.go) and Italian Damone (damone.go, with
// or without the all-Damoni rule) have their own; any other variant gets
// the generic evaluation (generic.go), which works on any board and never
// fails. What several of them share (the piece census, men's tables as bit
// planes, the phase blend, the 8x8 layout) is in kernels.go.
//
// Scores are in centi-men: a man is worth Man (100). Evaluate scores a
// position for the side to move, EvaluateWhite for White; Material is the
// bare material count used as a baseline ("the simpler evaluation") in
// self-play tests. Win, loss and draw scores belong to the search, not here.
//
// Every evaluation obeys one hard rule: a position and its colour-flipped
// mirror (v.Flip: the board turned 180°, colours swapped, the other side to
// move) score exactly opposite in EvaluateWhite and exactly the same in
// Evaluate. It holds by construction: each White term is computed from
// White's point of view, and each Black term by the same table applied to
// the rotated square (file f, rank r ↔ files-1-f, ranks-1-r; on the 8x8
// layout bit b ↔ 35-b, on the 10x10 layout b ↔ 53-b), with the same
// integer arithmetic, so no rounding can break it. The tests check it for
// every variant on thousands of positions.
//
// The evaluation runs at every leaf of the search, so it is built from
// bitboard popcounts and precomputed tables only: no loop over moves, no
// allocation. Per-square weights are stored as bit planes — a table
// whose weights fit in k bits becomes k masks, and the weighted sum over a
// set of pieces is Σ 2^j·popcount(pieces & plane[j]) — so a whole
// piece-square table costs a handful of popcounts. Terms that depend on the
// game phase are blended into one table per phase at package initialisation.
// Every table index is a capped piece count or a bit masked to 0-63, so a
// position of the wrong board size gives a meaningless score, never a panic.
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
//
// # English, Russian, Brazilian, Spanish and International
//
// These five share one evaluation (diag.go) whose tables are built at
// package initialisation from the variant's own coordinates (v.Coord, rank
// 0 = White's first rank), once per variant, White's from White's view and
// Black's on the rotated squares. "Rank" below counts from the owner's side
// as in the Italian section, and squares are named for White. Weights blend
// linearly between a middlegame weight (MG, with 22 or more pieces on the
// board; International 32) and an endgame weight (EG, 6 or fewer;
// International 8). The weights live in variants.go; this table is theirs.
//
// Material: Man (100) per man; a king is worth 140 in English (a short king:
// checkers programs use 1.3-1.5 men), 300 in Russian, Brazilian and Spanish
// and 320 in International. A flying king commands whole diagonals, catches
// runaway men and wins most endgames against men alone, so it is worth
// about three men; on the larger 10x10 board it covers more squares, hence
// a little more.
//
// Advancement and tempo, by rank 1..7 (International 1..9), on top of
// tempo × (rank-1):
//
//	                   MG advancement      EG advancement                 tempo MG/EG
//	English            0 0 0 0 2 4 6       0 2 4 7 11 15 20               +2 / -1
//	Russian, Brazilian,
//	Spanish            0 0 0 0 2 4 6       0 2 5 9 15 25 40               +2 / -1
//	International      0 0 0 0 0 1 2 3 4   0 2 4 7 11 16 23 32 43         +1 / -1
//
// In the middlegame the reward stays small (a man far up the board is a
// target; see over-extension), in the endgame it grows toward promotion.
//
// Over-extension: a man on ranks 5-7 (International 6-9), off the side
// edges, with no piece of its own on either square diagonally behind it,
// costs MG 8 (EG 0): an enemy man in front of it can jump it.
//
// Centre: a man on d4 f4 c5 e5 (English, Russian, Brazilian: a1 dark) or
// c4 e4 d5 f5 (Spanish: h1 dark) earns MG 6, EG 2; in International a man
// on d4 f4 c5 e5 g5 (32 33 27 28 29; Black 19 18 24 23 22) earns MG 5, EG 1.
//
// Back-rank guard, while the opponent has no king (MG as listed, EG half):
// English c1 8, g1 8 (the "bridge", 30 and 32), e1 4, a1 2; Russian and
// Brazilian c1 8, e1 8, a1 4, g1 4; Spanish d1 8, f1 8, b1 4, h1 4;
// International e1 (48) 8, c1 and g1 (47, 49) 6, a1 and i1 (46, 50) 2.
//
// Breakthrough: a man with no enemy man anywhere in its promotion cone (the
// squares ahead of it reachable by forward diagonal steps, found by a
// shift-and-mask fill) earns, by ranks still to go 1, 2, 3, ...:
// English 16 10 5; Russian, Brazilian, Spanish 50 32 18 8; International
// 50 36 24 14 6. Half once the opponent has a king, which can still stop it.
//
// Kings. English (short kings): 2 per step of centrality (distance in files
// from the nearer side edge plus distance in ranks from the nearer of ranks
// 1 and 8) and 3 per empty square diagonally next to the king. Flying
// kings (the other four): 1 per empty square the side's kings can slide to
// (the union of their rays, each square counted once), and 25 for a side
// with a king on the long diagonal (a1-h8, Spanish h1-a8, International
// a1-j10 = 46-5), the road that decides many king endgames.
//
// International only: outposts — a man on rank 6 or 7, off the edges, with
// own pieces on both squares diagonally behind it, earns MG 8, EG 2: it
// cannot be jumped from in front. Wing balance — with d = |men on files
// a-e − men on files f-j|, a side pays min(3·(d-1)², 60) in the middlegame
// and min((d-1)², 60) in the endgame: d = 2 costs 3, 3 costs 12, 4 costs 27.
//
// Trading down: as in Italian, the side ahead gets material difference ×
// 2 / (pieces on the board + 2) on top.
//
// # Turkish evaluation
//
// Turkish (rules.md §3; turkish.go) plays on all 64 squares with orthogonal
// moves. Each side's terms are computed by one function that sees the side
// as White; Black's men are scored on the board turned upside down (every
// men's term is unchanged by a left-right mirror, so that is the 180° turn),
// and the kings' terms look in all four directions alike. Weights blend
// between a middlegame (26 or more pieces; 32 at the start) and an endgame
// (6 or fewer) as above. "Rank" counts from the owner's side.
//
// Material: Man (100) per man, TurkishKingValue (300) per king. A Turkish
// king slides along whole ranks and files over all 64 squares (up to 14
// squares from anywhere), captures from afar, and, since captured pieces
// leave the board at once, sweeps long multi-captures through a thinned
// position; men cannot step back out of its lines and are safe from it only
// with the square behind them taken. Like the flying kings of the diagonal
// variants, it is worth about three men (in self-play against the generic
// evaluation 300 did better than 250 and as well as 350).
//
// Advancement: a man earns, by rank 1..7, MG 0 0 1 3 6 10 15 and
// EG 0 2 6 12 21 34 52 — but nothing while an enemy man stands directly in
// front of it (a blocked file: it cannot step forward, and the pair is a
// capture waiting for whichever square behind empties first).
//
// Immobile men: a man that can step neither forward nor sideways (its
// squares taken or off the board) costs MG 2, EG 6.
//
// Free path: a man with no enemy piece ahead on its file, nor on the
// neighbouring files beyond its rank (found by a downward fill of the enemy
// pieces, spread a file each way), earns by ranks still to go 1..6:
// 80 55 36 22 12 6; half once the opponent has a king, which can still
// catch it from afar.
//
// Kings: 1 per empty square the side's kings can slide to (the union of
// their rays, by occluded fills along ranks and files).
//
// En prise: a piece that an enemy king could capture right now (on the
// same rank or file, only empty squares between, an empty square just
// beyond) costs, with its owner to move (a threat, which it may parry),
// 15 for a man and 60 for a king, plus 40 when two or more pieces are hit
// at once (one usually falls); with the king's side to move (the capture
// is on), half the value of each piece hit. The search evaluates only
// positions without a capture for the side to move, so there it is always
// the threat.
//
// Trading down: as in Italian, the side ahead gets material difference ×
// 2 / (pieces on the board + 2) on top.
//
// # Italian Damone evaluation
//
// Italian Damone (rules.md §2; damone.go) uses the Italian layout and
// three ranks of piece: Pedina, Dama (Position.Kings) and Damone
// (Position.Super). The colour-dependent terms are tables, White's built
// from White's point of view and Black's on the rotated bit (b ↔ 35-b); the
// rest (mobility, "can be taken now") uses all four diagonal steps alike.
// Weights blend between a middlegame (16 or more pieces: the start) and an
// endgame (4 or fewer). Squares are named for White.
//
// Material: a Pedina is Man (100); a Dama DamaValue (280, the Italian king:
// it steps one square every way, Pedine cannot take it, and it may become a
// Damone); a Damone DamoneValue (450: it takes every piece, and only the
// enemy Damone can take it, so with one Damone a side it is immune to all
// but one piece; a Dama and almost two Pedine).
//
// Advancement: a Pedina steps forward up-left (towards a8) or sideways
// (up-right, down-left), and is crowned on c8 or a6 (squares 2 and 9), both
// on the one diagonal c8-b7-a6, which it reaches only by its forward steps.
// It earns by its steps on an empty board to the nearer of them (computed
// once, by relaxation over the three steps) 1..6: MG 16 11 7 4 2 1;
// 1..8: EG 40 28 19 12 7 4 2 1. A Pedina on c4, e4, d5 or f5 adds MG 4
// (EG 0).
//
// Dama to Damone: a Dama that no enemy Dama or Damone could take right now
// (diagonally next to it with the square beyond empty) earns, by its king
// distance to a8 (square 1, where it becomes a Damone) 1..6:
// 30 20 13 8 4 2.
//
// Dame and Damoni: 2 per step of centrality (as the Italian king, 0-12)
// and 3 for every empty square diagonally next to them (0-12 each).
//
// All-Damoni rule (DamoneAllDamoni, v.HasLossRule): a side without a
// Damone has lost, and the evaluation returns ±DamoneLost (5000; with
// neither side holding one, the side to move has lost, as movegen's Lost
// says). A side with a single Damone while the enemy has one (the only
// piece that can take it) pays 60; if the enemy Damone could take it right
// now, 150 more with its owner to move (it must flee) and 1000 more with
// the enemy to move (the game is gone).
//
// Trading down: as in Italian, material difference × 2 / (pieces + 2).
//
// # Learned evaluation
//
// Italian, English, Russian, Brazilian, Spanish, International, Damone
// and Turkish also have a learned correction (learned.go): men and king
// square tables, king mobility, wing balance and men patterns over 2x4
// regions (Damone also a Damoni square table; Turkish no regions but a
// tempo and the side to move's pieces en prise), each weight with a
// middlegame and an endgame value, added to the hand-written score above. It is fitted by the tuner (package tune, "damaengine tune")
// on self-play games and is used for a variant only when weights for it
// are embedded (eval/weights/VARIANT.dw, kept only when the learned
// evaluation measured better in self-play; see docs/testing.md) or loaded
// with LoadWeights or LoadWeightsFile. HandEvaluate is the hand-written
// evaluation alone, whatever is loaded.
//
// A weights file may instead hold a network (net.go, file version 2): the
// hand-written score plus one hidden layer over the pieces by square, read
// from both sides so that it stays antisymmetric, in place of the linear
// tables. The search keeps the network's first-layer sums ply by ply
// (ActiveNet, Net.Update); Evaluate computes them from the pieces. Every
// variant with a learned layout can load one (Italian Damone's reads six
// piece kinds, its Damoni their own). A network may
// carry pattern tables (pattern.go, file version 5 or 6): one table a
// window of the board (4 x 4 at every file and rank, or 4 x 6 at every
// other file and the board's two edges) over the configurations of its
// men, added to the network's score. International's embedded network
// has 4 x 6 tables, Italian's and English's 4 x 4 ones.
//
// # Other variants
//
// A variant without its own evaluation gets the generic one: Man per man,
// 250 per king (between a short and a flying king), 350 for a piece above a
// king, and 3 per rank a man has advanced, each man's rank read from
// v.Coord. It uses no table indexed by square, so it is safe on any board.
// It is also the fallback for a Variant value not made by movegen.
package eval
