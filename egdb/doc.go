// Package egdb generates and probes endgame databases: win/draw/loss
// tables of every position with few pieces, built with the project's own
// move generator.
//
// A table covers one slice: the numbers of men and kings of the side to
// move and of its opponent. Positions are stored with the side to move as
// White (a position with Black to move is looked up turned 180° with the
// colours swapped), and only positions with no capture pending carry a
// value: a capture is resolved at probe time by a small search over the
// captures the move generator allows, so the priority and majority rules of
// each variant stay in movegen.
//
// Italian Damone has three ranks of piece: Pedina (a man), Dama (a king)
// and Damone. A Damone slice counts the Damoni of each side as well, a
// third group of squares in the index; the Pedine stand anywhere but on
// their two promotion squares, the Dame anywhere but on their Damone
// square (see indexer). The tables are for Damone's default rules, the
// option "all Damoni captured wins" off. With it (movegen.DamoneAllDamoni)
// a side left without a Damone has lost: every position where the side to
// move has none is a loss, a capture of the last Damone wins at once, and
// most values change, so its tables would be a set of their own (their
// own files, the rule a terminal condition in the solver). That variant
// has none: Supported says no, and the hub and the search probe nothing
// when the option is on (the search applies the rule itself).
//
// A slice is solved by propagation over its positions, lowest slices
// first: a capture leads to fewer pieces and a promotion to fewer men, both
// already solved, while the other moves stay in the slice (and its mirror,
// the same counts with the sides swapped, solved together with it). The
// move graph is not stored: a first pass counts each position's moves, and
// the propagation finds a decided position's predecessors by un-moving the
// side that has just moved (with tables of each kind of piece's quiet
// moves, read off the move generator), so a slice pair needs three bytes an
// index value (about 1 GB for the largest 6-piece pair on the 32-square
// boards) and the slices solved before stay in memory as 2-bit codes. Both
// passes can share out their work among threads (BuildThreads), with the
// same result.
//
// A value is the result with perfect play when the game is played to its
// end by the rule that a side with no move or no piece loses, and where a
// position never reached again by force is a draw (repetition). The move
// rules (Italian 50 moves each, English 40, Russian 15, Brazilian and
// International 25) are ignored: a WIN may need more reversible moves than
// the rule allows, and the search, which counts them, still applies the
// rule. Spanish has no move rule, so its values are exact.
//
// Each slice also stores the distance to conversion of its won and lost
// positions: the plies to the next capture or promotion (or the end of the
// game) when the winner hastens it and the loser delays it, found by
// running the propagation breadth first. A winner that always moves to a
// lost position of smaller distance, or captures or promotes keeping the
// win, wins in a bounded number of moves (the search does so at a won
// root: search.SetDistance). The distance also tells whether a move rule
// can intervene: a win of distance d converts within d plies, each
// conversion resetting the move-rule count (but in Damone a Dama's
// promotion to Damone, a conversion here, is no Pedina move and leaves the
// count running: the search checks the count against the distance again at
// every move).
//
// Tables on disk are split in blocks compressed with DEFLATE, with an
// index of block offsets and a checksum (a .wdl file of 2-bit values and a
// .dtc file of distances, a byte each, per slice); probes read decompressed blocks
// through a ristretto cache whose budget is set in megabytes.
package egdb
