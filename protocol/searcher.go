package protocol

import (
	"sync"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Searcher is the search as the protocols use it; *search.Engine
// implements it. A Searcher runs one call at a time.
type Searcher interface {
	// Search searches g under lim, reporting each completed depth to
	// onInfo, and returns the best move.
	Search(ctl *search.Control, g search.Game, lim search.Limits, onInfo func(search.Info)) search.Result
	// NewGame forgets what was learnt (the table, the histories).
	NewGame()
	// SetVariant switches the rule set.
	SetVariant(v *movegen.Variant)
	// SetThreads sets the number of search threads.
	SetThreads(n int)
	// SetTableSize reallocates the table with 2^log2 entries.
	SetTableSize(log2 int)
	// SetMultiPV sets the number of lines an analysis reports.
	SetMultiPV(n int)
	// SetEval replaces the static evaluation.
	SetEval(f search.EvalFunc)
}

// NewSearcher builds the Searcher of a session for variant v with a table
// of 2^ttLog2 entries.
type NewSearcher func(v *movegen.Variant, ttLog2 int) Searcher

// DefaultSearcher builds a *search.Engine.
func DefaultSearcher(v *movegen.Variant, ttLog2 int) Searcher { return search.New(v, ttLog2) }

// jobs runs calls on the Searcher one at a time on its own goroutine, in
// the order they were queued, so that slow ones (clearing a large table,
// a search) never hold up the command loop.
type jobs struct {
	mu   sync.Mutex
	cond *sync.Cond
	q    []func()
	busy bool
	quit bool
}

func newJobs() *jobs {
	j := &jobs{}
	j.cond = sync.NewCond(&j.mu)
	go j.loop()
	return j
}

// add queues f.
func (j *jobs) add(f func()) {
	j.mu.Lock()
	j.q = append(j.q, f)
	j.cond.Signal()
	j.mu.Unlock()
}

// idle reports whether nothing is queued or running.
func (j *jobs) idle() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.q) == 0 && !j.busy
}

func (j *jobs) loop() {
	for {
		j.mu.Lock()
		for len(j.q) == 0 && !j.quit {
			j.busy = false
			j.cond.Wait()
		}
		if len(j.q) == 0 {
			j.mu.Unlock()
			return
		}
		f := j.q[0]
		j.q = j.q[1:]
		j.busy = true
		j.mu.Unlock()
		f()
	}
}

// stop ends the goroutine once the queue is empty; it does not wait.
func (j *jobs) stop() {
	j.mu.Lock()
	j.quit = true
	j.cond.Signal()
	j.mu.Unlock()
}
