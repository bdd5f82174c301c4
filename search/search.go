package search

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tt"
)

// Score bounds.
const (
	// Mate is the score of a won position with the win on the board; a win
	// in n plies scores Mate-n.
	Mate = 10000
	// MateBound: scores beyond ±MateBound are wins or losses by distance.
	MateBound = Mate - 2*MaxPly
	// MaxPly bounds the depth of the tree.
	MaxPly = 128
	inf    = 32000
)

// Info reports one completed iteration (or, in multi-PV analysis, one line
// of it).
type Info struct {
	Depth     int
	MeanDepth float64 // average ply at which the tree's leaves were evaluated
	Score     int     // centi-men for the side to move; ±(Mate-n) for a win/loss in n plies
	Nodes     uint64
	Time      time.Duration
	PV        []movegen.Move
	Line      int // 1-based line number in multi-PV analysis, 1 otherwise
}

// Result is the outcome of a search.
type Result struct {
	Move      movegen.Move
	Ponder    movegen.Move
	HasMove   bool // false when the side to move has no legal move
	HasPonder bool
	Score     int
	Depth     int
	Nodes     uint64
}

// Game is what a search starts from: the position, the Zobrist keys of
// the positions played before it (oldest first, for repetitions) and the
// number of plies since the last capture or man move (for the move rule).
type Game struct {
	Pos        movegen.Position
	History    []uint64
	Reversible int
}

// Control starts and stops one search from other goroutines: Stop ends it
// (the search still returns its best move), PonderHit turns a ponder
// search into a normal one with the clock running from that moment.
type Control struct {
	stop      atomic.Bool
	pondering atomic.Bool
	hitAt     atomic.Int64 // unix nanoseconds of the ponder hit, 0 before
	wake      chan struct{}
	once      sync.Once
}

// NewControl returns a Control for a search that ponders or not.
func NewControl(ponder bool) *Control {
	c := &Control{wake: make(chan struct{})}
	c.pondering.Store(ponder)
	return c
}

// Stop ends the search as soon as possible.
func (c *Control) Stop() {
	c.stop.Store(true)
	c.signal()
}

// PonderHit ends pondering: the search goes on under its limits, timed from
// now.
func (c *Control) PonderHit() {
	if c.pondering.Load() {
		c.hitAt.Store(time.Now().UnixNano())
		c.pondering.Store(false)
		c.signal()
	}
}

// Stopped reports whether Stop was called.
func (c *Control) Stopped() bool { return c.stop.Load() }

func (c *Control) signal() { c.once.Do(func() { close(c.wake) }) }

// EvalFunc is a static evaluation: centi-men for the side to move.
type EvalFunc func(v *movegen.Variant, p *movegen.Position) int

// Engine holds what lasts between searches: the variant, the table, the
// evaluation and the workers with their histories. An Engine runs one
// search at a time.
type Engine struct {
	v       *movegen.Variant
	tt      *tt.Table
	eval    EvalFunc
	workers []*worker
	multiPV int

	// per search
	abort   atomic.Bool
	ctl     *Control
	lim     Limits
	start   time.Time
	soft    time.Duration
	hard    time.Duration
	nodeCap uint64
}

// New returns an engine for variant v with a table of 2^ttLog2 entries.
func New(v *movegen.Variant, ttLog2 int) *Engine {
	e := &Engine{v: v, tt: tt.New(ttLog2), eval: eval.Evaluate, multiPV: 1}
	e.SetThreads(1)
	return e
}

// Variant returns the engine's variant.
func (e *Engine) Variant() *movegen.Variant { return e.v }

// SetVariant switches the rule set and clears what was learnt.
func (e *Engine) SetVariant(v *movegen.Variant) {
	e.v = v
	e.NewGame()
}

// SetEval replaces the evaluation (used to compare evaluations in
// self-play).
func (e *Engine) SetEval(f EvalFunc) { e.eval = f }

// SetThreads sets the number of search threads (at least 1).
func (e *Engine) SetThreads(n int) {
	n = max(n, 1)
	for len(e.workers) < n {
		e.workers = append(e.workers, &worker{e: e, id: len(e.workers)})
	}
	e.workers = e.workers[:n]
}

// Threads returns the number of search threads.
func (e *Engine) Threads() int { return len(e.workers) }

// SetTableSize reallocates the transposition table with 2^log2 entries.
func (e *Engine) SetTableSize(log2 int) { e.tt.Resize(log2) }

// SetMultiPV sets how many best lines an analysis reports (at least 1).
func (e *Engine) SetMultiPV(n int) { e.multiPV = max(n, 1) }

// NewGame forgets everything learnt: the table, killers and histories.
func (e *Engine) NewGame() {
	e.tt.Clear()
	for _, w := range e.workers {
		w.hist = [2][64][64]int32{}
		w.killers = [MaxPly + 2][2]movegen.Move{}
	}
}

// elapsed returns the time since the clock started for this search: the
// ponder hit, or the start.
func (e *Engine) elapsed() time.Duration {
	if h := e.ctl.hitAt.Load(); h != 0 {
		return time.Since(time.Unix(0, h))
	}
	return time.Since(e.start)
}

// Search searches g under lim, calling onInfo (from the searching
// goroutine; it must not block for long) after each completed depth, and
// returns the best move. A ponder or infinite search that finishes early
// waits for PonderHit or Stop before it returns.
func (e *Engine) Search(ctl *Control, g Game, lim Limits, onInfo func(Info)) Result {
	e.ctl = ctl
	e.lim = lim
	e.start = time.Now()
	e.abort.Store(false)
	e.soft, e.hard = budget(lim)
	e.nodeCap = lim.Nodes
	if onInfo == nil {
		onInfo = func(Info) {}
	}
	var root movegen.MoveList
	e.v.Generate(&g.Pos, &root)
	if root.N == 0 {
		e.waitIfPondering(lim)
		return Result{}
	}
	e.tt.NewSearch()
	for _, w := range e.workers {
		w.setup(g)
	}
	main := e.workers[0]
	if root.N == 1 && !lim.Infinite && !ctl.pondering.Load() && lim.Depth == 0 && lim.Nodes == 0 {
		// Only one move: play it at once, with a hint for pondering.
		res := Result{Move: root.Moves[0], HasMove: true}
		c := g.Pos
		c.Play(res.Move)
		if m, ok := main.ttMove(&c); ok {
			res.Ponder, res.HasPonder = m, true
		}
		e.waitIfPondering(lim)
		return res
	}
	// Helper threads stop when the main one is done, even when it panics;
	// a helper's panic stops the search and is raised again here, in the
	// caller's goroutine, where the caller can recover it.
	var wg sync.WaitGroup
	var helperPanic atomic.Value
	for _, w := range e.workers[1:] {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					helperPanic.Store(fmt.Sprint("search thread: ", r))
					e.abort.Store(true)
				}
			}()
			w.iterate(nil)
		}(w)
	}
	defer func() {
		e.abort.Store(true)
		wg.Wait()
	}()
	res := main.iterate(onInfo)
	e.abort.Store(true)
	wg.Wait()
	if p := helperPanic.Load(); p != nil {
		panic(p)
	}
	e.waitIfPondering(lim)
	res.Nodes = e.totalNodes()
	return res
}

// waitIfPondering holds a ponder or infinite search that ended by itself
// until the GUI says what happens next.
func (e *Engine) waitIfPondering(lim Limits) {
	if e.ctl.Stopped() {
		return
	}
	if e.ctl.pondering.Load() || lim.Infinite {
		<-e.ctl.wake
	}
}

func (e *Engine) totalNodes() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.published.Load()
	}
	return n
}

// worker is one search thread with its own stacks and move-ordering
// history.
type worker struct {
	e  *Engine
	id int

	pos     [MaxPly + 2]movegen.Position
	lists   [MaxPly + 2]movegen.MoveList
	scores  [MaxPly + 2][movegen.MaxMoves]int32
	rev     [MaxPly + 2]int
	keys    []uint64 // game history, then one key per ply
	base    int      // index in keys of the root
	killers [MaxPly + 2][2]movegen.Move
	hist    [2][64][64]int32
	pv      [MaxPly + 2][MaxPly + 2]movegen.Move
	pvLen   [MaxPly + 2]int

	nodes     uint64
	published atomic.Uint64
	leafSum   uint64
	leafCount uint64
	aborted   bool
	rootDepth int
	excluded  []movegen.Move // root moves left out (multi-PV)
}

func (w *worker) setup(g Game) {
	w.pos[0] = g.Pos
	w.keys = append(w.keys[:0], g.History...)
	w.base = len(w.keys)
	w.keys = append(w.keys, make([]uint64, MaxPly+2)...)
	w.keys[w.base] = g.Pos.Key
	w.rev[0] = g.Reversible
	w.nodes = 0
	w.published.Store(0)
	w.aborted = false
	for s := range w.hist {
		for f := range w.hist[s] {
			for t := range w.hist[s][f] {
				w.hist[s][f][t] /= 4
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
	e.v.Generate(&w.pos[0], &root)
	res.Move, res.HasMove = root.Moves[0], true
	maxDepth := MaxPly - 8
	if e.lim.Depth > 0 {
		maxDepth = min(e.lim.Depth, maxDepth)
	}
	prev := 0
	changes := 0
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
			if w.aborted || w.pvLen[0] == 0 {
				break
			}
			best := w.pv[0][0]
			w.excluded = append(w.excluded, best)
			if onInfo == nil {
				continue
			}
			pv := append([]movegen.Move(nil), w.pv[0][:w.pvLen[0]]...)
			if line == 1 {
				if res.Depth > 0 && best != res.Move {
					changes++
				}
				prev = score
				res.Move, res.Score, res.Depth = best, score, depth
				res.HasPonder = len(pv) > 1
				if res.HasPonder {
					res.Ponder = pv[1]
				}
			}
			infos = append(infos, Info{Depth: depth, Score: score, PV: pv})
		}
		if onInfo != nil && (len(infos) == lines || (len(infos) > 0 && lines == 1)) {
			// The lines of a multi-PV analysis come from separate searches;
			// report them best first.
			sort.SliceStable(infos, func(i, j int) bool { return infos[i].Score > infos[j].Score })
			if top := infos[0]; lines > 1 {
				res.Move, res.Score = top.PV[0], top.Score
				res.HasPonder = len(top.PV) > 1
				if res.HasPonder {
					res.Ponder = top.PV[1]
				}
			}
			w.publish()
			for i := range infos {
				infos[i].Line = i + 1
				infos[i].Nodes = e.totalNodes()
				infos[i].Time = time.Since(e.start)
				if w.leafCount > 0 {
					infos[i].MeanDepth = float64(w.leafSum) / float64(w.leafCount)
				}
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
		if e.soft > 0 && !e.ctl.pondering.Load() {
			soft := e.soft
			if changes > 0 { // the best move changed: spend more
				soft = soft * time.Duration(10+5*min(changes, 4)) / 10
			}
			if e.elapsed() > soft*6/10 {
				break
			}
		}
		changes = changes / 2
	}
	if onInfo != nil && !res.HasPonder && res.HasMove {
		c := w.pos[0]
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

// tick counts a node and, every 1024 nodes, looks at the clock and the
// stop flags.
func (w *worker) tick() {
	w.nodes++
	e := w.e
	if w.id == 0 && e.nodeCap > 0 && len(e.workers) == 1 && w.nodes >= e.nodeCap {
		w.aborted = true
		e.abort.Store(true)
		return
	}
	if w.nodes&1023 != 0 {
		return
	}
	w.published.Store(w.nodes)
	if e.abort.Load() || e.ctl.stop.Load() {
		w.aborted = true
		return
	}
	if w.id != 0 {
		return
	}
	if e.nodeCap > 0 && e.totalNodes() >= e.nodeCap {
		w.aborted = true
		e.abort.Store(true)
		return
	}
	if e.hard > 0 && !e.ctl.pondering.Load() && e.elapsed() >= e.hard {
		w.aborted = true
		e.abort.Store(true)
	}
}

// isDraw reports a draw by the move rule or by repetition at ply.
func (w *worker) isDraw(ply int) bool {
	rev := w.rev[ply]
	if dp := w.e.v.DrawPlies; dp > 0 && rev >= dp {
		return true
	}
	i := w.base + ply
	k := w.keys[i]
	for j := i - 2; j >= i-rev && j >= 0; j -= 2 {
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

// search is the principal-variation alpha-beta search of w.pos[ply] to
// depth plies.
func (w *worker) search(alpha, beta, depth, ply int, pvNode bool) int {
	w.pvLen[ply] = 0
	e := w.e
	if ply > 0 {
		if w.isDraw(ply) {
			return 0
		}
		if e.v.HasLossRule() && e.v.Lost(&w.pos[ply]) {
			return -Mate + ply
		}
		// Mate-distance pruning.
		alpha = max(alpha, -Mate+ply)
		beta = min(beta, Mate-ply-1)
		if alpha >= beta {
			return alpha
		}
	}
	if depth <= 0 || ply >= MaxPly-1 {
		return w.qsearch(alpha, beta, ply)
	}
	w.tick()
	if w.aborted {
		return 0
	}
	p := &w.pos[ply]
	var ttEnt tt.Entry
	ent, hit := e.tt.Probe(p.Key)
	if hit {
		ttEnt = ent
		if !pvNode && int(ent.Depth) >= depth {
			s := fromTT(ent.Score, ply)
			switch {
			case ent.Bound == tt.BoundExact,
				ent.Bound == tt.BoundLower && s >= beta,
				ent.Bound == tt.BoundUpper && s <= alpha:
				return s
			}
		}
	}
	ml := &w.lists[ply]
	e.v.Generate(p, ml)
	if ml.N == 0 {
		return -Mate + ply
	}
	if ml.N == 1 && ply < 2*w.rootDepth {
		depth++ // a forced reply costs nothing to look past
	}
	w.order(ply, hit, ttEnt)
	alpha0 := alpha
	best := -inf
	var bestMove movegen.Move
	searched := 0
	for i := 0; i < ml.N; i++ {
		m := w.pick(ply, i)
		if ply == 0 && w.isExcluded(m) {
			continue
		}
		c := &w.pos[ply+1]
		*c = *p
		c.Play(m)
		w.keys[w.base+ply+1] = c.Key
		w.rev[ply+1] = p.NextReversible(m, w.rev[ply])
		nd := depth - 1
		var s int
		if searched == 0 {
			s = -w.search(-beta, -alpha, nd, ply+1, pvNode)
		} else {
			r := 0
			if depth >= 3 && searched >= 3 && m.Captured == 0 && !m.Promote && !w.isKiller(ply, m) {
				r = 1
				if searched >= 8 && depth >= 6 && !pvNode {
					r = 2
				}
			}
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
			best, bestMove = s, m
			if s > alpha {
				alpha = s
				w.pv[ply][0] = m
				n := copy(w.pv[ply][1:], w.pv[ply+1][:w.pvLen[ply+1]])
				w.pvLen[ply] = n + 1
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
	ent = tt.Entry{From: bestMove.From, To: bestMove.To, Score: toTT(best, ply), Depth: int8(min(depth, 127)), Bound: bound}
	if bestMove.Captured != 0 {
		ent.CapHash = tt.CapHash(bestMove.Captured)
	}
	e.tt.Store(p.Key, ent)
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
	p := &w.pos[ply]
	ml := &w.lists[ply]
	if e.v.HasLossRule() && e.v.Lost(p) {
		return -Mate + ply
	}
	if ply >= MaxPly-1 || !e.v.HasCapture(p) {
		w.leafSum += uint64(ply)
		w.leafCount++
		if e.v.Count(p, ml) == 0 {
			return -Mate + ply
		}
		return e.eval(e.v, p)
	}
	e.v.Generate(p, ml)
	best := -inf
	for i := 0; i < ml.N; i++ {
		c := &w.pos[ply+1]
		*c = *p
		c.Play(ml.Moves[i])
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
