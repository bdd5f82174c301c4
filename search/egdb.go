package search

import (
	"github.com/damaengine/damaengine/movegen"
)

// ProbeFunc looks a position up in endgame tables: wdl is 1 (the side to
// move wins), 0 (draw) or -1 (it loses), and ok is false where the tables
// do not cover the position.
type ProbeFunc func(v *movegen.Variant, p *movegen.Position) (wdl int, ok bool)

// DistFunc looks a position up in endgame tables that also know the
// distance to conversion: wdl as for ProbeFunc, and for a win or a loss
// dist, the plies to the next capture or promotion (or the end of the
// game) with the winner hastening it and the loser delaying it (1 with a
// capture pending, 0 with no move; -1: not known).
type DistFunc func(v *movegen.Variant, p *movegen.Position) (wdl, dist int, ok bool)

// EGWin is the score of a position the endgame tables call won, before
// the static evaluation is added to it (to make progress) and the ply
// subtracted; it sorts below every real win by distance (MateBound).
const EGWin = 5000

// SetProbe makes the search look up quiet positions of at most pieces
// pieces below the root with f (nil: no tables). When the root itself has
// at most pieces pieces, only the draws are taken from the tables.
func (e *Engine) SetProbe(f ProbeFunc, pieces int) {
	e.probe = f
	e.probePieces = pieces
}

// SetDistance gives the search the distances to conversion of the tables
// (nil: none). With them, a root in the tables and won is played from the
// tables without a search (see convert).
func (e *Engine) SetDistance(f DistFunc) { e.dist = f }

// convert chooses the move of a won root from the tables: among the moves
// to a position lost for the opponent, a capture or a promotion, or else
// the one of least distance to conversion. Each such move lowers the
// distance, or the material (captures) or the men (promotions), so the
// win comes in a bounded number of moves and no position repeats on the
// way; the loser's moves cannot raise the distance either. It declines
// (false) when the root is not a known win, when the distance would run
// past the move rule (the tables ignore it), and in analysis.
func (e *Engine) convert(g *Game, root *movegen.MoveList, lim Limits, onInfo func(Info)) (Result, bool) {
	if e.dist == nil || lim.Infinite || popcount(g.Pos.Occupied()) > e.probePieces {
		return Result{}, false
	}
	w, d, ok := e.dist(e.v, &g.Pos)
	if !ok || w != 1 || d < 0 {
		return Result{}, false
	}
	if dp := e.v.DrawPlies; dp > 0 && g.Reversible+d > dp {
		return Result{}, false
	}
	seen := func(key uint64) int {
		n := 0
		for _, k := range g.History {
			if k == key {
				n++
			}
		}
		return n
	}
	best, bestKey := -1, 0
	var child movegen.Position
	for i, m := range root.Slice() {
		c := g.Pos
		c.Play(m)
		cw, cd, ok := e.dist(e.v, &c)
		if !ok || cw != -1 {
			continue
		}
		key := cd
		switch {
		case m.Captured != 0 || m.Promote:
			key = -1 // converts now
		case cd < 0:
			return Result{}, false // tables without distances there
		}
		if seen(c.Key) >= 2 {
			continue // a third occurrence would draw
		}
		if best < 0 || key < bestKey {
			best, bestKey, child = i, key, c
		}
	}
	if best < 0 {
		return Result{}, false
	}
	res := Result{Move: root.Moves[best], HasMove: true, Score: EGWin - d, Depth: 1}
	// The expected reply: the loser's longest resistance.
	var ml movegen.MoveList
	e.v.Generate(&child, &ml)
	far := -2
	for _, m := range ml.Slice() {
		c := child
		c.Play(m)
		if _, cd, ok := e.dist(e.v, &c); ok && cd > far {
			far, res.Ponder, res.HasPonder = cd, m, true
		}
	}
	pv := []movegen.Move{res.Move}
	if res.HasPonder {
		pv = append(pv, res.Ponder)
	}
	onInfo(Info{Depth: 1, MeanDepth: 1, Score: res.Score, PV: pv, Line: 1})
	return res, true
}

// probeEG returns the table score of p at ply, if the tables know it. It
// is small enough to be inlined at every node: without tables it costs a
// test.
func (w *worker) probeEG(p *movegen.Position, ply int) (int, bool) {
	if w.e.probe == nil {
		return 0, false
	}
	return w.probeTables(p, ply)
}

// probeTables is probeEG with tables.
func (w *worker) probeTables(p *movegen.Position, ply int) (int, bool) {
	e := w.e
	if popcount(p.Occupied()) > e.probePieces || e.v.HasCapture(p) {
		return 0, false
	}
	r, ok := e.probe(e.v, p)
	if !ok || r != 0 && popcount(w.f[0].pos.Occupied()) <= e.probePieces {
		// Once the root itself is in the tables, a win or loss is left to
		// the search, which plays towards it: a table win alone does not
		// say how to make progress, and the move rule would end the
		// shuffling in a draw (measured: docs/testing.md).
		return 0, false
	}
	switch {
	case r > 0:
		return EGWin + min(max(e.eval(e.v, p), -1000), 1000) - ply, true
	case r < 0:
		return -EGWin + min(max(e.eval(e.v, p), -1000), 1000) + ply, true
	}
	return 0, true
}
