package egdb

import (
	"fmt"
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// Slice names one table: the men and kings of the side to move (Us) and of
// its opponent (Them), and in Italian Damone their Damoni (the kings are
// then the Dame, the middle rank; the other variants have no Damoni).
type Slice struct {
	UsMen, UsKings, ThemMen, ThemKings int
	UsDamoni, ThemDamoni               int
}

// Pieces returns the number of pieces of the slice.
func (s Slice) Pieces() int {
	return s.UsMen + s.UsKings + s.ThemMen + s.ThemKings + s.UsDamoni + s.ThemDamoni
}

// Men returns the number of men of the slice.
func (s Slice) Men() int { return s.UsMen + s.ThemMen }

// Mirror returns the slice with the sides swapped: where a move that
// neither captures nor promotes leads.
func (s Slice) Mirror() Slice {
	return Slice{s.ThemMen, s.ThemKings, s.UsMen, s.UsKings, s.ThemDamoni, s.UsDamoni}
}

// String writes the slice as e.g. "1m2k-1k" (side to move first), a
// Damone as D ("1k1D-1m").
func (s Slice) String() string {
	side := func(m, k, d int) string {
		out := ""
		if m > 0 {
			out += fmt.Sprintf("%dm", m)
		}
		if k > 0 {
			out += fmt.Sprintf("%dk", k)
		}
		if d > 0 {
			out += fmt.Sprintf("%dD", d)
		}
		return out
	}
	return side(s.UsMen, s.UsKings, s.UsDamoni) + "-" + side(s.ThemMen, s.ThemKings, s.ThemDamoni)
}

// counts returns the pieces of each group of the index, in the order the
// index combines them: our men, our kings, their men, their kings, our
// Damoni, their Damoni (the last two always 0 but in Damone, where they
// add nothing to an index: the other variants' numbers are as they were
// before Damone).
func (s Slice) counts() [6]int {
	return [6]int{s.UsMen, s.UsKings, s.ThemMen, s.ThemKings, s.UsDamoni, s.ThemDamoni}
}

// fileCounts returns the counts as a file names and heads them: men, kings
// of the side to move and of the other, and in Damone (threeRanks) each
// side's Damoni after its Dame.
func (s Slice) fileCounts(threeRanks bool) []int {
	if threeRanks {
		return []int{s.UsMen, s.UsKings, s.UsDamoni, s.ThemMen, s.ThemKings, s.ThemDamoni}
	}
	return []int{s.UsMen, s.UsKings, s.ThemMen, s.ThemKings}
}

// threeRanks reports whether v has a third rank of piece (Italian Damone).
func threeRanks(v *movegen.Variant) bool { return v.DamoneRank(movegen.White) != 0 }

// Slices returns every slice of 2 to n pieces (each side with at least one
// piece, each with at most maxSide), in an order where every slice comes
// after the slices its captures and promotions lead to. It has no Damoni:
// see SlicesOf.
func Slices(n, maxSide int) []Slice {
	var out []Slice
	for total := 2; total <= n; total++ {
		for men := 0; men <= total; men++ {
			for um := 0; um <= men; um++ {
				tm := men - um
				kings := total - men
				for uk := 0; uk <= kings; uk++ {
					tk := kings - uk
					if um+uk == 0 || tm+tk == 0 || um+uk > maxSide || tm+tk > maxSide {
						continue
					}
					out = append(out, Slice{UsMen: um, UsKings: uk, ThemMen: tm, ThemKings: tk})
				}
			}
		}
	}
	return out
}

// SlicesOf returns the slices of v of 2 to n pieces in build order: those
// of Slices, and in Italian Damone every split of each side's kings into
// Dame and Damoni, those with more Damoni first (a Dama promotes to a
// Damone).
func SlicesOf(v *movegen.Variant, n int) []Slice {
	base := Slices(n, v.MaxPieces)
	if !threeRanks(v) {
		return base
	}
	var out []Slice
	for _, s := range base {
		for ud := s.UsKings; ud >= 0; ud-- {
			for td := s.ThemKings; td >= 0; td-- {
				out = append(out, Slice{s.UsMen, s.UsKings - ud, s.ThemMen, s.ThemKings - td, ud, td})
			}
		}
	}
	return out
}

var binom = func() (t [65][8]int) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k < 8 && k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// squareSet is a set of board bits with a colex ranking of its subsets.
type squareSet struct {
	mask  uint64
	n     int
	idxOf [64]int8
	sub   [8][]uint64 // sub[k][rank] = the k-subset of that rank, built on use
}

func newSquareSet(mask uint64) *squareSet {
	s := &squareSet{mask: mask}
	for b := mask; b != 0; b &= b - 1 {
		s.idxOf[bits.TrailingZeros64(b)] = int8(s.n)
		s.n++
	}
	return s
}

// rank returns the colex rank of m, a subset of the set.
func (s *squareSet) rank(m uint64) int {
	r, i := 0, 1
	for ; m != 0; m &= m - 1 {
		r += binom[s.idxOf[bits.TrailingZeros64(m)]][i]
		i++
	}
	return r
}

// subsets returns every k-subset in rank order.
func (s *squareSet) subsets(k int) []uint64 {
	if s.sub[k] != nil {
		return s.sub[k]
	}
	list := make([]uint64, binom[s.n][k])
	var sq []int
	for b := s.mask; b != 0; b &= b - 1 {
		sq = append(sq, bits.TrailingZeros64(b))
	}
	var rec func(start, left int, m uint64)
	rec = func(start, left int, m uint64) {
		if left == 0 {
			list[s.rank(m)] = m
			return
		}
		for i := start; i <= len(sq)-left; i++ {
			rec(i+1, left-1, m|1<<sq[i])
		}
	}
	rec(0, k, 0)
	s.sub[k] = list
	return list
}

// indexer maps the positions of a variant's slices to numbers: per group
// of pieces (our men, our kings, their men, their kings, and in Damone our
// Damoni and their Damoni) the colex rank of its squares, combined in mixed
// radix. A piece never stands where it would already have promoted: men
// not on their own crowning row (in Damone the two squares where the enemy
// Dame started: White's Pedine not on 2 or 9, Black's not on 24 or 31), and
// in Damone a Dama not on the square where the enemy Damone started
// (White's not on 1, Black's not on 32), since landing there, by a step or
// in a capture, makes it a Damone at once. A Damone may stand anywhere, and
// so may a Pedina on every other square, White's on 1 too (a8, a step
// forward from 5, where it has no move left). A few of those squares no
// Pedina reaches (White's 32, h1, which none of its three directions
// enters; Black's 1): indexed all the same, harmless positions no game
// reaches, so that a position set up on them (a FEN) still has a number.
// Overlapping groups give numbers with no position.
type indexer struct {
	v    *movegen.Variant
	sets [6]*squareSet
	ng   int // groups in use: 4, or 6 with Damoni
	// flipShift turns a board's bits 180° as bits.Reverse64(b) >>
	// flipShift (the variant's Flip, without the key).
	flipShift int
}

func newIndexer(v *movegen.Variant) *indexer {
	b := v.Board()
	ix := &indexer{v: v, ng: 4}
	ix.sets[0] = newSquareSet(b &^ v.CrownRank(movegen.White))
	ix.sets[1] = newSquareSet(b &^ v.DamoneRank(movegen.White))
	ix.sets[2] = newSquareSet(b &^ v.CrownRank(movegen.Black))
	ix.sets[3] = newSquareSet(b &^ v.DamoneRank(movegen.Black))
	ix.sets[4] = newSquareSet(b)
	ix.sets[5] = ix.sets[4]
	if threeRanks(v) {
		ix.ng = 6
	}
	// Bit i turned is bit rot-i on every board (movegen's geometry).
	one := movegen.Position{Pieces: [2]uint64{1, 0}}
	rot := bits.TrailingZeros64(v.Flip(&one).Pieces[movegen.Black])
	ix.flipShift = 63 - rot
	for t := b; t != 0; t &= t - 1 {
		q := movegen.Position{Pieces: [2]uint64{t & -t, 0}}
		if v.Flip(&q).Pieces[movegen.Black] != bits.Reverse64(t&-t)>>ix.flipShift {
			panic("egdb: " + v.Name + ": a board not turned by reversing its bits")
		}
	}
	return ix
}

// valid reports whether p (White to move) has every piece on a square its
// group may stand on.
func (ix *indexer) valid(p *movegen.Position) bool {
	return p.Men(movegen.White)&^ix.sets[0].mask == 0 && (p.KingsOf(movegen.White)&^p.Super)&^ix.sets[1].mask == 0 &&
		p.Men(movegen.Black)&^ix.sets[2].mask == 0 && (p.KingsOf(movegen.Black)&^p.Super)&^ix.sets[3].mask == 0
}

// size returns the number of index values of slice s.
func (ix *indexer) size(s Slice) int {
	n := 1
	c := s.counts()
	for g := 0; g < ix.ng; g++ {
		n *= binom[ix.sets[g].n][c[g]]
	}
	return n
}

// flip returns p seen from the other side (the board turned 180°, colours
// swapped, the other side to move); the key is left as it is.
func (ix *indexer) flip(p *movegen.Position) movegen.Position {
	sh := ix.flipShift & 63
	r := func(b uint64) uint64 { return bits.Reverse64(b) >> sh }
	return movegen.Position{
		Pieces: [2]uint64{r(p.Pieces[1]), r(p.Pieces[0])},
		Kings:  r(p.Kings),
		Super:  r(p.Super),
		Side:   p.Side ^ 1,
		Key:    p.Key,
	}
}

// sliceOf returns the slice of p, which has White to move.
func sliceOf(p *movegen.Position) Slice {
	g := groups(p)
	return Slice{
		bits.OnesCount64(g[0]), bits.OnesCount64(g[1]), bits.OnesCount64(g[2]),
		bits.OnesCount64(g[3]), bits.OnesCount64(g[4]), bits.OnesCount64(g[5]),
	}
}

// index returns the number of p (White to move) in slice s.
func (ix *indexer) index(s Slice, p *movegen.Position) int {
	gs := groups(p)
	idx := 0
	c := s.counts()
	for g := 0; g < ix.ng; g++ {
		idx = idx*binom[ix.sets[g].n][c[g]] + ix.sets[g].rank(gs[g])
	}
	return idx
}

// position returns the position (White to move) of number idx in slice s,
// or false if the groups overlap.
func (ix *indexer) position(s Slice, idx int) (movegen.Position, bool) {
	var groups [6]uint64
	c := s.counts()
	if uint64(idx) < 1<<32 {
		// 32-bit divisions, cheaper.
		x := uint32(idx)
		for g := ix.ng - 1; g >= 0; g-- {
			n := uint32(binom[ix.sets[g].n][c[g]])
			groups[g] = ix.sets[g].subsets(c[g])[x%n]
			x /= n
		}
	} else {
		for g := ix.ng - 1; g >= 0; g-- {
			n := binom[ix.sets[g].n][c[g]]
			groups[g] = ix.sets[g].subsets(c[g])[idx%n]
			idx /= n
		}
	}
	return compose(&groups, s.Pieces())
}

// compose returns the position (White to move) of the groups, or false if
// they overlap (fewer than pieces squares).
func compose(groups *[6]uint64, pieces int) (movegen.Position, bool) {
	super := groups[4] | groups[5]
	all := groups[0] | groups[1] | groups[2] | groups[3] | super
	if bits.OnesCount64(all) != pieces {
		return movegen.Position{}, false
	}
	p := movegen.Position{
		Pieces: [2]uint64{groups[0] | groups[1] | groups[4], groups[2] | groups[3] | groups[5]},
		Kings:  groups[1] | groups[3] | super,
		Super:  super,
		Side:   movegen.White,
	}
	return p, true
}

// cursor walks the positions of a slice in index order, a step at a time
// without the divisions of position.
type cursor struct {
	pieces, ng int
	n, r       [6]int      // each group's number of subsets, and its rank now
	sub        [6][]uint64 // each group's subsets by rank
	groups     [6]uint64
}

// cursor returns a cursor at number idx of slice s.
func (ix *indexer) cursor(s Slice, idx int) *cursor {
	cu := &cursor{pieces: s.Pieces(), ng: ix.ng}
	c := s.counts()
	for g := ix.ng - 1; g >= 0; g-- {
		cu.n[g] = binom[ix.sets[g].n][c[g]]
		cu.sub[g] = ix.sets[g].subsets(c[g])
		cu.r[g] = idx % cu.n[g]
		idx /= cu.n[g]
		cu.groups[g] = cu.sub[g][cu.r[g]]
	}
	return cu
}

// position returns the position at the cursor, as indexer.position does.
func (cu *cursor) position() (movegen.Position, bool) {
	return compose(&cu.groups, cu.pieces)
}

// next moves the cursor to the next number.
func (cu *cursor) next() {
	for g := cu.ng - 1; g >= 0; g-- {
		if cu.r[g]++; cu.r[g] < cu.n[g] {
			cu.groups[g] = cu.sub[g][cu.r[g]]
			return
		}
		cu.r[g] = 0
		cu.groups[g] = cu.sub[g][0]
	}
}
