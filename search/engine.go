package search

import (
	"fmt"
	"reflect"
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

// follow makes the line pv (non-empty) the result's: its first move is
// played, its second, if any, is the move to ponder on.
func (r *Result) follow(pv []movegen.Move, score int) {
	r.Move, r.Score = pv[0], score
	r.HasPonder = len(pv) > 1
	if r.HasPonder {
		r.Ponder = pv[1]
	}
}

// Game is what a search starts from: the position, the Zobrist keys of
// the positions played before it (oldest first, for repetitions) and the
// number of plies since the last capture or man move (for the move rule).
type Game struct {
	Pos        movegen.Position
	History    []uint64
	Reversible int
	// SinceCapture is the number of plies since the last capture. Where men
	// move sideways (Turkish) a position may repeat across man moves, so
	// repetitions are looked for that far back; elsewhere Reversible bounds
	// them. Zero means no more than Reversible.
	SinceCapture int
}

// GameOf returns where a search of the record's current position starts
// (with its own copy of the history, so the record may go on).
func GameOf(r *movegen.Game) Game {
	g := Game{Pos: r.Position(), History: append([]uint64(nil), r.Keys()...), Reversible: r.Reversible()}
	moves := r.Moves()
	for i := len(moves) - 1; i >= 0 && moves[i].Captured == 0; i-- {
		g.SinceCapture++
	}
	return g
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

// Pondering reports whether the search still waits for ponder-hit.
func (c *Control) Pondering() bool { return c.pondering.Load() }

func (c *Control) signal() { c.once.Do(func() { close(c.wake) }) }

// EvalFunc is a static evaluation: centi-men for the side to move.
type EvalFunc func(v *movegen.Variant, p *movegen.Position) int

// Engine holds what lasts between searches: the variant, the table, the
// evaluation and the workers with their histories. An Engine runs one
// search at a time.
type Engine struct {
	v    *movegen.Variant
	tt   *tt.Table
	eval EvalFunc
	// evr is eval.Evaluate for v, called directly while eval is
	// eval.Evaluate (evalDirect).
	evr        eval.Evaluator
	evalDirect bool
	workers    []*worker
	multiPV    int

	probe       ProbeFunc // endgame tables, or nil
	probePieces int
	dist        DistFunc // their distances to conversion, or nil

	// per search
	abort   atomic.Bool
	ctl     *Control
	lim     Limits
	start   time.Time
	soft    time.Duration
	hard    time.Duration
	nodeCap uint64

	// The deepest iteration a helper thread completed in this search
	// (Lazy SMP): a helper that finishes a depth before the main thread
	// does gives the answer for it.
	helperMu   sync.Mutex
	helperBest Info
}

// New returns an engine for variant v with a table of 2^ttLog2 entries.
func New(v *movegen.Variant, ttLog2 int) *Engine {
	e := &Engine{v: v, tt: tt.New(ttLog2), eval: eval.Evaluate, evr: eval.For(v), evalDirect: true, multiPV: 1}
	e.SetThreads(1)
	warmEval(v)
	return e
}

// warmEval builds v's embedded evaluation now (it is built at its first
// use), so that the first search does not pay for it inside its time:
// International's pattern tables take about 0.1 s to unpack and fold.
func warmEval(v *movegen.Variant) { eval.ActiveNet(v) }

// Variant returns the engine's variant.
func (e *Engine) Variant() *movegen.Variant { return e.v }

// SetVariant switches the rule set and clears what was learnt.
func (e *Engine) SetVariant(v *movegen.Variant) {
	e.v = v
	e.evr = eval.For(v)
	warmEval(v)
	e.NewGame()
}

// SetEval replaces the evaluation (used to compare evaluations in
// self-play).
func (e *Engine) SetEval(f EvalFunc) {
	e.eval = f
	e.evalDirect = reflect.ValueOf(f).Pointer() == evaluatePC
}

// evaluatePC is eval.Evaluate's code address: SetEval recognises the
// default evaluation by it (a closure has its own).
var evaluatePC = reflect.ValueOf(eval.Evaluate).Pointer()

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
		for i := range w.f {
			w.f[i].killers = [2]movegen.Move{}
		}
		w.counter = [2][64][64]movegen.Move{}
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
	for _, w := range e.workers { // totalNodes, ThreadNodes: this search's counts, even if it answers without searching
		w.published.Store(0)
	}
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
	if res, ok := e.convert(&g, &root, lim, onInfo); ok {
		e.waitIfPondering(lim)
		return res
	}
	e.tt.NewSearch()
	e.helperBest = Info{}
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
	if hb := e.helperBest; hb.Depth > res.Depth && len(hb.PV) > 0 && !(lim.Infinite && e.multiPV > 1) {
		res.follow(hb.PV, hb.Score)
		res.Depth = hb.Depth
		hb.Nodes, hb.Time, hb.Line = e.totalNodes(), time.Since(e.start), 1
		onInfo(hb)
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

// offer records a helper thread's completed iteration if it is the
// deepest so far, and ends a depth-limited search once the asked depth is
// reached by any thread.
func (e *Engine) offer(depth, score int, pv []movegen.Move) {
	e.helperMu.Lock()
	if depth > e.helperBest.Depth {
		e.helperBest = Info{Depth: depth, Score: score, PV: append(e.helperBest.PV[:0:0], pv...)}
	}
	e.helperMu.Unlock()
	if e.lim.Depth > 0 && depth >= e.lim.Depth {
		e.abort.Store(true)
	}
}

// ThreadNodes appends to dst the nodes each search thread searched in the
// last search, the main thread first, and returns it: how the work of a
// search was shared out (each thread publishes its final count when it
// stops; 0 for every thread of a search that answered without searching).
func (e *Engine) ThreadNodes(dst []uint64) []uint64 {
	for _, w := range e.workers {
		dst = append(dst, w.published.Load())
	}
	return dst
}

func (e *Engine) totalNodes() uint64 {
	var n uint64
	for _, w := range e.workers {
		n += w.published.Load()
	}
	return n
}
