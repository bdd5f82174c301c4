package search

import (
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tt"
)

func (w *worker) isExcluded(m movegen.Move) bool {
	for _, x := range w.excluded {
		if x == m {
			return true
		}
	}
	return false
}

func (w *worker) isKiller(ply int, m movegen.Move) bool {
	return w.killers[ply][0] == m || w.killers[ply][1] == m
}

// Move-ordering scores.
const (
	scoreTT      = 1 << 30
	scoreCapture = 1 << 26
	scoreKiller  = 1 << 24
)

// order scores the moves at ply: table move, captures (more pieces
// first), killers, then history.
func (w *worker) order(ply int, hit bool, ent tt.Entry) {
	ml := &w.lists[ply]
	sc := &w.scores[ply]
	side := w.pos[ply].Side
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	for i := 0; i < ml.N; i++ {
		m := ml.Moves[i]
		var s int32
		switch {
		case hit && matches(m, ent):
			s = scoreTT
		case m.Captured != 0:
			s = scoreCapture + int32(popcount(m.Captured))<<8
		case m == k0:
			s = scoreKiller + 1
		case m == k1:
			s = scoreKiller
		default:
			s = w.hist[side][m.From][m.To]
		}
		if m.Promote {
			s += 1 << 12
		}
		sc[i] = s
	}
}

// pick moves the best-scored move among i.. to position i and returns it.
func (w *worker) pick(ply, i int) movegen.Move {
	ml := &w.lists[ply]
	sc := &w.scores[ply]
	b := i
	for j := i + 1; j < ml.N; j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	ml.Moves[i], ml.Moves[b] = ml.Moves[b], ml.Moves[i]
	sc[i], sc[b] = sc[b], sc[i]
	return ml.Moves[i]
}

// cutoff rewards the quiet move m that failed high at ply (the idx-th
// tried) and punishes the quiet moves tried before it.
func (w *worker) cutoff(ply, depth int, m movegen.Move, idx int) {
	if m.Captured != 0 {
		return
	}
	if w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	side := w.pos[ply].Side
	bonus := int32(depth * depth)
	h := &w.hist[side]
	h[m.From][m.To] = min(h[m.From][m.To]+bonus, 1<<20)
	ml := &w.lists[ply]
	for j := 0; j < idx; j++ {
		if q := ml.Moves[j]; q.Captured == 0 {
			h[q.From][q.To] = max(h[q.From][q.To]-bonus, -(1 << 20))
		}
	}
}
