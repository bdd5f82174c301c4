package search

import "github.com/damaengine/damaengine/movegen"

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

// evaluate returns the static evaluation of p for the side to move,
// from the worker's cache when it holds p.
func (w *worker) evaluate(p *movegen.Position) int {
	const keyMask = ^uint64(0xFFFF)
	slot := &w.evc.e[p.Key&(1<<evalCacheBits-1)]
	if v := *slot; v&keyMask == p.Key&keyMask && v != 0 {
		return int(int16(uint16(v)))
	}
	var s int
	if e := w.e; e.evalDirect {
		s = e.evr.Evaluate(p)
	} else {
		s = e.eval(e.v, p)
	}
	s = max(min(s, 32767), -32767)
	*slot = p.Key&keyMask | uint64(uint16(int16(s)))
	return s
}
