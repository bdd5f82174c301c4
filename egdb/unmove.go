package egdb

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// Kinds of piece the solver's move tables tell apart: a man, a king (in
// Damone a Dama) and a Damone, with the index group of each for White.
const numKinds = 3

var kindGroup = [numKinds]int{0, 1, 4}

// origin is a square a piece may have come from by a quiet move, with the
// squares that must be empty for it: the origin itself and those passed
// over.
type origin struct {
	need uint64
	sq   uint8
}

// moveTables are a variant's quiet moves of one White piece, read off the
// move generator on boards with that piece alone (and one own piece more,
// to see which squares block a slide): every quiet move is a step of a man
// or a slide of a king over empty squares, so a move from f to t exists on
// a board with no capture pending exactly when the squares of the move's
// need are empty.
type moveTables struct {
	// from[k][t]: the moves without promotion of a White piece of kind
	// k that end on t, from squares where such a piece may stand.
	from [numKinds][64][]origin
	// promo[k]: the squares from which a White piece of kind k has a
	// quiet move that promotes it.
	promo [numKinds]uint64
}

// kindOf returns the pieces of each kind of colour c in p.
func kindsOf(p *movegen.Position, c movegen.Color) [numKinds]uint64 {
	own := p.Pieces[c]
	return [numKinds]uint64{own &^ p.Kings, own & p.Kings &^ p.Super, own & p.Super}
}

func newMoveTables(v *movegen.Variant, ix *indexer) *moveTables {
	mt := &moveTables{}
	board := v.Board()
	kinds := 2
	if threeRanks(v) {
		kinds = 3
	}
	var ml movegen.MoveList
	for k := 0; k < kinds; k++ {
		for fb := board & ix.sets[kindGroup[k]].mask; fb != 0; fb &= fb - 1 {
			f := bits.TrailingZeros64(fb)
			lone := movegen.Position{Side: movegen.White}
			lone.Pieces[movegen.White] = 1 << f
			if k > 0 {
				lone.Kings = 1 << f
			}
			if k > 1 {
				lone.Super = 1 << f
			}
			v.Generate(&lone, &ml)
			var reach uint64
			for _, m := range ml.Slice() {
				if m.Captured != 0 || int(m.From) != f {
					panic("egdb: a lone piece's move is a capture or from elsewhere")
				}
				if m.Promote {
					mt.promo[k] |= 1 << f
					continue
				}
				reach |= 1 << m.To
			}
			// A White man more on u blocks every move it leaves out.
			var between [64]uint64
			for ub := board &^ (1 << f); ub != 0; ub &= ub - 1 {
				u := bits.TrailingZeros64(ub)
				q := lone
				q.Pieces[movegen.White] |= 1 << u
				v.Generate(&q, &ml)
				left := reach
				for _, m := range ml.Slice() {
					if int(m.From) == f && !m.Promote {
						left &^= 1 << m.To
					}
				}
				for t := left &^ (1 << u); t != 0; t &= t - 1 {
					between[bits.TrailingZeros64(t)] |= 1 << u
				}
			}
			for t := reach; t != 0; t &= t - 1 {
				to := bits.TrailingZeros64(t)
				mt.from[k][to] = append(mt.from[k][to], origin{need: between[to] | 1<<f, sq: uint8(f)})
			}
		}
	}
	return mt
}

// moves returns vt's move tables, made on first use.
func (vt *varTables) moves() *moveTables {
	if vt.mt == nil {
		vt.mt = newMoveTables(vt.v, vt.ix)
	}
	return vt.mt
}

// unmoves appends to out the positions (White to move) from which a move of
// White that neither captures nor promotes leads to c (Black to move): a
// White man stepped back, a White king moved back along its path, each
// from a square where it may stand (see moveTables). A position found may
// have a capture pending, and then it has no such move; the caller skips
// those (they are decided). The solver does the same in unmoveIndexes,
// giving index numbers instead of positions.
func (vt *varTables) unmoves(c *movegen.Position, out []movegen.Position) []movegen.Position {
	mt := vt.moves()
	occ := c.Pieces[movegen.White] | c.Pieces[movegen.Black]
	ks := kindsOf(c, movegen.White)
	for k, pieces := range ks {
		for pb := pieces; pb != 0; pb &= pb - 1 {
			s := bits.TrailingZeros64(pb)
			to := uint64(1) << s
			for _, o := range mt.from[k][s] {
				if occ&o.need != 0 {
					continue
				}
				from := uint64(1) << o.sq
				y := *c
				y.Pieces[movegen.White] ^= from | to
				if k > 0 {
					y.Kings ^= from | to
				}
				if k > 1 {
					y.Super ^= from | to
				}
				y.Side = movegen.White
				out = append(out, y)
			}
		}
	}
	return out
}

// sliceIndex is the index arithmetic of one slice: the multiplier of
// each group's rank in the slice's numbers.
type sliceIndex struct {
	mult [6]int
}

func (ix *indexer) sliceIndex(s Slice) sliceIndex {
	var si sliceIndex
	c := s.counts()
	m := 1
	for g := ix.ng - 1; g >= 0; g-- {
		si.mult[g] = m
		m *= binom[ix.sets[g].n][c[g]]
	}
	return si
}

// groups returns the six index groups of p (White to move or not: the
// colours as they are).
func groups(p *movegen.Position) [6]uint64 {
	return [6]uint64{p.Men(movegen.White), p.KingsOf(movegen.White) &^ p.Super, p.Men(movegen.Black), p.KingsOf(movegen.Black) &^ p.Super,
		p.Pieces[movegen.White] & p.Super, p.Pieces[movegen.Black] & p.Super}
}

// unmoveIndexes appends to out the numbers, in the slice of si plus base,
// of the positions unmoves finds for c, each or'ed with tag.
func (vt *varTables) unmoveIndexes(c *movegen.Position, si *sliceIndex, base int, tag uint32, out []uint32) []uint32 {
	ix, mt := vt.ix, vt.mt
	occ := c.Pieces[movegen.White] | c.Pieces[movegen.Black]
	gs := groups(c)
	var ranks [6]int
	idx := base
	for g := 0; g < ix.ng; g++ {
		ranks[g] = ix.sets[g].rank(gs[g])
		idx += ranks[g] * si.mult[g]
	}
	for k := 0; k < numKinds; k++ {
		g := kindGroup[k]
		pieces := gs[g]
		if pieces == 0 {
			continue
		}
		set, mult := ix.sets[g], si.mult[g]
		rest := idx - ranks[g]*mult
		for pb := pieces; pb != 0; pb &= pb - 1 {
			s := bits.TrailingZeros64(pb)
			others := pieces &^ (1 << s)
			// The rank of others with f added is part[j] plus f's term,
			// j the number of others below f: those below keep their
			// terms, those above move up one place.
			var at [8]int // the others' numbers in the set
			m := 0
			for e := others; e != 0; e &= e - 1 {
				at[m] = int(set.idxOf[bits.TrailingZeros64(e)])
				m++
			}
			var part [8]int
			for j := 0; j <= m; j++ {
				for i := 0; i < m; i++ {
					if i < j {
						part[j] += binom[at[i]][i+1]
					} else {
						part[j] += binom[at[i]][i+2]
					}
				}
			}
			for _, o := range mt.from[k][s] {
				if occ&o.need != 0 {
					continue
				}
				j := bits.OnesCount64(others & (1<<o.sq - 1))
				r := part[j&7] + binom[set.idxOf[o.sq]][(j+1)&7]
				out = append(out, uint32(rest+r*mult)|tag)
			}
		}
	}
	return out
}
