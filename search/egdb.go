package search

import (
	"github.com/damaengine/damaengine/movegen"
)

// ProbeFunc looks a position up in endgame tables: wdl is 1 (the side to
// move wins), 0 (draw) or -1 (it loses), and ok is false where the tables
// do not cover the position.
type ProbeFunc func(v *movegen.Variant, p *movegen.Position) (wdl int, ok bool)

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

// probeEG returns the table score of p at ply, if the tables know it.
func (w *worker) probeEG(p *movegen.Position, ply int) (int, bool) {
	e := w.e
	if e.probe == nil || popcount(p.Occupied()) > e.probePieces || e.v.HasCapture(p) {
		return 0, false
	}
	r, ok := e.probe(e.v, p)
	if !ok || r != 0 && popcount(w.pos[0].Occupied()) <= e.probePieces {
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
