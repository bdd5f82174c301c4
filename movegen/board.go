package movegen

import "math/bits"

// The 8x8 diagonal board family (Italian, Damone, English, Russian,
// Brazilian, Spanish) shares one internal layout: the 32 dark squares of an
// Italian-oriented board (h1 dark) in 36 bits, with one unused "ghost" bit
// after every second row so that the four diagonal steps are the constant
// shifts -4, -5, +4 and +5 everywhere:
//
//	        a    b    c    d    e    f    g    h
//	  8 |  0 |    |  1 |    |  2 |    |  3 |    |    ghost bit  4
//	  7 |    |  5 |    |  6 |    |  7 |    |  8 |
//	  6 |  9 |    | 10 |    | 11 |    | 12 |    |    ghost bit 13
//	  5 |    | 14 |    | 15 |    | 16 |    | 17 |
//	  4 | 18 |    | 19 |    | 20 |    | 21 |    |    ghost bit 22
//	  3 |    | 23 |    | 24 |    | 25 |    | 26 |
//	  2 | 27 |    | 28 |    | 29 |    | 30 |    |    ghost bit 31
//	  1 |    | 32 |    | 33 |    | 34 |    | 35 |
//
// Italian square n (1 = a8 … 32 = h1) is bit n-1 + (row+1)/2 with
// row = (n-1)/4. Up-right is -4, up-left -5, down-left +4, down-right +5.
// Ghost bits are never occupied and never empty, so a shift that leaves the
// board lands on a ghost or outside the 36 bits and is masked away.
//
// Variants whose board has a1 dark (English, Russian, Brazilian) are stored
// mirrored left to right; their square names map onto these bits (variant.go).

// Bits used by the 8x8 layout.
const (
	numBits8 = 36
	// Board8 is the mask of the 32 playable bits.
	Board8 uint64 = (1<<numBits8 - 1) &^ (1<<4 | 1<<13 | 1<<22 | 1<<31)
	// Row8Top is rank 8 (bits 0-3), where White men are crowned.
	Row8Top uint64 = 0xF
	// Row8Bottom is rank 1 (bits 32-35), where Black men are crowned.
	Row8Bottom uint64 = 0xF << 32
)

// fileRank8 gives the file (0 = a) and rank (0 = rank 1) of each bit of the
// Italian-oriented layout, or -1 for ghosts.
var fileRank8 = func() (t [64][2]int8) {
	for s := range t {
		t[s] = [2]int8{-1, -1}
	}
	for i := 0; i < 32; i++ {
		r := i / 4
		c := i % 4
		f := 2*c + 1
		if r%2 == 0 {
			f = 2 * c
		}
		b := i + (r+1)/2
		t[b] = [2]int8{int8(f), int8(7 - r)}
	}
	return t
}()

// popcount and lsb are the bit helpers of the hot path.
func popcount(b uint64) int { return bits.OnesCount64(b) }
func lsb(b uint64) int      { return bits.TrailingZeros64(b) }
