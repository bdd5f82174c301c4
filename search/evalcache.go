package search

import (
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// evalCacheBits is the log2 of the entries of a worker's evaluation cache.
const evalCacheBits = 14

// evalCache remembers the static evaluations a worker computed, direct
// mapped by the low bits of the Zobrist key. An entry holds the key's high
// 48 bits and the score (side to move) in the low 16: the learned
// evaluations cost several times a table probe, and the same quiet leaves
// come back across iterations and siblings. It is cleared at the start of
// every search, so a change of evaluation (weights loaded between
// searches) never reads a stale score.
type evalCache struct {
	e [1 << evalCacheBits]uint64
}

// clear empties the cache.
func (c *evalCache) clear() { clear(c.e[:]) }

// evaluate returns the static evaluation of p = w.f[ply].pos for the side
// to move, from the worker's cache when it holds p.
func (w *worker) evaluate(p *movegen.Position, ply int) int {
	const keyMask = ^uint64(0xFFFF)
	slot := &w.evc.e[p.Key&(1<<evalCacheBits-1)]
	if v := *slot; v&keyMask == p.Key&keyMask && v != 0 {
		return int(int16(uint16(v)))
	}
	var s int
	if w.net != nil {
		s = w.net.White(p, w.netAcc(ply))
		if p.Side == movegen.Black {
			s = -s
		}
	} else if e := w.e; e.evalDirect {
		s = e.evr.Evaluate(p)
	} else {
		s = e.eval(e.v, p)
	}
	s = max(min(s, 32767), -32767)
	*slot = p.Key&keyMask | uint64(uint16(int16(s)))
	return s
}

// netChain is how many plies netAcc walks back for an ancestor's sums
// before it computes them from the pieces instead.
const netChain = 8

// netAcc returns the network's first-layer sums of w.f[ply].pos, updated
// in one step from the nearest ancestor whose sums are known (the pieces
// that differ between the two: a piece that moved twice on the way is
// applied once, and the plies between, which are seldom evaluated, are
// skipped, as are their threat sets for a network with threat inputs), or
// computed from the pieces.
func (w *worker) netAcc(ply int) *eval.NetAcc {
	if w.f[ply].accOK {
		return &w.acc[ply]
	}
	k := ply
	for k > 0 && !w.f[k].accOK && ply-k < netChain {
		k--
	}
	if !w.f[k].accOK {
		w.net.Refresh(&w.acc[k], &w.f[k].pos)
		w.f[k].accOK = true
	}
	if k < ply {
		w.net.Update(&w.acc[ply], &w.acc[k], &w.f[k].pos, &w.f[ply].pos)
		w.f[ply].accOK = true
	}
	return &w.acc[ply]
}
