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
	scoreCapture = 1 << 26
	scoreKiller  = 1 << 24
)

// ttFirst moves the table's move, if it is among the moves at ply, to the
// front of the list and reports whether it did. The table move is searched
// before the others are scored: at most cut nodes it is the only one.
func (w *worker) ttFirst(ply int, ent tt.Entry) bool {
	if !ent.HasMove() {
		return false
	}
	ml := &w.lists[ply]
	for i := 0; i < ml.N; i++ {
		if matches(ml.Moves[i], ent) {
			ml.Moves[0], ml.Moves[i] = ml.Moves[i], ml.Moves[0]
			return true
		}
	}
	return false
}

// order scores the moves at ply from index from on (captures, more pieces
// first; killers; then history) and sorts them best first. Insertion sort:
// the lists are short and often nearly sorted.
func (w *worker) order(ply, from int) {
	ml := &w.lists[ply]
	sc := &w.scores[ply]
	side := w.pos[ply].Side
	k0, k1 := w.killers[ply][0], w.killers[ply][1]
	h := &w.hist[side]
	var cm movegen.Move
	if ply > 0 {
		prev := w.played[ply-1]
		cm = w.counter[side][prev.From][prev.To]
	}
	for i := from; i < ml.N; i++ {
		m := ml.Moves[i]
		var s int32
		switch {
		case m.Captured != 0:
			s = scoreCapture + int32(popcount(m.Captured))<<8
		case m == k0:
			s = scoreKiller + 1
		case m == k1:
			s = scoreKiller
		case m == cm:
			s = scoreKiller - 1
		default:
			s = h[m.From][m.To]
		}
		if m.Promote {
			s += 1 << 12
		}
		j := i
		for j > from && sc[j-1] < s {
			sc[j] = sc[j-1]
			ml.Moves[j] = ml.Moves[j-1]
			j--
		}
		sc[j] = s
		ml.Moves[j] = m
	}
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
	if ply > 0 {
		prev := w.played[ply-1]
		w.counter[side][prev.From][prev.To] = m
	}
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
