package movegen

// The 10x10 board (International draughts) uses the same idea as the 8x8
// layout: 50 dark squares in 54 bits, with a ghost bit after every second
// row, so the four diagonal steps are the shifts -5, -6, +5 and +6:
//
//	       a    b    c    d    e    f    g    h    i    j
//	 10 |    |  0 |    |  1 |    |  2 |    |  3 |    |  4 |   ghost bit 10
//	  9 |  5 |    |  6 |    |  7 |    |  8 |    |  9 |    |
//	  8 |    | 11 |    | 12 |    | 13 |    | 14 |    | 15 |   ghost bit 21
//	  7 | 16 |    | 17 |    | 18 |    | 19 |    | 20 |    |
//	  6 |    | 22 |    | 23 |    | 24 |    | 25 |    | 26 |   ghost bit 32
//	  5 | 27 |    | 28 |    | 29 |    | 30 |    | 31 |    |
//	  4 |    | 33 |    | 34 |    | 35 |    | 36 |    | 37 |   ghost bit 43
//	  3 | 38 |    | 39 |    | 40 |    | 41 |    | 42 |    |
//	  2 |    | 44 |    | 45 |    | 46 |    | 47 |    | 48 |
//	  1 | 49 |    | 50 |    | 51 |    | 52 |    | 53 |    |
//
// Square n (1 = b10 … 50 = i1) is bit n-1 + row/2 with row = (n-1)/5.
// Up-right is -5, up-left -6, down-left +5, down-right +6.

// Bits used by the 10x10 layout.
const (
	numBits10 = 54
	// Board10 is the mask of the 50 playable bits.
	Board10 uint64 = (1<<numBits10 - 1) &^ (1<<10 | 1<<21 | 1<<32 | 1<<43)
	// Row10Top is rank 10, where White men are crowned.
	Row10Top uint64 = 0x1F
	// Row10Bottom is rank 1, where Black men are crowned.
	Row10Bottom uint64 = 0x1F << 49
)

// newGeometry10 builds the International board with its official
// numbering (1 = b10, left to right, top to bottom).
func newGeometry10() *geometry {
	g := &geometry{files: 10, ranks: 10, diagonal: true, board: Board10, rot: numBits10 - 1}
	for b := range g.coord {
		g.coord[b] = [2]int8{-1, -1}
	}
	for i := 0; i < 50; i++ {
		r, c := i/5, i%5
		f := 2 * c
		if r%2 == 0 {
			f = 2*c + 1
		}
		g.coord[i+r/2] = [2]int8{int8(f), int8(9 - r)}
	}
	g.finish(true, true)
	return g
}
