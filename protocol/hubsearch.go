package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
	"github.com/rs/zerolog"
)

// maxInfoDepth caps the depth info lines report: beyond it (a drawn or
// tiny endgame, where every iteration finishes at once) deeper iterations
// say nothing new, so they are not reported.
const maxInfoDepth = 64

// forcedNodes and forcedTime bound the short search after a forced move
// that finds its score and the expected reply.
const (
	forcedNodes = 20000
	forcedTime  = 50 * time.Millisecond
)

// searchRun is one go, run on the engine's goroutine.
type searchRun struct {
	h      *Hub
	t      *task
	w      *wire
	v      *movegen.Variant
	eng    Searcher
	game   search.Game
	lim    search.Limits
	ponder bool
	multi  bool // multi-PV analysis: infos carry multipv=N
}

// threadNodes is a Searcher that can say how its last search's nodes were
// shared among its threads (search.Engine): logged at the debug level.
type threadNodes interface {
	ThreadNodes(dst []uint64) []uint64
}

// run searches and hands the done line to the command loop.
func (r *searchRun) run(root movegen.MoveList) {
	var res search.Result
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v", p)
			}
		}()
		if root.N == 1 && !r.lim.Infinite {
			res = r.forced(root.Moves[0])
			return
		}
		ctl := r.t.control(search.NewControl(r.ponder))
		res = r.eng.Search(ctl, r.game, r.lim, r.onInfo)
	}()
	if !res.HasMove { // a failed search still answers with a legal move
		res = search.Result{Move: root.Moves[0], HasMove: true}
	}
	h := r.h
	h.results <- func() {
		if err != nil {
			h.log.Error().Err(err).Msg("search failed")
			h.sendError("search failed: %v; playing %s", clipErr(err), r.w.text(res.Move))
		}
		if tn, ok := r.eng.(threadNodes); ok && h.log.GetLevel() <= zerolog.DebugLevel {
			h.log.Debug().Int("depth", res.Depth).Uint64("nodes", res.Nodes).Uints64("thread_nodes", tn.ThreadNodes(nil)).Msg("search done")
		}
		parts := []string{"done", kv("move", r.w.text(res.Move))}
		if res.HasPonder {
			parts = append(parts, kv("ponder", r.w.text(res.Ponder)))
		}
		h.send(parts...)
	}
}

// forced handles a position with one legal move: a short search after it
// gives the score, the line and the expected reply; under go ponder the
// answer then waits for ponder-hit or stop, and comes at once after either.
func (r *searchRun) forced(m movegen.Move) search.Result {
	res := search.Result{Move: m, HasMove: true}
	start := time.Now()
	child := search.Game{Pos: r.game.Pos, History: append(r.game.History, r.game.Pos.Key)}
	child.Reversible = r.game.Pos.NextReversible(m, r.game.Reversible)
	child.Pos.Play(m)
	var ml movegen.MoveList
	r.v.Generate(&child.Pos, &ml)
	info := search.Info{Depth: 1, PV: []movegen.Move{m}, Score: search.Mate - 1}
	if ml.N > 0 {
		lim := search.Limits{Nodes: forcedNodes, MoveTime: forcedTime}
		if r.lim.Nodes > 0 && r.lim.Nodes < lim.Nodes {
			lim.Nodes = max(r.lim.Nodes, 1)
		}
		// on a short clock the follow-up takes a small share of it
		if r.lim.HasClock {
			lim.MoveTime = min(lim.MoveTime, max((r.lim.Time+r.lim.Inc)/40, time.Millisecond))
		}
		if r.lim.MoveTime > 0 {
			lim.MoveTime = min(lim.MoveTime, max(r.lim.MoveTime/4, time.Millisecond))
		}
		var last search.Info
		ctl := r.t.control(search.NewControl(false))
		cres := r.eng.Search(ctl, child, lim, func(in search.Info) {
			if in.Line <= 1 {
				last = in
			}
		})
		info = search.Info{Depth: last.Depth + 1, MeanDepth: last.MeanDepth, Nodes: cres.Nodes, PV: append([]movegen.Move{m}, last.PV...)}
		switch s := last.Score; {
		case s > search.MateBound:
			info.Score = -s + 1
		case s < -search.MateBound:
			info.Score = -s - 1
		default:
			info.Score = -s
		}
		if cres.HasMove {
			res.Ponder, res.HasPonder = cres.Move, true
		}
		res.Score, res.Depth, res.Nodes = info.Score, info.Depth, cres.Nodes
	}
	info.Time = time.Since(start)
	r.onInfo(info)
	if r.ponder {
		select {
		case <-r.t.hit:
		case <-r.t.stopCh:
		}
	}
	return res
}

// onInfo formats an info line on the searching goroutine and queues it;
// it never waits for the writer.
func (r *searchRun) onInfo(in search.Info) {
	if in.Line > 1 && !r.multi {
		return
	}
	if in.Depth > maxInfoDepth {
		return
	}
	r.h.out.put(infoLine(r.w, in, r.multi), true)
}

// infoLine writes an info line: depth, mean-depth (when known), score in
// men, nodes, time in seconds, nps in millions with one decimal (when the
// time is measurable and there are nodes: a book move's line has none, however
// long the lookup took), multipv=N in a multi-PV analysis, and the quoted pv.
func infoLine(w *wire, in search.Info, multi bool) string {
	pv := make([]string, 0, len(in.PV))
	for _, m := range in.PV {
		pv = append(pv, w.text(m))
	}
	secs := in.Time.Seconds()
	parts := []string{"info", kv("depth", strconv.Itoa(in.Depth))}
	if in.MeanDepth > 0 {
		parts = append(parts, kv("mean-depth", strconv.FormatFloat(in.MeanDepth, 'f', 1, 64)))
	}
	parts = append(parts,
		kv("score", strconv.FormatFloat(float64(in.Score)/100, 'f', 2, 64)),
		kv("nodes", strconv.FormatUint(in.Nodes, 10)),
		kv("time", strconv.FormatFloat(secs, 'f', 3, 64)))
	if secs >= 0.001 && in.Nodes > 0 {
		parts = append(parts, kv("nps", strconv.FormatFloat(float64(in.Nodes)/secs/1e6, 'f', 1, 64)))
	}
	if multi {
		parts = append(parts, kv("multipv", strconv.Itoa(max(in.Line, 1))))
	}
	parts = append(parts, "pv=\""+strings.Join(pv, " ")+"\"")
	return strings.Join(parts, " ")
}
