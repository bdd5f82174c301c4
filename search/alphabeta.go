package search

import (
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tt"
)

// tick counts a node. Most calls only count: the rest of the work
// (tickSlow) is due at the node nextTick, the next multiple of 1024 or
// the node cap of a single-threaded search, whichever comes first.
func (w *worker) tick() {
	w.nodes++
	if w.nodes >= w.nextTick {
		w.tickSlow()
	}
}

// tickSlow stops a single-threaded search at its node cap and, every 1024
// nodes, publishes the count and looks at the node cap, the clock and the
// stop flags.
func (w *worker) tickSlow() {
	e := w.e
	w.nextTick = w.nodes&^1023 + 1024
	if w.id == 0 && e.nodeCap > 0 && len(e.workers) == 1 {
		if w.nodes >= e.nodeCap {
			w.aborted = true
			e.abort.Store(true)
			return
		}
		w.nextTick = min(w.nextTick, e.nodeCap)
	}
	if w.nodes&1023 != 0 {
		return
	}
	w.publish()
	if e.abort.Load() || e.ctl.stop.Load() {
		w.aborted = true
		return
	}
	// Any thread stops the search at the node cap (a helper may run on
	// while the main thread waits for a core).
	if e.nodeCap > 0 && e.totalNodes() >= e.nodeCap {
		w.aborted = true
		e.abort.Store(true)
		return
	}
	if w.id != 0 {
		return
	}
	if e.hard > 0 && !e.ctl.pondering.Load() && e.elapsed() >= e.hard {
		w.aborted = true
		e.abort.Store(true)
	}
}

// isDraw reports a draw by the move rule or by repetition at ply, whose
// frame is f.
func (w *worker) isDraw(f *frame, ply int) bool {
	rev := f.rev
	if dp := w.e.v.DrawPlies; dp > 0 && rev >= dp {
		return true
	}
	i := w.base + ply
	k := w.keys[i]
	for j := i - 2; j >= i-f.span && j >= 0; j -= 2 {
		if w.keys[j] == k {
			return true
		}
	}
	return false
}

// ttMove returns the table's move for p if it is legal there.
func (w *worker) ttMove(p *movegen.Position) (movegen.Move, bool) {
	ent, ok := w.e.tt.Probe(p.Key)
	if !ok || !ent.HasMove() {
		return movegen.Move{}, false
	}
	var ml movegen.MoveList
	w.e.v.Generate(p, &ml)
	for _, m := range ml.Slice() {
		if matches(m, ent) {
			return m, true
		}
	}
	return movegen.Move{}, false
}

// matchesData is matches for a packed entry.
func matchesData(m *movegen.Move, d tt.Data) bool {
	if m.From != d.From() || m.To != d.To() {
		return false
	}
	if m.Captured == 0 {
		return d.CapHash() == 0
	}
	return tt.CapHash(m.Captured) == d.CapHash()
}

func matches(m movegen.Move, ent tt.Entry) bool {
	if m.From != ent.From || m.To != ent.To {
		return false
	}
	if m.Captured == 0 {
		return ent.CapHash == 0
	}
	return tt.CapHash(m.Captured) == ent.CapHash
}

func toTT(s, ply int) int16 {
	switch {
	case s > MateBound:
		s += ply
	case s < -MateBound:
		s -= ply
	}
	return int16(s)
}

func fromTT(s int16, ply int) int {
	v := int(s)
	switch {
	case v > MateBound:
		v -= ply
	case v < -MateBound:
		v += ply
	}
	return v
}

// search is the principal-variation alpha-beta search of w.f[ply].pos to
// depth plies.
func (w *worker) search(alpha, beta, depth, ply int, pvNode bool) int {
	f := &w.f[ply]
	f.pvLen = 0
	p := &f.pos
	e := w.e
	if ply > 0 {
		if w.isDraw(f, ply) {
			return 0
		}
		if e.v.HasLossRule() && e.v.Lost(p) {
			return -Mate + ply
		}
		// Mate-distance pruning.
		alpha = max(alpha, -Mate+ply)
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
		if s, ok := w.probeEG(p, ply); ok {
			return s
		}
	}
	if depth <= 0 || ply >= MaxPly-1 {
		return w.qsearch(alpha, beta, ply)
	}
	w.tick()
	if w.aborted {
		return 0
	}
	ttEnt, hit := e.tt.ProbeData(p.Key)
	if hit && depth > 1 && ttEnt.HasMove() && ttEnt.CapHash() == 0 {
		// The table's quiet move is searched first: start loading its
		// child's bucket now, while the node tests, generates and
		// orders (a promotion's key comes out wrong: a wasted hint).
		e.tt.Prefetch(p.KeyAfter(movegen.Move{From: ttEnt.From(), To: ttEnt.To()}))
	}
	if hit && !pvNode && int(ttEnt.Depth()) >= depth {
		s := fromTT(ttEnt.Score(), ply)
		switch b := ttEnt.Bound(); {
		case b == tt.BoundExact,
			b == tt.BoundLower && s >= beta,
			b == tt.BoundUpper && s <= alpha:
			return s
		}
	}
	// Selectivity at non-PV nodes, before the moves are generated.
	if !pvNode && ply > 0 && beta < MateBound && beta > -MateBound {
		if depth <= rfpDepth && !e.v.HasCapture(p) && !w.threatened(p) {
			// Reverse futility: a quiet position with no capture threat whose
			// static value beats beta by a margin per ply is not searched.
			if st := w.evaluate(p, ply); st-rfpMargin*depth >= beta && e.v.HasMove(p, &f.list) {
				return st
			}
		}
		if pcDepth, pcMargin := probCutOf(e.v); depth >= pcDepth {
			// ProbCut: a shallower search that beats beta by the variant's
			// margin predicts a cut at full depth (unless the table already
			// says that search stays below it).
			rb := beta + pcMargin
			if !(hit && int(ttEnt.Depth()) >= depth-probCutReduce && fromTT(ttEnt.Score(), ply) < rb && ttEnt.Bound() != tt.BoundLower) {
				s := w.search(rb-1, rb, depth-probCutReduce, ply, false)
				if w.aborted {
					return 0
				}
				if s >= rb {
					return s
				}
			}
		}
	}
	ml := &f.list
	e.v.Generate(p, ml)
	if ml.N == 0 {
		return -Mate + ply
	}
	if ml.N == 1 && ply < 2*w.rootDepth {
		depth++ // a forced reply costs nothing to look past
	}
	// The table move first; the rest are scored only if it does not cut
	// off, the best of them found by one scan, and the others sorted only
	// if that one does not cut off either (most nodes cut off at their
	// first or second move).
	unsorted := 0
	ahead := -1 // the move whose child's bucket is already on its way
	if hit && w.ttFirst(ply, ttEnt) {
		unsorted = 1
		if m := &ml.Moves[0]; m.Captured == 0 && !m.Promote {
			ahead = 0
		}
	}
	alpha0 := alpha
	best := -inf
	bestIdx := -1 // the best move's index: the moves before i stay in place
	searched := 0
	for i := 0; i < ml.N; i++ {
		switch i - unsorted {
		case 0:
			w.pickAt(ply, i, w.order(ply, i))
		case 1:
			w.sortFrom(ply, i)
		}
		m := ml.Moves[i]
		if ply == 0 && w.isExcluded(m) {
			continue
		}
		// Late-move pruning: at a shallow non-PV node without captures, the
		// late quiet moves are not searched.
		if !pvNode && depth <= 3 && m.Captured == 0 && !m.Promote && searched >= lmpBase+depth*depth &&
			best > -MateBound && !f.isKiller(m) {
			continue
		}
		f.played = m
		cf := &w.f[ply+1]
		c := &cf.pos
		*c = *p
		c.Play(m)
		cf.accOK = false
		if depth > 1 {
			// The child probes the table: start loading its bucket now,
			// and the next move's (once the list is sorted there) while
			// this child's subtree is searched.
			if ahead != i {
				e.tt.Prefetch(c.Key)
			}
			if i-unsorted >= 1 && i+1 < ml.N {
				e.tt.Prefetch(p.KeyAfter(ml.Moves[i+1]))
				ahead = i + 1
			}
		}
		w.keys[w.base+ply+1] = c.Key
		cf.rev = p.NextReversible(m, f.rev)
		cf.span = cf.rev
		if m.Captured == 0 && e.v.MenMoveSideways() {
			cf.span = f.span + 1
		}
		nd := depth - 1
		var s int
		if searched == 0 {
			s = -w.search(-beta, -alpha, nd, ply+1, pvNode)
		} else {
			r := reduction(f, depth, searched, m, pvNode)
			s = -w.search(-alpha-1, -alpha, nd-r, ply+1, false)
			if w.aborted {
				return 0
			}
			if s > alpha && r > 0 {
				s = -w.search(-alpha-1, -alpha, nd, ply+1, false)
				if w.aborted {
					return 0
				}
			}
			if pvNode && s > alpha && s < beta {
				s = -w.search(-beta, -alpha, nd, ply+1, true)
			}
		}
		searched++
		if w.aborted {
			return 0
		}
		if s > best {
			best, bestIdx = s, i
			if s > alpha {
				alpha = s
				if pvNode {
					// A non-PV node's line is never read: it has one
					// only when it fails high, and then the parent's
					// move fails low.
					w.pv[ply][0] = m
					n := copy(w.pv[ply][1:], w.pv[ply+1][:w.f[ply+1].pvLen])
					f.pvLen = n + 1
					if ply == 0 {
						w.rootScore = s
					}
				}
				if s >= beta {
					w.cutoff(ply, depth, m, i)
					break
				}
			}
		}
	}
	if searched == 0 { // every root move excluded
		return -inf
	}
	bound := tt.BoundUpper
	switch {
	case best >= beta:
		bound = tt.BoundLower
	case best > alpha0:
		bound = tt.BoundExact
	}
	var bestMove movegen.Move
	if bestIdx >= 0 {
		bestMove = ml.Moves[bestIdx]
	}
	ent := tt.Entry{From: bestMove.From, To: bestMove.To, Score: toTT(best, ply), Depth: int8(min(depth, 127)), Bound: bound}
	if bestMove.Captured != 0 {
		ent.CapHash = tt.CapHash(bestMove.Captured)
	}
	e.tt.StoreData(p.Key, tt.DataOf(ent))
	return best
}

// qsearch resolves pending captures: a side that must capture searches its
// captures; otherwise the position is evaluated as it stands.
func (w *worker) qsearch(alpha, beta, ply int) int {
	w.tick()
	if w.aborted {
		return 0
	}
	e := w.e
	f := &w.f[ply]
	p := &f.pos
	ml := &f.list
	if e.v.HasLossRule() && e.v.Lost(p) {
		return -Mate + ply
	}
	if ply >= MaxPly-1 || !e.v.HasCapture(p) {
		w.leafSum += uint64(ply)
		w.leafCount++
		if !e.v.HasMove(p, ml) {
			return -Mate + ply
		}
		if s, ok := w.probeEG(p, ply); ok && ply > 0 {
			return s
		}
		return w.evaluate(p, ply)
	}
	e.v.Generate(p, ml)
	best := -inf
	cf := &w.f[ply+1]
	for i := 0; i < ml.N; i++ {
		c := &cf.pos
		*c = *p
		c.Play(ml.Moves[i])
		cf.accOK = false
		s := -w.qsearch(-beta, -alpha, ply+1)
		if w.aborted {
			return 0
		}
		if s > best {
			best = s
			if s > alpha {
				alpha = s
				if s >= beta {
					break
				}
			}
		}
	}
	return best
}

// threatened reports whether the opponent of the side to move in p could
// capture if it were its turn.
func (w *worker) threatened(p *movegen.Position) bool {
	q := *p
	q.Side ^= 1
	return w.e.v.HasCapture(&q)
}

// reduction is the late-move reduction of the searched-th move m at a node
// (frame f) of depth plies: one ply from the fourth move on, two from the ninth at
// deeper non-PV nodes; none for captures, promotions and killers. (A
// logarithmic table that reduces more measured no better: docs/testing.md.)
func reduction(f *frame, depth, searched int, m movegen.Move, pvNode bool) int {
	if depth < 3 || searched < 3 || m.Captured != 0 || m.Promote || f.isKiller(m) {
		return 0
	}
	if searched >= 8 && depth >= 6 && !pvNode {
		return 2
	}
	return 1
}
