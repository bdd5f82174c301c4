package egdb

import (
	"fmt"
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// Slice names one table: the men and kings of the side to move (Us) and of
// its opponent (Them).
type Slice struct {
	UsMen, UsKings, ThemMen, ThemKings int
}

// Pieces returns the number of pieces of the slice.
func (s Slice) Pieces() int { return s.UsMen + s.UsKings + s.ThemMen + s.ThemKings }

// Men returns the number of men of the slice.
func (s Slice) Men() int { return s.UsMen + s.ThemMen }

// Mirror returns the slice with the sides swapped: where a move that
// neither captures nor promotes leads.
func (s Slice) Mirror() Slice { return Slice{s.ThemMen, s.ThemKings, s.UsMen, s.UsKings} }

// String writes the slice as e.g. "1m2k-1k" (side to move first).
func (s Slice) String() string {
	side := func(m, k int) string {
		out := ""
		if m > 0 {
			out += fmt.Sprintf("%dm", m)
		}
		if k > 0 {
			out += fmt.Sprintf("%dk", k)
		}
		return out
	}
	return side(s.UsMen, s.UsKings) + "-" + side(s.ThemMen, s.ThemKings)
}

func (s Slice) counts() [4]int { return [4]int{s.UsMen, s.UsKings, s.ThemMen, s.ThemKings} }

// Slices returns every slice of 2 to n pieces (each side with at least one
// piece, each with at most maxSide), in an order where every slice comes
// after the slices its captures and promotions lead to.
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
					out = append(out, Slice{um, uk, tm, tk})
				}
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
// of pieces (our men, our kings, their men, their kings) the colex rank of
// its squares, combined in mixed radix. Men never stand on their own
// crowning row. Overlapping groups give numbers with no position.
type indexer struct {
	v      *movegen.Variant
	sets   [4]*squareSet
	rot    func(uint64) uint64
	fast8  bool
	maxSub int
}

func newIndexer(v *movegen.Variant) *indexer {
	b := v.Board()
	ix := &indexer{v: v}
	ix.sets[0] = newSquareSet(b &^ v.CrownRank(movegen.White))
	ix.sets[1] = newSquareSet(b)
	ix.sets[2] = newSquareSet(b &^ v.CrownRank(movegen.Black))
	ix.sets[3] = ix.sets[1]
	ix.fast8 = b == movegen.Board8
	return ix
}

// size returns the number of index values of slice s.
func (ix *indexer) size(s Slice) int {
	n := 1
	for g, k := range s.counts() {
		n *= binom[ix.sets[g].n][k]
	}
	return n
}

// flip returns p seen from the other side (the board turned 180°, colours
// swapped, the other side to move); the key is left as it is.
func (ix *indexer) flip(p *movegen.Position) movegen.Position {
	if !ix.fast8 {
		return ix.v.Flip(p)
	}
	r := func(b uint64) uint64 { return bits.Reverse64(b) >> 28 }
	return movegen.Position{
		Pieces: [2]uint64{r(p.Pieces[1]), r(p.Pieces[0])},
		Kings:  r(p.Kings),
		Side:   p.Side ^ 1,
		Key:    p.Key,
	}
}

// sliceOf returns the slice of p, which has White to move.
func sliceOf(p *movegen.Position) Slice {
	return Slice{
		bits.OnesCount64(p.Men(movegen.White)), bits.OnesCount64(p.KingsOf(movegen.White)),
		bits.OnesCount64(p.Men(movegen.Black)), bits.OnesCount64(p.KingsOf(movegen.Black)),
	}
}

// index returns the number of p (White to move) in slice s.
func (ix *indexer) index(s Slice, p *movegen.Position) int {
	groups := [4]uint64{p.Men(movegen.White), p.KingsOf(movegen.White), p.Men(movegen.Black), p.KingsOf(movegen.Black)}
	idx := 0
	for g, k := range s.counts() {
		idx = idx*binom[ix.sets[g].n][k] + ix.sets[g].rank(groups[g])
	}
	return idx
}

// position returns the position (White to move) of number idx in slice s,
// or false if the groups overlap.
func (ix *indexer) position(s Slice, idx int) (movegen.Position, bool) {
	var groups [4]uint64
	c := s.counts()
	for g := 3; g >= 0; g-- {
		n := binom[ix.sets[g].n][c[g]]
		groups[g] = ix.sets[g].subsets(c[g])[idx%n]
		idx /= n
	}
	all := groups[0] | groups[1] | groups[2] | groups[3]
	if bits.OnesCount64(all) != s.Pieces() {
		return movegen.Position{}, false
	}
	p := movegen.Position{
		Pieces: [2]uint64{groups[0] | groups[1], groups[2] | groups[3]},
		Kings:  groups[1] | groups[3],
		Side:   movegen.White,
	}
	return p, true
}
