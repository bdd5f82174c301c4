package egdb

import (
	"fmt"

	"github.com/damaengine/damaengine/movegen"
)

// solveRef is the solver before the un-move one, kept as the tests'
// reference (the two must agree on every value and distance; it needs
// about 95 bytes an index value). It computes the codes of a slice and
// its mirror (one slice when it is its own mirror), and their distances to conversion. Moves out of the
// group (captures, promotions) are probed in the smaller slices, already
// solved; the moves inside it form a graph solved by propagation from the
// decided positions: a position with a successor lost for the opponent is
// won, one whose successors are all won for the opponent is lost, and what
// is never decided is a draw. The propagation runs breadth first from the
// positions decided at distance 0 (no move) and 1 (by a capture or a
// promotion), so a win is decided through its nearest lost successor and
// a loss through its farthest won one: the distance of a win is one more
// than the least distance of its lost successors, that of a loss one more
// than the greatest of its successors' (a move leaving the group counts
// as distance 0 after it).
func (vt *varTables) solveRef(db *DB, group []Slice) ([][]uint8, [][]uint8, error) {
	ix := vt.ix
	base := make([]int, len(group)+1)
	for i, s := range group {
		base[i+1] = base[i] + ix.size(s)
	}
	n := base[len(group)]
	const (
		undecided uint8 = iota
		decided
		invalid
	)
	state := make([]uint8, n)
	val := make([]WDL, n)
	capture := make([]bool, n)
	hasDraw := make([]bool, n)
	left := make([]int32, n)
	childStart := make([]int32, n+1)
	dist := make([]uint16, n)
	var children []int32
	var queue, queue1 []int32 // decided at distance 0, at distance 1
	var ml movegen.MoveList
	for gi, s := range group {
		other := 0
		if len(group) == 2 {
			other = 1 - gi
		}
		ms := group[other]
		for idx := 0; idx < ix.size(s); idx++ {
			id := base[gi] + idx
			childStart[id] = int32(len(children))
			p, ok := ix.position(s, idx)
			if !ok {
				state[id] = invalid
				continue
			}
			vt.v.Generate(&p, &ml)
			if ml.N == 0 {
				state[id], val[id] = decided, Loss
				queue = append(queue, int32(id)) // distance 0
				continue
			}
			isCap := ml.Moves[0].Captured != 0
			capture[id] = isCap
			best := Loss
			cnt := 0
			for _, m := range ml.Slice() {
				c := p
				c.Play(m)
				if isCap || m.Promote {
					w, ok := vt.probe(db, &c)
					if !ok {
						return nil, nil, fmt.Errorf("egdb: %s: %s leads outside the solved slices", vt.v.Name, s)
					}
					best = max(best, -w)
					continue
				}
				q := ix.flip(&c)
				children = append(children, int32(base[other]+ix.index(ms, &q)))
				cnt++
			}
			switch {
			case best == Win:
				state[id], val[id], dist[id] = decided, Win, 1
				queue1 = append(queue1, int32(id))
			case cnt == 0 && best == Draw:
				state[id], val[id] = decided, Draw
			case cnt == 0:
				state[id], val[id], dist[id] = decided, Loss, 1
				queue1 = append(queue1, int32(id))
			default:
				hasDraw[id] = best == Draw
				left[id] = int32(cnt)
			}
		}
	}
	childStart[n] = int32(len(children))
	// Parents of each position, from the children lists.
	parentStart := make([]int32, n+1)
	for _, c := range children {
		parentStart[c+1]++
	}
	for i := 0; i < n; i++ {
		parentStart[i+1] += parentStart[i]
	}
	parents := make([]int32, len(children))
	fill := append([]int32(nil), parentStart[:n]...)
	for id := 0; id < n; id++ {
		for _, c := range children[childStart[id]:childStart[id+1]] {
			parents[fill[c]] = int32(id)
			fill[c]++
		}
	}
	children = nil
	// First in, first out: the queue holds distances in order.
	queue = append(queue, queue1...)
	queue1 = nil
	for head := 0; head < len(queue); head++ {
		x := queue[head]
		for _, y := range parents[parentStart[x]:parentStart[x+1]] {
			if state[y] != undecided {
				continue
			}
			if val[x] == Loss {
				state[y], val[y], dist[y] = decided, Win, dist[x]+1
				queue = append(queue, y)
				continue
			}
			if left[y]--; left[y] == 0 {
				state[y] = decided
				if hasDraw[y] {
					val[y] = Draw
				} else {
					val[y], dist[y] = Loss, dist[x]+1
					queue = append(queue, y)
				}
			}
		}
	}
	out := make([][]uint8, len(group))
	dists := make([][]uint8, len(group))
	for gi, s := range group {
		codes := make([]uint8, base[gi+1]-base[gi])
		ds := make([]uint8, len(codes))
		for i := range codes {
			id := base[gi] + i
			if state[id] == invalid || capture[id] {
				continue
			}
			codes[i] = codeOf(val[id]) // undecided: Draw
			if state[id] == decided && val[id] != Draw {
				if dist[id] > MaxDistance {
					return nil, nil, fmt.Errorf("egdb: %s %s: a distance to conversion of %d plies, over the %d a distance file holds", vt.v.Name, s, dist[id], MaxDistance)
				}
				ds[i] = uint8(dist[id] + 1)
			}
		}
		out[gi], dists[gi] = codes, ds
	}
	return out, dists, nil
}
