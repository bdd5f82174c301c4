// Package bookbuild grows the opening books of package book by drop-out
// expansion, scoring each new position with the engine's search. It lives
// apart from book so that book (the file format, the probe and the
// embedded books) imports nothing above movegen: the builder is the only
// part that needs search.
//
// Build grows a book from a Config and reports what it did in Stats; an
// Evaluator scores the positions, and SearchEvaluator makes one from the
// engine's search.
package bookbuild

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"time"

	"github.com/damaengine/damaengine/book"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Evaluator scores a position for the side to move: centi-men (a win in
// n plies is search.Mate-n) and the depth its search reached.
type Evaluator func(p movegen.Position) (score, depth int)

// SearchEvaluator returns an Evaluator that runs the engine's search on
// one thread with a table of 2^ttLog2 entries under lim (the table is kept
// from one position to the next: neighbouring book positions share most of
// their trees). A position with one legal move is scored through that
// move, since the search answers a forced move without searching.
func SearchEvaluator(v *movegen.Variant, ttLog2 int, lim search.Limits) Evaluator {
	e := search.New(v, ttLog2)
	var eval Evaluator
	eval = func(p movegen.Position) (int, int) {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		switch ml.N {
		case 0:
			return -search.Mate, 0
		case 1:
			c := p
			c.Play(ml.Moves[0])
			s, d := eval(c)
			return up(s), d + 1
		}
		res := e.Search(search.NewControl(false), search.Game{Pos: p}, lim, nil)
		return res.Score, res.Depth
	}
	return eval
}

// up turns a child's score into its parent's: negated, a win or loss one
// ply further away.
func up(s int) int {
	p := -s
	switch {
	case p > search.MateBound:
		p--
	case p < -search.MateBound:
		p++
	}
	return p
}

// Config describes a build.
type Config struct {
	// Variant is the rule set.
	Variant *movegen.Variant
	// Roots are the positions the book grows from (nil: the start).
	Roots []movegen.Position
	// Positions is the size to stop at; the last expansion may pass it by
	// the moves of one position.
	Positions int
	// Alpha weighs a score gap against depth: a leaf's cost is its ply
	// from the root plus Alpha times the centi-men given away, summed over
	// the moves leading to it (each against the best move there).
	Alpha float64
	// Eval scores new positions.
	Eval Evaluator
	// TimePerNode is recorded in the book (informational) and used for the
	// ETA before the rate is known.
	TimePerNode time.Duration
	// File is where the book is checkpointed; when it exists the build
	// resumes from it (it must be for the same variant and roots).
	File string
	// CheckpointEvery is the time between checkpoints (0: 30 s).
	CheckpointEvery time.Duration
	// Progress receives a progress line now and then (nil: none).
	Progress io.Writer
	// ProgressEvery is the time between progress lines (0: 5 s).
	ProgressEvery time.Duration
}

// Stats says what a build did.
type Stats struct {
	Resumed  int // positions read back from the file
	Added    int // positions searched in this run
	Expanded int // positions expanded in this run
	Elapsed  time.Duration
}

// node is a position of the tree under construction.
type node struct {
	pos      movegen.Position
	score    int // own search score (the value of a leaf)
	value    int // backed-up negamax value
	depth    int
	expanded bool
	terminal bool
	kids     []int32
}

type builder struct {
	cfg   Config
	nodes []*node
	index map[uint64]int32
	roots []int32
}

// Build grows a book by drop-out expansion: it repeatedly expands the
// leaf of least cost (ply + Alpha × the score given away on the way, see
// Config.Alpha), searching every new child, and backs the scores up by
// negamax after each expansion, until the book holds cfg.Positions
// positions, no leaf is left, or ctx is cancelled. It checkpoints to
// cfg.File and returns the book so far with ctx's error when cancelled.
func Build(ctx context.Context, cfg Config) (*book.Book, Stats, error) {
	start := time.Now()
	var st Stats
	if cfg.Variant == nil || cfg.Eval == nil {
		return nil, st, errors.New("book build: a variant and an evaluator are needed")
	}
	if len(cfg.Roots) == 0 {
		cfg.Roots = []movegen.Position{cfg.Variant.Start()}
	}
	if cfg.CheckpointEvery <= 0 {
		cfg.CheckpointEvery = 30 * time.Second
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 5 * time.Second
	}
	b := &builder{cfg: cfg, index: map[uint64]int32{}}
	if cfg.File != "" {
		old, err := book.Load(cfg.File, nil)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, st, fmt.Errorf("cannot resume: %w", err)
		default:
			if err := b.resume(old); err != nil {
				return nil, st, fmt.Errorf("cannot resume from %s: %w", cfg.File, err)
			}
			st.Resumed = len(b.nodes)
		}
	}
	for _, r := range cfg.Roots {
		b.roots = append(b.roots, b.add(r, &st))
	}
	b.backup()
	lastSave, lastProgress := time.Now(), time.Now()
	save := func() error {
		if cfg.File == "" {
			return nil
		}
		lastSave = time.Now()
		return b.toBook().Save(cfg.File)
	}
	var err error
	for len(b.nodes) < cfg.Positions {
		if err = ctx.Err(); err != nil {
			break
		}
		i := b.pick()
		if i < 0 {
			break
		}
		if err = b.expand(ctx, i, &st); err != nil {
			break
		}
		st.Expanded++
		b.backup()
		if time.Since(lastProgress) >= cfg.ProgressEvery {
			lastProgress = time.Now()
			b.progress(&st, start)
		}
		if time.Since(lastSave) >= cfg.CheckpointEvery {
			if e := save(); e != nil {
				return nil, st, fmt.Errorf("checkpoint: %w", e)
			}
		}
	}
	b.backup()
	st.Elapsed = time.Since(start)
	if e := save(); e != nil {
		return nil, st, fmt.Errorf("saving the book: %w", e)
	}
	b.progress(&st, start)
	return b.toBook(), st, err
}

// progress writes one line: positions done of the target, the rate of this
// run and the time left at that rate.
func (b *builder) progress(st *Stats, start time.Time) {
	if b.cfg.Progress == nil {
		return
	}
	el := time.Since(start)
	rate := float64(st.Added) / el.Seconds()
	left := b.cfg.Positions - len(b.nodes)
	eta := "?"
	switch {
	case left <= 0:
		eta = "0s"
	case rate > 0:
		eta = (time.Duration(float64(left)/rate) * time.Second).Round(time.Second).String()
	case b.cfg.TimePerNode > 0:
		eta = (time.Duration(left) * b.cfg.TimePerNode).Round(time.Second).String()
	}
	fmt.Fprintf(b.cfg.Progress, "book %s: %d/%d positions (%d expanded this run), %.1f positions/s, elapsed %s, ETA %s\n",
		b.cfg.Variant.Name, len(b.nodes), b.cfg.Positions, st.Expanded, rate, el.Round(time.Second), eta)
}

// add returns the node of p, searching it first when it is new.
func (b *builder) add(p movegen.Position, st *Stats) int32 {
	if i, ok := b.index[p.Key]; ok {
		return i
	}
	var ml movegen.MoveList
	b.cfg.Variant.Generate(&p, &ml)
	n := &node{pos: p, terminal: ml.N == 0}
	n.score, n.depth = b.cfg.Eval(p)
	n.value = n.score
	st.Added++
	return b.insert(n)
}

func (b *builder) insert(n *node) int32 {
	i := int32(len(b.nodes))
	b.nodes = append(b.nodes, n)
	b.index[n.pos.Key] = i
	return i
}

// expand adds every child of node i; the node counts as expanded only once
// all of them are in.
func (b *builder) expand(ctx context.Context, i int32, st *Stats) error {
	var ml movegen.MoveList
	p := b.nodes[i].pos
	b.cfg.Variant.Generate(&p, &ml)
	kids := make([]int32, 0, ml.N)
	for _, m := range ml.Slice() {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := p
		c.Play(m)
		kids = append(kids, b.add(c, st))
	}
	n := b.nodes[i]
	n.kids, n.expanded = kids, true
	return nil
}

// backup computes every node's negamax value from the leaves up. The
// tree is a graph (transpositions); a cycle, which only king moves could
// make, scores as a draw where it closes.
func (b *builder) backup() {
	state := make([]uint8, len(b.nodes)) // 0 new, 1 on the path, 2 done
	var visit func(i int32) int
	visit = func(i int32) int {
		n := b.nodes[i]
		switch state[i] {
		case 2:
			return n.value
		case 1:
			return 0
		}
		if !n.expanded || len(n.kids) == 0 {
			n.value = n.score
			state[i] = 2
			return n.value
		}
		state[i] = 1
		best := math.MinInt
		for _, k := range n.kids {
			best = max(best, up(visit(k)))
		}
		n.value = best
		state[i] = 2
		return best
	}
	for i := range b.nodes {
		visit(int32(i))
	}
}

// pick returns the leaf to expand next: the unexpanded, undecided position
// of least cost, found by Dijkstra's algorithm from the roots over edges
// costing 1 + Alpha × gap; -1 when there is none.
func (b *builder) pick() int32 {
	cost := make([]float64, len(b.nodes))
	for i := range cost {
		cost[i] = math.Inf(1)
	}
	q := &costHeap{}
	for _, r := range b.roots {
		cost[r] = 0
		heap.Push(q, costItem{0, r})
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(costItem)
		if it.cost > cost[it.i] {
			continue
		}
		n := b.nodes[it.i]
		if !n.expanded {
			if !n.terminal && abs(n.value) < search.MateBound {
				return it.i
			}
			continue
		}
		for _, k := range n.kids {
			gap := float64(n.value - up(b.nodes[k].value))
			c := it.cost + 1 + b.cfg.Alpha*gap
			if c < cost[k] {
				cost[k] = c
				heap.Push(q, costItem{c, k})
			}
		}
	}
	return -1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

type costItem struct {
	cost float64
	i    int32
}

type costHeap []costItem

func (h costHeap) Len() int           { return len(h) }
func (h costHeap) Less(i, j int) bool { return h[i].cost < h[j].cost }
func (h costHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *costHeap) Push(x any)        { *h = append(*h, x.(costItem)) }
func (h *costHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// toBook returns the tree as a Book: each position with its value.
func (b *builder) toBook() *book.Book {
	ents := make(map[uint64]book.Entry, len(b.nodes))
	for _, n := range b.nodes {
		ents[n.pos.Key] = book.Entry{Score: n.value, Depth: n.depth, Expanded: n.expanded, Terminal: n.terminal}
	}
	bk := book.New(b.cfg.Variant.Name, ents)
	bk.RootHash = book.RootHash(b.cfg.Roots)
	bk.TimePerNode = b.cfg.TimePerNode
	bk.Alpha = b.cfg.Alpha
	return bk
}

// resume rebuilds the tree from a book written by an earlier run: every
// position reachable from the roots through expanded positions. Positions
// of an expansion that was cut short are not reachable and are searched
// again.
func (b *builder) resume(old *book.Book) error {
	if old.Variant() != b.cfg.Variant.Name {
		return fmt.Errorf("the book is for %s, not %s", old.Variant(), b.cfg.Variant.Name)
	}
	if h := book.RootHash(b.cfg.Roots); old.RootHash != h {
		return fmt.Errorf("the book was grown from other root positions (hash %016x, these give %016x)", old.RootHash, h)
	}
	var walk func(p movegen.Position) (int32, error)
	walk = func(p movegen.Position) (int32, error) {
		if i, ok := b.index[p.Key]; ok {
			return i, nil
		}
		e, ok := old.Lookup(p.Key)
		if !ok {
			return -1, nil
		}
		n := &node{pos: p, score: e.Score, value: e.Score, depth: e.Depth, expanded: e.Expanded, terminal: e.Terminal}
		i := b.insert(n)
		if !e.Expanded {
			return i, nil
		}
		var ml movegen.MoveList
		b.cfg.Variant.Generate(&p, &ml)
		for _, m := range ml.Slice() {
			c := p
			c.Play(m)
			k, err := walk(c)
			if err != nil {
				return -1, err
			}
			if k < 0 {
				return -1, fmt.Errorf("%w: an expanded position lacks its child %016x", book.ErrCorrupt, c.Key)
			}
			n.kids = append(n.kids, k)
		}
		return i, nil
	}
	for _, r := range b.cfg.Roots {
		if _, err := walk(r); err != nil {
			return err
		}
	}
	return nil
}
