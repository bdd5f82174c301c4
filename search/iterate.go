package search

import (
	"sort"
	"sync/atomic"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// worker is one search thread with its own stacks and move-ordering
// history.
type worker struct {
	e  *Engine
	id int

	// f holds each ply's state, one frame a ply in one array, so that a
	// node reaches its own and its child's through two pointers.
	f       [MaxPly + 2]frame
	keys    []uint64 // game history, then one key per ply
	base    int      // index in keys of the root
	hist    [2][64][64]int32
	counter [2][64][64]movegen.Move // the reply that refuted a move last
	pv      [MaxPly + 2][MaxPly + 2]movegen.Move

	nodes     uint64
	nextTick  uint64 // the node at which tick does more than count (tickSlow)
	published atomic.Uint64
	leafSum   uint64
	leafCount uint64
	aborted   bool
	rootDepth int
	rootScore int            // the score of the root's principal variation pv[0] when it was last set
	excluded  []movegen.Move // root moves left out (multi-PV)

	evc evalCache

	// The network evaluation's first-layer sums by ply (eval.Net), when
	// the variant's evaluation is a network: f[ply].accOK says acc[ply]
	// belongs to f[ply].pos (cleared whenever that is set), and
	// netAcc brings it up to date from the nearest ancestor's.
	net *eval.Net
	acc [MaxPly + 2]eval.NetAcc
}

// frame is one ply of a worker's search: the position, its moves and
// their ordering keys, and what the ply remembers between visits.
type frame struct {
	pos     movegen.Position
	played  movegen.Move    // the move made at this ply
	killers [2]movegen.Move // quiet moves that cut off here lately
	rev     int             // plies since a capture or man move (move rule)
	span    int             // how far back a repetition of this ply may lie
	pvLen   int             // the length of pv[ply]
	accOK   bool            // acc[ply] belongs to pos (netAcc)
	list    movegen.MoveList
	scores  [movegen.MaxMoves]int64 // order's keys
}

func (w *worker) setup(g Game) {
	w.f[0].pos = g.Pos
	w.keys = append(w.keys[:0], g.History...)
	w.base = len(w.keys)
	w.keys = append(w.keys, make([]uint64, MaxPly+2)...)
	w.keys[w.base] = g.Pos.Key
	w.f[0].rev = g.Reversible
	w.f[0].span = g.Reversible
	if w.e.v.MenMoveSideways() {
		w.f[0].span = max(g.Reversible, g.SinceCapture)
	}
	w.nodes = 0
	w.nextTick = 1
	w.evc.clear()
	w.net = nil
	if w.e.evalDirect {
		w.net = eval.ActiveNet(w.e.v)
	}
	for i := range w.f {
		w.f[i].accOK = false
	}
	w.aborted = false
	decayHistory(&w.hist)
}

// decayHistoryGo is decayHistory in Go, one value at a time: the
// portable version, and the reference the kernel is tested against.
func decayHistoryGo(h *[2][64][64]int32) {
	for s := range h {
		for f := range h[s] {
			row := &h[s][f]
			for t, x := range row {
				row[t] = x / 4
			}
		}
	}
}

// iterate runs iterative deepening; the main worker (onInfo != nil)
// reports, manages time and returns the result.
func (w *worker) iterate(onInfo func(Info)) Result {
	e := w.e
	var res Result
	var root movegen.MoveList
	e.v.Generate(&w.f[0].pos, &root)
	res.Move, res.HasMove = root.Moves[0], true
	maxDepth := MaxPly - 8
	if e.lim.Depth > 0 {
		maxDepth = min(e.lim.Depth, maxDepth)
	}
	prev := 0
	changes := 0 // best-move changes, halved every iteration
	stable := 0  // iterations since the best move last changed
	drop := 0    // how far the score fell in the last iteration
	for depth := 1 + w.id%2; depth <= maxDepth; depth++ {
		w.rootDepth = depth
		w.leafSum, w.leafCount = 0, 0
		lines := 1
		if onInfo != nil && e.lim.Infinite && e.multiPV > 1 {
			lines = min(e.multiPV, root.N)
		}
		w.excluded = w.excluded[:0]
		var infos []Info // this depth's lines, reported together
		for line := 1; line <= lines; line++ {
			var score int
			if line == 1 {
				score = w.aspiration(depth, prev)
			} else {
				score = w.search(-inf, inf, depth, 0, true)
			}
			if w.aborted {
				// A root move that beat the previous best in the unfinished
				// iteration was searched to this depth: play it, and say so
				// in an info line (a GUI shows the last one as the engine's
				// line, which would otherwise not be the move played).
				if line == 1 && lines == 1 && onInfo != nil && w.f[0].pvLen > 0 && w.pv[0][0] != res.Move && res.Depth > 0 {
					pv := append([]movegen.Move(nil), w.pv[0][:w.f[0].pvLen]...)
					res.follow(pv, w.rootScore)
					w.publish()
					in := Info{Depth: depth, Score: w.rootScore, PV: pv, Line: 1}
					w.stamp(&in)
					onInfo(in)
				}
				break
			}
			if w.f[0].pvLen == 0 {
				break
			}
			best := w.pv[0][0]
			w.excluded = append(w.excluded, best)
			if onInfo == nil {
				e.offer(depth, score, w.pv[0][:w.f[0].pvLen])
				prev = score // the next aspiration window is centred on it
				continue
			}
			pv := append([]movegen.Move(nil), w.pv[0][:w.f[0].pvLen]...)
			if line == 1 {
				if res.Depth > 0 && best != res.Move {
					changes++
					stable = 0
				} else {
					stable++
				}
				drop = prev - score
				prev = score
				res.follow(pv, score)
				res.Depth = depth
			}
			infos = append(infos, Info{Depth: depth, Score: score, PV: pv})
		}
		if onInfo != nil && (len(infos) == lines || (len(infos) > 0 && lines == 1)) {
			// The lines of a multi-PV analysis come from separate searches;
			// report them best first.
			sort.SliceStable(infos, func(i, j int) bool { return infos[i].Score > infos[j].Score })
			if top := infos[0]; lines > 1 {
				res.follow(top.PV, top.Score)
			}
			w.publish()
			for i := range infos {
				infos[i].Line = i + 1
				w.stamp(&infos[i])
				onInfo(infos[i])
			}
		}
		if w.aborted || e.abort.Load() {
			break
		}
		if onInfo == nil {
			continue
		}
		// A forced win or loss found within the depth: deeper search cannot
		// change it.
		if !e.lim.Infinite && !e.ctl.pondering.Load() && e.lim.Depth == 0 &&
			(prev > MateBound || prev < -MateBound) && depth >= Mate-abs(prev)+2 {
			break
		}
		// A fixed move time is used in full (the hard limit ends the
		// search); a clock's share is managed here.
		if e.lim.HasClock && e.soft > 0 && !e.ctl.pondering.Load() &&
			clockStop(e.elapsed(), e.soft, changes, stable, drop) {
			break
		}
		changes = changes / 2
	}
	if onInfo != nil && !res.HasPonder && res.HasMove {
		c := w.f[0].pos
		c.Play(res.Move)
		if m, ok := w.ttMove(&c); ok {
			res.Ponder, res.HasPonder = m, true
		}
	}
	w.publish()
	return res
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// aspiration searches the root with a window around the last score,
// widening it on failure.
func (w *worker) aspiration(depth, prev int) int {
	if depth < 4 || prev > MateBound || prev < -MateBound {
		return w.search(-inf, inf, depth, 0, true)
	}
	delta := 30
	alpha, beta := prev-delta, prev+delta
	for {
		s := w.search(alpha, beta, depth, 0, true)
		if w.aborted {
			return s
		}
		switch {
		case s <= alpha:
			alpha = max(s-delta, -inf)
		case s >= beta:
			beta = min(s+delta, inf)
		default:
			return s
		}
		delta *= 2
		if delta > 400 {
			alpha, beta = -inf, inf
		}
	}
}

func (w *worker) publish() { w.published.Store(w.nodes) }

// stamp fills in the search-wide figures of an info line: nodes so far,
// time since the start and the mean depth of this iteration's leaves.
func (w *worker) stamp(in *Info) {
	in.Nodes = w.e.totalNodes()
	in.Time = time.Since(w.e.start)
	if w.leafCount > 0 {
		in.MeanDepth = float64(w.leafSum) / float64(w.leafCount)
	}
}
