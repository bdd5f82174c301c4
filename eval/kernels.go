package eval

import (
	"fmt"
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The kernels the variants' evaluations share: the census of a position,
// tables of men as bit planes, the phase blend, and the 8x8 layout of
// Italian and Damone.

// census is a position split by colour into men and kings, with their
// counts: what every evaluation starts from.
type census struct {
	w, b, k            uint64 // each colour's pieces, and the kings of both
	wm, bm, wk, bk     uint64 // men and kings of each colour
	nwm, nbm, nwk, nbk int
}

// takeCensus splits p into its men and kings and counts them.
func takeCensus(p *movegen.Position) (c census) {
	c.w, c.b, c.k = p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	c.wm, c.bm, c.wk, c.bk = c.w&^c.k, c.b&^c.k, c.w&c.k, c.b&c.k
	c.nwm, c.nbm = bits.OnesCount64(c.wm), bits.OnesCount64(c.bm)
	c.nwk, c.nbk = bits.OnesCount64(c.wk), bits.OnesCount64(c.bk)
	return c
}

// pieces returns the number of pieces on the board, at most top (the last
// entry of the caller's per-phase tables).
func (c *census) pieces(top int) int { return min(c.nwm+c.nbm+c.nwk+c.nbk, top) }

// tradeFactor is the trade-down factor ×1024 with n pieces on the board
// for weight trade: material × trade / (pieces + 2), rounded.
func tradeFactor(trade, n int) int { return (2*1024*trade + n + 2) / (2 * (n + 2)) }

// traded returns White's material, Man per man and king per king, with
// the trade-down bonus tradeK/1024 of it (the side ahead gains by trading).
func (c *census) traded(king, tradeK int) int {
	mat := (c.nwm-c.nbm)*Man + (c.nwk-c.nbk)*king
	return mat + mat*tradeK/1024 // signed /1024 truncates: symmetric
}

// manPlanes is the number of bit planes of a man table: its weights,
// shifted by the table's bias to be non-negative, must be below 1<<6.
const manPlanes = 6

// manTable is one phase's table of men for both colours, as bit planes:
// w for White's men, b (the same weights on rotated bits) for Black's. A
// man on bit s is worth Σ_j 2^j·[s ∈ plane j] - bias.
type manTable struct {
	w, b [manPlanes]uint64
	bias int
}

// sum returns the total weight of the men m in planes t.
func sum(t *[manPlanes]uint64, m uint64) int {
	return bits.OnesCount64(m&t[0]) +
		bits.OnesCount64(m&t[1])<<1 +
		bits.OnesCount64(m&t[2])<<2 +
		bits.OnesCount64(m&t[3])<<3 +
		bits.OnesCount64(m&t[4])<<4 +
		bits.OnesCount64(m&t[5])<<5
}

// newManTable builds the man table of weights w by bit on the squares of
// board: White's planes, Black's on the bits turned by rot, and the bias
// that makes every weight fit the planes. what names the table when a
// weight does not fit.
func newManTable(w []int, board uint64, rot func(int) int, what string) manTable {
	var t manTable
	for _, x := range w {
		t.bias = max(t.bias, -x)
	}
	for b, x := range w {
		if board>>b&1 == 0 {
			continue
		}
		u := x + t.bias
		if u >= 1<<manPlanes {
			panic(fmt.Sprintf("eval: %s man weight %d on bit %d does not fit %d planes", what, x, b, manPlanes))
		}
		for j := 0; j < manPlanes; j++ {
			if u>>j&1 != 0 {
				t.w[j] |= 1 << b
				t.b[j] |= 1 << rot(b)
			}
		}
	}
	return t
}

// planes returns the bit planes of non-negative weights w by bit.
func planes(w []int, what string) (t [manPlanes]uint64) {
	for b, x := range w {
		if x < 0 || x >= 1<<manPlanes {
			panic(fmt.Sprintf("eval: %s weight %d on bit %d does not fit %d planes", what, x, b, manPlanes))
		}
		for j := 0; j < manPlanes; j++ {
			if x>>j&1 != 0 {
				t[j] |= 1 << b
			}
		}
	}
	return t
}

// blendPhase mixes a middlegame and an endgame weight for n pieces on the
// board: pure endgame at or below lo pieces, pure middlegame at or above
// hi, linear in between, rounded to the nearest integer (halves up).
func blendPhase(mg, eg, n, lo, hi int) int {
	w := hi - lo
	k := min(max(n-lo, 0), w)
	x := mg*k + eg*(w-k)
	return floorDiv(2*x+w, 2*w)
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Geometry of the 8x8 layout (movegen/board.go): ghost bits 4, 13, 22, 31.

// sqValid reports whether bit b is a playable square.
func sqValid(b int) bool { return b >= 0 && b < 36 && b%9 != 4 }

// sqRow returns the row of bit b, 0 = rank 8 (top) .. 7 = rank 1.
func sqRow(b int) int {
	r := 2 * (b / 9)
	if b%9 > 4 {
		r++
	}
	return r
}

// sqFile returns the file of bit b, 0 = a .. 7 = h.
func sqFile(b int) int {
	if b%9 > 4 {
		return 2*(b%9-5) + 1
	}
	return 2 * (b % 9)
}

// rot is the 180° turn of a bit: b ↔ 35-b.
func rot(b int) int { return 35 - b }

// rot36 turns an 8x8-layout bitboard by 180° (bit b ↔ 35-b).
func rot36(x uint64) uint64 { return bits.Reverse64(x) >> 28 }

// rotPlanes returns the planes t turned by 180°: Black's table of White's.
func rotPlanes(t [manPlanes]uint64) [manPlanes]uint64 {
	for j := range t {
		t[j] = rot36(t[j] & movegen.Board8)
	}
	return t
}
