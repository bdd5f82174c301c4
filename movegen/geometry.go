package movegen

import (
	"sort"
	"strconv"
)

// geometry describes one variant's board: which bits are squares, where
// each bit lies in the variant's own orientation, the numbering of the
// squares and their names.
//
// Coordinates are the variant's own: file 0 = a at White's left, rank 0 =
// White's first rank. The internal layouts (board.go, board10.go) put
// White's side at the high bits for every variant; boards whose a1 corner
// is dark are stored mirrored left to right, which changes nothing in the
// rules, only the map between bits and names.
type geometry struct {
	files, ranks int
	diagonal     bool // pieces move diagonally (false: orthogonally)
	board        uint64
	rot          int // bit b turned 180° is bit rot-b
	coord        [64][2]int8
	at           [10][10]int8 // bit at [file][rank], -1 where none
	algebraic    bool         // squares are written "c3" (numbers also read)
	sqBit        []int8       // square number → bit (index 0 unused)
	bitSq        [64]int8     // bit → square number, 0 where none
}

// newGeometry8 builds an 8x8 diagonal geometry. mirrored is true for
// boards with a1 dark. The numbering runs over the dark squares by rank
// (from the top if topDown) and within a rank by file (from a if
// leftToRight).
func newGeometry8(mirrored, topDown, leftToRight, algebraic bool) *geometry {
	g := &geometry{files: 8, ranks: 8, diagonal: true, board: Board8, rot: numBits8 - 1, algebraic: algebraic}
	for b := 0; b < 64; b++ {
		g.coord[b] = [2]int8{-1, -1}
		if b < numBits8 && Board8&(1<<b) != 0 {
			f, r := fileRank8[b][0], fileRank8[b][1]
			if mirrored {
				f = 7 - f
			}
			g.coord[b] = [2]int8{f, r}
		}
	}
	g.finish(topDown, leftToRight)
	return g
}

// finish fills the lookup tables and the numbering from coord.
func (g *geometry) finish(topDown, leftToRight bool) {
	for f := range g.at {
		for r := range g.at[f] {
			g.at[f][r] = -1
		}
	}
	var bitsList []int
	for b := 0; b < 64; b++ {
		if g.coord[b][0] >= 0 {
			g.at[g.coord[b][0]][g.coord[b][1]] = int8(b)
			bitsList = append(bitsList, b)
		}
	}
	sort.Slice(bitsList, func(i, j int) bool {
		ci, cj := g.coord[bitsList[i]], g.coord[bitsList[j]]
		if ci[1] != cj[1] {
			return (ci[1] > cj[1]) == topDown
		}
		return (ci[0] < cj[0]) == leftToRight
	})
	g.sqBit = make([]int8, len(bitsList)+1)
	for i, b := range bitsList {
		g.sqBit[i+1] = int8(b)
		g.bitSq[b] = int8(i + 1)
	}
}

// bitAt returns the bit at file f, rank r, or -1.
func (g *geometry) bitAt(f, r int) int {
	if f < 0 || r < 0 || f >= g.files || r >= g.ranks {
		return -1
	}
	return int(g.at[f][r])
}

// name returns the square name of bit b: algebraic or its number.
func (g *geometry) name(b int) string {
	if g.algebraic {
		c := g.coord[b]
		return string(rune('a'+c[0])) + strconv.Itoa(int(c[1])+1)
	}
	return strconv.Itoa(int(g.bitSq[b]))
}

// parse reads a square name (a number, or algebraic where the variant
// uses it) and returns its bit.
func (g *geometry) parse(tok string) (int, bool) {
	if n, err := strconv.Atoi(tok); err == nil {
		if n < 1 || n >= len(g.sqBit) {
			return 0, false
		}
		return int(g.sqBit[n]), true
	}
	if !g.algebraic || len(tok) < 2 || len(tok) > 3 {
		return 0, false
	}
	f := int(tok[0]|0x20) - 'a'
	r, err := strconv.Atoi(tok[1:])
	if err != nil || tok[1] == '+' || tok[1] == '-' {
		return 0, false
	}
	b := g.bitAt(f, r-1)
	return b, b >= 0
}

// rotate turns a bitboard by 180°.
func (g *geometry) rotate(b uint64) uint64 {
	var r uint64
	for ; b != 0; b &= b - 1 {
		r |= 1 << (g.rot - lsb(b))
	}
	return r
}

// dirs are the unit steps pieces move along: diagonal or orthogonal.
func (g *geometry) dirs() [][2]int {
	if g.diagonal {
		return [][2]int{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}}
	}
	return [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
}
