package movegen

// The diagonal rule sets other than Italian: English, Russian, Brazilian and
// Spanish on the 8x8 layout, International on the 10x10 one. They share one
// generator, diaggen.go, instantiated per rule set with its rules and board
// as constants (until 2026-12 each had its own file written out by hand;
// the shared one lists the same moves in the same order, so the search sees
// the same trees). The diagRules below describe the rules for the rest of
// the package (the notation reads manBack) and for the reader.
//
// Common to all of them: captured pieces stay on the board until the move
// ends — they block their squares (a flying king's slide stops at them) and
// are never jumped twice — and the mover's origin counts as empty.
//
// Directions are numbered 0 up-right, 1 up-left, 2 down-left, 3 down-right
// (up: towards the low bits, White's forward), and the generator keeps the
// landing squares of the men's first jumps per direction in that order
// (l0 … l3; for men capturing forward only l0 and l1, in their two
// forward directions).
//
// Single jumps: when only men can capture and none of the captures can go
// on past its first jump, those landing squares are exactly the legal
// captures, counted or listed without a search. Each takes one piece, so
// the maximum rules keep all of them (the Spanish rule those taking a king,
// if any). The test for a second jump uses the board as it stands, with the
// mover still on its origin and the piece it took still in place; for a man
// it is exact: its next jump can only need those two squares by jumping back
// over the piece just taken onto its origin, which is never legal.

// crownRule says what a man does when a capture takes it onto its far rank
// with more pieces to take.
type crownRule uint8

const (
	crownStop     crownRule = iota // the move ends and the man is crowned (men capturing only forward end there anyway)
	crownContinue                  // crowned at once, it goes on capturing as a king (Russian)
	crownPass                      // it goes on capturing as a man; crowned only if the move ends there (International, Brazilian)
)

// prioRule says which complete captures are legal.
type prioRule uint8

const (
	prioFree    prioRule = iota // any complete capture (English, Russian)
	prioMax                     // the most pieces, kings counting as one (International, Brazilian)
	prioSpanish                 // the most pieces, then the most kings
)

// diagRules is the rule data of a diagonal variant.
type diagRules struct {
	flying       bool // kings slide and capture at a distance
	manBack      bool // men capture backward too
	manTakesKing bool // men may capture kings
	crownMid     crownRule
	prio         prioRule
}

// rot8 are the four diagonal steps of the 8x8 layout as rotations (0
// up-right, 1 up-left, 2 down-left, 3 down-right). A rotation is a shift
// whose bits leaving one end come in at the other, where they miss the
// board: a square's bit is at most 35, so a step down never wraps, and a
// step up from the top row wraps to bit 59 or above. So one instruction
// makes a step in any direction d, with no switch on d.
var rot8 = [4]int{-4, -5, 4, 5}
