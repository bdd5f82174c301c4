package serve

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Thought is one report of the engine's search, as the page shows it.
type Thought struct {
	Depth int    `json:"depth"`
	Nodes uint64 `json:"nodes"`
	// Score is in centi-men from White's side (positive: White is better);
	// Mate, when not zero, is a win in that many plies (negative: Black
	// wins), and Score is then ±10000.
	Score  int      `json:"score"`
	Mate   int      `json:"mate,omitempty"`
	Text   string   `json:"text"` // the score in words: "+0.35", "White wins in 7 plies"
	PV     []string `json:"pv"`
	Millis int64    `json:"ms"`
}

// EngineReply is the answer to POST /api/games/{id}/engine: the move the
// engine played, its last report, and the game after the move.
type EngineReply struct {
	Move    MoveInfo `json:"move"`
	Thought Thought  `json:"thought"`
	State   State    `json:"state"`
}

// thought turns a search report into a Thought; root is the position the
// search started from.
func thought(v *movegen.Variant, root movegen.Position, in search.Info) Thought {
	t := Thought{Depth: in.Depth, Nodes: in.Nodes, Millis: in.Time.Milliseconds(), PV: []string{}}
	sc := in.Score
	if root.Side == movegen.Black {
		sc = -sc
	}
	t.Score = sc
	switch {
	case sc > search.MateBound:
		t.Mate, t.Score = search.Mate-sc, search.Mate
		t.Text = fmt.Sprintf("White wins in %d plies", t.Mate)
	case sc < -search.MateBound:
		t.Mate, t.Score = -(search.Mate + sc), -search.Mate
		t.Text = fmt.Sprintf("Black wins in %d plies", -t.Mate)
	default:
		t.Text = fmt.Sprintf("%+.2f", float64(sc)/100)
	}
	p := root
	var ml movegen.MoveList
	for _, m := range in.PV {
		v.Generate(&p, &ml)
		legal := false
		for _, x := range ml.Slice() {
			legal = legal || x == m
		}
		if !legal {
			break
		}
		t.PV = append(t.PV, v.FormatMove(&p, m))
		p.Play(m)
	}
	return t
}

// settle makes the engine's last report agree with the move it plays: a
// search stopped by its node or time limit in the middle of a depth plays
// a root move that beat the best of the last completed depth, which no
// report named. Then the line shown is that move (and the reply it
// expects), so the page never shows a variation that starts with another
// move than the one on the board; the depth and score stay those of the
// last completed depth.
func settle(v *movegen.Variant, root movegen.Position, last Thought, res search.Result) Thought {
	if res.Nodes > last.Nodes {
		last.Nodes = res.Nodes
	}
	played := v.FormatMove(&root, res.Move)
	if len(last.PV) > 0 && last.PV[0] == played {
		return last
	}
	pv := []movegen.Move{res.Move}
	if res.HasPonder {
		pv = append(pv, res.Ponder)
	}
	t := thought(v, root, search.Info{PV: pv})
	last.PV = t.PV
	return last
}

// engine handles POST /api/games/{id}/engine: the engine searches the
// current position within the game's level and plays its move. With
// Accept: text/event-stream the answer is a stream of server-sent events,
// "info" (a Thought) while it thinks and "done" (an EngineReply) or
// "error" at the end; otherwise the EngineReply as JSON. A client that goes
// away stops the search and the game stays as it was.
func (s *Server) engine(w http.ResponseWriter, r *http.Request, g *game) {
	if err := decode(r, &struct{}{}); err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	if g.busy {
		g.mu.Unlock()
		writeError(w, errorf(http.StatusConflict, "the engine is already thinking"))
		return
	}
	if g.over() {
		g.mu.Unlock()
		writeError(w, errorf(http.StatusConflict, "the game is over: %s", g.endText()))
		return
	}
	g.busy = true
	v := g.rec.Variant()
	sg := search.GameOf(g.rec)
	root := sg.Pos
	lim := search.Limits{MoveTime: g.moveTime, Nodes: g.nodes}
	lim = g.level.Limit(lim)
	// Always bounded: the level's cap, else the game's move time, never
	// beyond the server's (makeGame checked it; this keeps it so).
	if lim.MoveTime <= 0 || lim.MoveTime > s.opt.MaxMoveTime {
		lim.MoveTime = s.opt.MaxMoveTime
	}
	lim.Infinite = false
	eng := g.eng
	eng.SetEval(g.level.Eval(rand.Uint64()))
	g.mu.Unlock()

	// the connection's deadlines give way to the search's own bound
	extendDeadlines(w, lim.MoveTime+engineSlack)
	stream := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	flusher, _ := w.(http.Flusher)
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		if flusher != nil {
			flusher.Flush()
		}
	}
	infos := make(chan search.Info, 64)
	done := make(chan search.Result, 1)
	ctl := search.NewControl(false)
	go func() {
		done <- eng.Search(ctl, sg, lim, func(in search.Info) {
			in.PV = append([]movegen.Move(nil), in.PV...)
			select { // never block the search: a slow client loses reports
			case infos <- in:
			default:
			}
			// where goroutines are not preempted (js/wasm: one thread),
			// let the request's goroutine send the report now
			runtime.Gosched()
		})
	}()
	event := func(name string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	var last Thought
	var res search.Result
	gone := false
wait:
	for {
		select {
		case in := <-infos:
			last = thought(v, root, in)
			if stream {
				event("info", last)
			}
		case res = <-done:
			break wait
		case <-r.Context().Done():
			if !gone {
				gone = true
				ctl.Stop()
			}
		}
	}
	for len(infos) > 0 {
		last = thought(v, root, <-infos)
		if stream && !gone {
			event("info", last)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.busy = false
	if gone {
		return
	}
	if !res.HasMove {
		err := map[string]string{"error": "the engine has no legal move"}
		if stream {
			event("error", err)
		} else {
			writeJSON(w, http.StatusConflict, err)
		}
		return
	}
	mi := moveInfo(v, &root, res.Move)
	last = settle(v, root, last, res)
	if err := g.rec.Play(res.Move); err != nil {
		if stream {
			event("error", map[string]string{"error": err.Error()})
		} else {
			writeError(w, err)
		}
		return
	}
	reply := EngineReply{Move: mi, Thought: last, State: g.state()}
	if stream {
		event("done", reply)
		return
	}
	writeJSON(w, http.StatusOK, reply)
}
