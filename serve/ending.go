package serve

import (
	"fmt"
	"math/bits"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/protocol"
	"github.com/damaengine/damaengine/search"
)

// ending is a game ended by an action rather than on the board.
type ending struct {
	code   string        // "resigned" or "agreed"
	winner movegen.Color // for "resigned": the side that did not resign
}

func (e *ending) result() string {
	switch {
	case e.code == "agreed":
		return pdn.DrawResult
	case e.winner == movegen.White:
		return pdn.WhiteWins
	}
	return pdn.BlackWins
}

// over reports whether the game has ended, on the board or by an action.
func (g *game) over() bool { return g.ended != nil || g.rec.Status().Over() }

// endText says why the game ended ("" while it goes on).
func (g *game) endText() string {
	if e := g.ended; e != nil {
		if e.code == "agreed" {
			return "draw agreed"
		}
		return (e.winner ^ 1).String() + " resigned"
	}
	return g.rec.Status().String()
}

// endCode gives why the game ended as a code and the winner's colour (""
// for a draw or a game that goes on).
func (g *game) endCode() (code, winner string) {
	if e := g.ended; e != nil {
		if e.code == "agreed" {
			return e.code, ""
		}
		return e.code, e.winner.String()
	}
	st := g.rec.Status()
	switch st.End {
	case movegen.NotOver:
		return "", ""
	case movegen.NoMove:
		return "no-move", st.Winner.String()
	case movegen.NoDamone:
		return "no-damone", st.Winner.String()
	case movegen.Repetition:
		return "repetition", ""
	case movegen.MoveRule:
		return "move-rule", ""
	}
	return "too-long", ""
}

// NormalizeFEN reads the FENs other sites write into one the variant
// parses: lidraughts' and Lichess-style fields H (the half-move clock) and
// F (the move number) after the pieces are dropped, and a PDN tag
// ([FEN "..."]) or quotes around the text are taken off.
func NormalizeFEN(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		t = strings.TrimSpace(t[1 : len(t)-1])
		if len(t) > 3 && strings.EqualFold(t[:3], "FEN") {
			t = strings.TrimSpace(t[3:])
		}
	}
	t = strings.TrimSuffix(strings.TrimPrefix(t, `"`), `"`)
	t = strings.TrimSuffix(strings.TrimSpace(t), ".")
	if !strings.Contains(t, ":") {
		return t
	}
	fields := strings.Split(t, ":")
	kept := fields[:0]
	for i, f := range fields {
		if i > 0 && len(f) > 1 && (f[0] == 'H' || f[0] == 'F') {
			if _, err := strconv.Atoi(f[1:]); err == nil {
				continue
			}
		}
		kept = append(kept, f)
	}
	return strings.Join(kept, ":")
}

// coordMove rewrites a move typed in the board's coordinates (c3-d4,
// c3:d4, c3xe5xg3: the letters and numbers drawn around the board) into the
// variant's square names; ok is false when the text is not written so or a
// coordinate is not a playable square.
func coordMove(v *movegen.Variant, text string) (string, bool) {
	var out strings.Builder
	tok := ""
	changed := false
	flush := func() bool {
		t := strings.ToLower(tok)
		tok = ""
		if len(t) < 2 || len(t) > 3 || t[0] < 'a' || t[0] > 'z' {
			return false
		}
		r, err := strconv.Atoi(t[1:])
		if err != nil {
			return false
		}
		b := v.BitAt(int(t[0]-'a'), r-1)
		if b < 0 || v.Board()&(1<<b) == 0 {
			return false
		}
		name := v.SquareName(b)
		changed = changed || name != t
		out.WriteString(name)
		return true
	}
	for _, c := range strings.TrimSpace(text) {
		switch c {
		case '-', 'x', 'X', ':':
			if !flush() {
				return "", false
			}
			if c == ':' {
				c = 'x'
			}
			out.WriteRune(c)
		default:
			tok += string(c)
		}
	}
	if !flush() || !changed {
		return "", false
	}
	return out.String(), true
}

// resign ends the game: the person resigns and the engine wins.
func (s *Server) resign(w http.ResponseWriter, r *http.Request, g *game) {
	if err := decode(r, &struct{}{}); err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.settled(); err != nil {
		writeError(w, err)
		return
	}
	g.ended = &ending{code: "resigned", winner: g.human ^ 1}
	writeJSON(w, http.StatusOK, g.state())
}

// The draw rule: the engine accepts a draw offered by the person when a
// short full-strength search (drawNodes nodes, at most drawTime) scores
// the position, from the engine's side, at most drawLevel centi-men (the
// game is level or the engine is worse) and at most half the pieces of the
// start are left on the board; or at any time when that score is below
// -drawWorse (the engine is clearly worse). Otherwise it plays on.
const (
	drawNodes = 30000
	drawTime  = 500 * time.Millisecond
	drawLevel = 20
	drawWorse = 100
)

// DrawReply is the answer to a draw offer.
type DrawReply struct {
	Accepted bool   `json:"accepted"`
	Reason   string `json:"reason"` // why, in words
	Score    int    `json:"score"`  // the engine's score from its own side, centi-men
	State    State  `json:"state"`
}

// drawRule applies the rule to an engine's score (its own side) with
// pieces of start left on the board.
func drawRule(score, pieces, start int) (bool, string) {
	sc := fmt.Sprintf("%+.2f", float64(score)/100)
	switch {
	case score < -drawWorse:
		return true, "the engine accepts: it scores the position " + sc + " for itself"
	case score <= drawLevel && 2*pieces <= start:
		return true, fmt.Sprintf("the engine accepts: the game is level (%s for the engine) and %d of the %d pieces are left", sc, pieces, start)
	case score > drawLevel:
		return false, "the engine declines: it scores the position " + sc + " for itself (it accepts at +0.20 or less, with at most half the pieces left)"
	}
	return false, fmt.Sprintf("the engine declines: %d of the %d pieces are still on the board (it accepts a level game with at most half of them left, %s now)", pieces, start, sc)
}

// offerDraw asks the engine to agree a draw.
func (s *Server) offerDraw(w http.ResponseWriter, r *http.Request, g *game) {
	if err := decode(r, &struct{}{}); err != nil {
		writeError(w, err)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.settled(); err != nil {
		writeError(w, err)
		return
	}
	v := g.rec.Variant()
	sg := search.GameOf(g.rec)
	full, _ := protocol.LookupStrength("max")
	g.eng.SetEval(full.Eval(0))
	res := g.eng.Search(search.NewControl(false), sg, search.Limits{Nodes: drawNodes, MoveTime: drawTime}, nil)
	score := res.Score
	if sg.Pos.Side == g.human { // the score is the side to move's
		score = -score
	}
	p := g.rec.Position()
	start := v.Start() // a game set up from a FEN counts against the variant's start
	ok, why := drawRule(score, bits.OnesCount64(p.Occupied()), bits.OnesCount64(start.Occupied()))
	if ok {
		g.ended = &ending{code: "agreed"}
	}
	writeJSON(w, http.StatusOK, DrawReply{Accepted: ok, Reason: why, Score: score, State: g.state()})
}

// PlyView is a position of the game looked back at.
type PlyView struct {
	Ply     int       `json:"ply"`
	Squares []Square  `json:"squares"`
	Last    *MoveInfo `json:"last,omitempty"`
	FEN     string    `json:"fen"`
}

// ply answers the board after n plies of the game (0: the start).
func (s *Server) ply(w http.ResponseWriter, r *http.Request, g *game) {
	n, err := strconv.Atoi(r.PathValue("n"))
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil || n < 0 || n > g.rec.Plies() {
		writeError(w, errorf(http.StatusBadRequest, "ply %q: give 0 to %d", clipText(r.PathValue("n")), g.rec.Plies()))
		return
	}
	v := g.rec.Variant()
	p := g.rec.Position()
	if n < g.rec.Plies() {
		p = g.rec.Before(n)
	}
	pv := PlyView{Ply: n, Squares: squares(v, &p), FEN: v.FEN(&p)}
	if n > 0 {
		before := g.rec.Before(n - 1)
		mi := moveInfo(v, &before, g.rec.Moves()[n-1])
		pv.Last = &mi
	}
	writeJSON(w, http.StatusOK, pv)
}

// settled returns the conflict that keeps a resignation or a draw offer
// from being taken now (the engine thinking, the game over), or nil. The
// caller holds g.mu.
func (g *game) settled() error {
	switch {
	case g.busy:
		return errorf(http.StatusConflict, "the engine is thinking")
	case g.over():
		return errorf(http.StatusConflict, "the game is over: %s", g.endText())
	}
	return nil
}
