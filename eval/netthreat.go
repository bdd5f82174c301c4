package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// Threat inputs (NetWeights.Threats, weights file version 8): besides its
// piece blocks, a network may read NetThreatKinds blocks of one input a
// playable square that say where the captures are:
//
//	kind base+0: White's jumpers, the White pieces that could capture were
//	             it White's move (movegen.Variant.Jumpers)
//	kind base+1: Black's jumpers
//	kind base+2: White's pieces that Black's captures take, the turn passed
//	             to Black if it is not Black's (the union of the Captured
//	             sets of Black's legal captures: the majority rules
//	             applied)
//	kind base+3: Black's pieces that White's captures take
//
// with base the piece kinds (NetKinds, NetKindsDamone for Damone). Read
// from Black's view the colours swap as for the pieces (kind k as k^1,
// base being even), so a position and its colour mirror still score
// exactly opposite. In a quiet position, where the search evaluates, the
// side to move has no capture: these inputs then tell the network the
// threats the side that just moved has made and what they would take,
// which a sum over the pieces alone reads poorly (each is a relation of
// three squares), and which the search sees only a ply further on.
//
// They are not a move's few squares: a move can make or end a threat
// anywhere on the board, so Update finds the new position's threat sets,
// compares them with the old one's (kept in the accumulator's last
// block, NetAcc) and applies the rows of the inputs that changed, with
// the pieces'.

// NetThreatKinds is the number of threat input blocks of a network with
// threat inputs (NetWeights.Threats).
const NetThreatKinds = 4

// threatSets returns p's threat inputs by kind (base+0 to base+3, above):
// White's and Black's jumpers, then the White pieces Black's captures
// take and the Black pieces White's take. The captures are listed only
// where there is a jumper.
func threatSets(v *movegen.Variant, p *movegen.Position) netBlock {
	jw, jb := v.Jumpers(p, movegen.White), v.Jumpers(p, movegen.Black)
	return netBlock{jw, jb, v.Taken(p, movegen.Black, jb), v.Taken(p, movegen.White, jw)}
}

// NetThreatInputs appends to a and b the threat inputs of p's view A and
// view B (kind × squares + square, the kinds after v's piece kinds), for
// the tuner: the inputs a network with threat inputs reads besides
// NetInputs'.
func NetThreatInputs(v *movegen.Variant, p *movegen.Position, a, b []int32) ([]int32, []int32) {
	l := layoutOf(v)
	if l == nil {
		return a, b
	}
	base := l.netKinds()
	for i, set := range threatSets(v, p) {
		k := base + i
		for x := set; x != 0; x &= x - 1 {
			bt := bits.TrailingZeros64(x) & 63
			a = append(a, int32(k*l.nsq+int(l.sqW[bt])))
			b = append(b, int32((k^1)*l.nsq+int(l.sqB[bt])))
		}
	}
	return a, b
}

// refreshThreats adds the rows of p's threat inputs to acc (the pieces'
// sums already there) and keeps its threat sets in acc's netThreatSlot.
func (n *Net) refreshThreats(acc *NetAcc, p *movegen.Position) {
	a := acc[: 2*n.nb : 2*n.nb]
	t := threatSets(n.v, p)
	for i, set := range t {
		n.changeRows(a, n.kinds+i, 0, set)
	}
	acc[netThreatSlot] = t
}

// updateThreats is Update for a network with threat inputs: the rows of
// the pieces that changed and of the threat inputs that did (q's threat
// sets are prev's netThreatSlot, p's are found here and kept in acc's),
// with the AVX2 kernel when the network has it (as updateWide), else word
// by word (as updateBlocks).
func (n *Net) updateThreats(acc, prev *NetAcc, q, p *movegen.Position) {
	tq, tp := prev[netThreatSlot], threatSets(n.v, p)
	acc[netThreatSlot] = tp
	if n.wide != nil && netWideKernels && !n.damone {
		var offs [netMaxChanges]uint32
		row := uint32(2 * n.nb * netBlockBytes)
		qw, qb, qk := q.Pieces[movegen.White], q.Pieces[movegen.Black], q.Kings
		pw, pb, pk := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
		changed := (qw ^ pw) | (qb ^ pb) | (qk ^ pk)
		// Subtractions first (q's pieces and threats p has not), then
		// additions.
		c := rowOffs(&offs, 0, changed&(qw|qb), qb, qk, row)
		for i := range tq {
			c = kindOffs(&offs, c, tq[i]&^tp[i], n.kinds+i, row)
		}
		nsub := c
		c = rowOffs(&offs, c, changed&(pw|pb), pb, pk, row)
		for i := range tp {
			c = kindOffs(&offs, c, tp[i]&^tq[i], n.kinds+i, row)
		}
		if c <= netMaxChanges {
			netUpdateWide(&acc[0], &prev[0], &n.wide[0], &offs[0], nsub, c-nsub, 2*n.nb)
			return
		}
	}
	n.updateBlocks(acc, prev, q, p)
	a := acc[: 2*n.nb : 2*n.nb]
	for i := range tq {
		n.changeRows(a, n.kinds+i, tq[i], tp[i])
	}
}
