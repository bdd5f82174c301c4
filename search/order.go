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

// isKiller reports whether m is one of the frame's killers.
func (f *frame) isKiller(m movegen.Move) bool {
	return f.killers[0] == m || f.killers[1] == m
}

// Move-ordering scores.
const (
	scoreCapture = 1 << 26
	scoreKiller  = 1 << 24
)

// ttFirst moves the table's move, if it is among the moves at ply, to the
// front of the list and reports whether it did. The table move is searched
// before the others are scored: at most cut nodes it is the only one.
func (w *worker) ttFirst(ply int, ent tt.Data) bool {
	if !ent.HasMove() {
		return false
	}
	ml := &w.f[ply].list
	for i := 0; i < ml.N; i++ {
		if matchesData(&ml.Moves[i], ent) {
			ml.Moves[0], ml.Moves[i] = ml.Moves[i], ml.Moves[0]
			return true
		}
	}
	return false
}

// order scores the moves at ply from index from on (captures, more pieces
// first; killers; then history) and returns the index of the highest key
// (from when there is no move there), for pickAt. A move's key is its score above
// 255 less its index, so that keys are unique and the order pick takes
// the moves in is the stable sort of the scores, best first, however the
// moves not yet taken are shuffled.
func (w *worker) order(ply, from int) int {
	f := &w.f[ply]
	ml := &f.list
	sc := &f.scores
	n := min(ml.N, movegen.MaxMoves)
	if from >= n {
		return from
	}
	// A key's low byte is 255 less its index, so the highest key names
	// its move: only the key is carried through the loops.
	moves := ml.Moves[from:n]
	keys := sc[from:n]
	keys = keys[:len(moves)]
	top := int64(255 - from)
	bk := int64(-1 << 63)
	if moves[0].Captured != 0 {
		// Capture is compulsory, so either every move captures or none.
		for j := range moves {
			m := &moves[j]
			s := scoreCapture + int32(popcount(m.Captured))<<8
			if m.Promote {
				s += 1 << 12
			}
			k := int64(s)<<8 | (top - int64(j))
			keys[j] = k
			bk = max(bk, k)
		}
		return 255 - int(bk&255)
	}
	side := f.pos.Side
	k0, k1 := &f.killers[0], &f.killers[1]
	h := &w.hist[side]
	var cm movegen.Move
	if ply > 0 {
		prev := &w.f[ply-1].played
		cm = w.counter[side][prev.From&63][prev.To&63]
	}
	// A quiet move is known by its from and to squares but for Promote:
	// the killers and the counter move are compared in full only when
	// those match.
	q0, q1, qc := quietKey(k0), quietKey(k1), quietKey(&cm)
	for j := range moves {
		m := &moves[j]
		f, t := m.From, m.To
		s := h[f&63][t&63]
		if q := uint32(f) | uint32(t)<<8; q == q0 || q == q1 || q == qc {
			switch {
			case *m == *k0:
				s = scoreKiller + 1
			case *m == *k1:
				s = scoreKiller
			case *m == cm:
				s = scoreKiller - 1
			}
		}
		if m.Promote {
			s += 1 << 12
		}
		k := int64(s)<<8 | (top - int64(j))
		keys[j] = k
		bk = max(bk, k)
	}
	return 255 - int(bk&255)
}

// quietKey is m's from and to squares in 16 bits, 0 for a move that is
// not a quiet one (an empty killer slot, a capture).
func quietKey(m *movegen.Move) uint32 {
	if m.Captured != 0 {
		return 0
	}
	return uint32(m.From) | uint32(m.To)<<8
}

// pickAt moves the move at index b (of the highest key from i on, as
// order found it) to index i.
func (w *worker) pickAt(ply, i, b int) {
	if b != i {
		f := &w.f[ply]
		f.scores[b], f.scores[i] = f.scores[i], f.scores[b]
		f.list.Moves[b], f.list.Moves[i] = f.list.Moves[i], f.list.Moves[b]
	}
}

// sortFrom sorts the moves at ply from index from on by their keys, best
// first (insertion sort: the lists are short).
func (w *worker) sortFrom(ply, from int) {
	f := &w.f[ply]
	n := min(f.list.N, movegen.MaxMoves)
	if n-from < 2 {
		return
	}
	sortMoves(f.scores[from:n], f.list.Moves[from:n])
}

// sortMoves sorts keys, best first, and moves with them.
func sortMoves(keys []int64, moves []movegen.Move) {
	moves = moves[:len(keys)]
	for i := 1; i < len(keys); i++ {
		k, m := keys[i], moves[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			keys[j], moves[j] = keys[j-1], moves[j-1]
		}
		keys[j], moves[j] = k, m
	}
}

// cutoff rewards the quiet move m that failed high at ply (the idx-th
// tried) and punishes the quiet moves tried before it.
func (w *worker) cutoff(ply, depth int, m movegen.Move, idx int) {
	if m.Captured != 0 {
		return
	}
	f := &w.f[ply]
	if f.killers[0] != m {
		f.killers[1] = f.killers[0]
		f.killers[0] = m
	}
	side := f.pos.Side
	if ply > 0 {
		prev := w.f[ply-1].played
		w.counter[side][prev.From][prev.To] = m
	}
	bonus := int32(depth * depth)
	h := &w.hist[side]
	h[m.From][m.To] = min(h[m.From][m.To]+bonus, 1<<20)
	ml := &f.list
	for j := 0; j < idx; j++ {
		if q := ml.Moves[j]; q.Captured == 0 {
			h[q.From][q.To] = max(h[q.From][q.To]-bonus, -(1 << 20))
		}
	}
}
