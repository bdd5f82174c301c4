package serve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Issue 46: the board's coordinates are read where a move is typed
// (Italian's c3:d4 beside 22-18), and a lidraughts FEN with its H and F
// fields where a FEN is.
func TestServeCoordinatesAndLidraughtsFEN(t *testing.T) {
	c, _ := newClient(t, Options{})
	for _, variant := range []string{"italian", "international", "english"} {
		st := c.state(201, "POST", "/api/games", `{"variant":"`+variant+`","nodes":50}`)
		at := map[string]Square{}
		for _, s := range st.Squares {
			at[s.Name] = s
		}
		mv := st.Moves[len(st.Moves)-1]
		var coords []string
		for _, n := range mv.Path {
			s := at[n]
			coords = append(coords, fmt.Sprintf("%c%d", 'a'+s.File, s.Rank+1))
		}
		typed := strings.Join(coords, ":")
		after := c.state(200, "POST", "/api/games/"+st.ID+"/move", `{"move":"`+typed+`"}`)
		if len(after.History) != 1 || after.History[0] != mv.Text {
			t.Errorf("%s: typed %s, played %v; want %s", variant, typed, after.History, mv.Text)
		}
	}
	// a coordinate off the playable squares is still refused with the
	// variant's own message
	st := c.state(201, "POST", "/api/games", `{"variant":"italian"}`)
	if code, b := c.do("POST", "/api/games/"+st.ID+"/move", `{"move":"a1:b1"}`); code != 422 {
		t.Errorf("a1:b1: status %d %s, want 422", code, b)
	}
	for _, fen := range []string{"W:W31-50:B1-20:H0:F1", `[FEN "W:W31-50:B1-20:H0:F1"]`, "W:W31-50:B1-20"} {
		b, _ := json.Marshal(map[string]any{"variant": "international", "fen": fen})
		st := c.state(201, "POST", "/api/games", string(b))
		if n := len(st.Squares); n != 50 || !strings.HasPrefix(st.FEN, "W:W") || len(st.Moves) == 0 {
			t.Errorf("fen %s: %d squares, fen %s, %d moves", fen, n, st.FEN, len(st.Moves))
		}
	}
	if got := NormalizeFEN("B:W18,24:BK7:H12:F30"); got != "B:W18,24:BK7" {
		t.Errorf("NormalizeFEN: %q", got)
	}
}

// Issue 46: resigning ends the game with the engine the winner; a take-back
// opens it again.
func TestServeResign(t *testing.T) {
	c, _ := newClient(t, Options{})
	st := c.state(201, "POST", "/api/games", `{"variant":"italian","side":"black","nodes":50}`)
	st = c.state(200, "POST", "/api/games/"+st.ID+"/resign", "")
	if !st.Over || st.End != "resigned" || st.Winner != "white" || st.Result != "2-0" || len(st.Moves) != 0 || st.Status != "black resigned" {
		t.Errorf("after resigning: over %v end %q winner %q result %s status %q, %d moves", st.Over, st.End, st.Winner, st.Result, st.Status, len(st.Moves))
	}
	if code, _ := c.do("POST", "/api/games/"+st.ID+"/resign", ""); code != 409 {
		t.Errorf("resigning twice: status %d, want 409", code)
	}
	if code, _ := c.do("POST", "/api/games/"+st.ID+"/engine", ""); code != 409 {
		t.Errorf("engine move after the resignation: status %d, want 409", code)
	}
	_, pdnText := c.do("GET", "/api/games/"+st.ID+"/pdn", "")
	if !strings.Contains(string(pdnText), "2-0") || !strings.Contains(string(pdnText), "resigned") {
		t.Errorf("pdn after the resignation:\n%s", pdnText)
	}
}

// Issue 46: the draw rule as stated, and a draw offer through the API.
func TestServeDrawOffer(t *testing.T) {
	for _, tc := range []struct {
		score, pieces, start int
		ok                   bool
	}{
		{0, 24, 24, false},    // level, every piece on the board
		{0, 12, 24, true},     // level, half left
		{20, 12, 24, true},    // at the bound
		{21, 6, 24, false},    // the engine better
		{-101, 24, 24, true},  // the engine clearly worse
		{-100, 24, 24, false}, // not clearly
	} {
		if ok, why := drawRule(tc.score, tc.pieces, tc.start); ok != tc.ok || why == "" {
			t.Errorf("drawRule(%d, %d, %d) = %v %q, want %v", tc.score, tc.pieces, tc.start, ok, why, tc.ok)
		}
	}
	c, _ := newClient(t, Options{})
	// the start: declined (every piece is on the board)
	st := c.state(201, "POST", "/api/games", `{"variant":"italian","nodes":50}`)
	var r DrawReply
	code, b := c.do("POST", "/api/games/"+st.ID+"/draw", "")
	if code != 200 || json.Unmarshal(b, &r) != nil || r.Accepted || r.State.Over || !strings.Contains(r.Reason, "declines") {
		t.Errorf("draw at the start: %d %s", code, b)
	}
	// a king each: level, few pieces, accepted
	st = c.state(201, "POST", "/api/games", `{"variant":"italian","fen":"W:WK29:BK4","nodes":50}`)
	code, b = c.do("POST", "/api/games/"+st.ID+"/draw", "")
	if code != 200 || json.Unmarshal(b, &r) != nil || !r.Accepted || !r.State.Over || r.State.End != "agreed" || r.State.Result != "1-1" {
		t.Errorf("draw with a king each: %d %s", code, b)
	}
}

// Issue 46: a game the page kept comes back under its id with its moves;
// the board after any ply can be looked at.
func TestServeBringBackAndPly(t *testing.T) {
	c, _ := newClient(t, Options{})
	st := c.state(201, "POST", "/api/games", `{"variant":"international","nodes":50}`)
	first := st.Moves[0].Text
	st = c.state(200, "POST", "/api/games/"+st.ID+"/move", `{"move":"`+first+`"}`)
	second := st.Moves[0].Text
	st = c.state(200, "POST", "/api/games/"+st.ID+"/move", `{"move":"`+second+`"}`)
	b, _ := json.Marshal(map[string]any{"variant": "international", "side": "black", "level": "3", "id": "0123456789abcdef", "fen": st.Start, "moves": st.History})
	back := c.state(201, "POST", "/api/games", string(b))
	if back.ID != "0123456789abcdef" || back.FEN != st.FEN || len(back.History) != 2 || back.Human != "black" || back.Level != "3" || back.Variant != "international" {
		t.Errorf("brought back: id %s fen %s history %v human %s level %s variant %s; want fen %s", back.ID, back.FEN, back.History, back.Human, back.Level, back.Variant, st.FEN)
	}
	if code, _ := c.do("POST", "/api/games", string(b)); code != 409 {
		t.Errorf("the same id twice: status %d, want 409", code)
	}
	b, _ = json.Marshal(map[string]any{"variant": "international", "fen": st.Start, "moves": st.History, "ended": "resigned"})
	if back := c.state(201, "POST", "/api/games", string(b)); !back.Over || back.End != "resigned" || back.Winner != "black" {
		t.Errorf("brought back resigned: over %v end %q winner %q", back.Over, back.End, back.Winner)
	}
	for _, bad := range []string{`{"ended":"won"}`, `{"id":"xyz"}`, `{"id":"0123456789ABCDEF"}`, `{"moves":["32-28","32-28"]}`} {
		if code, body := c.do("POST", "/api/games", bad); code != 400 {
			t.Errorf("%s: status %d %s, want 400", bad, code, body)
		}
	}
	var pv PlyView
	code, body := c.do("GET", "/api/games/"+st.ID+"/ply/1", "")
	if code != 200 || json.Unmarshal(body, &pv) != nil || pv.Ply != 1 || pv.Last == nil || pv.Last.Text != first || pv.FEN == st.FEN || pv.FEN == st.Start {
		t.Errorf("ply 1: %d %s", code, body)
	}
	pv = PlyView{}
	code, body = c.do("GET", "/api/games/"+st.ID+"/ply/0", "")
	if code != 200 || json.Unmarshal(body, &pv) != nil || pv.Last != nil || pv.FEN != st.Start {
		t.Errorf("ply 0: %d %s; start %s", code, body, st.Start)
	}
	for _, n := range []string{"3", "-1", "x"} {
		if code, _ := c.do("GET", "/api/games/"+st.ID+"/ply/"+n, ""); code != 400 {
			t.Errorf("ply %s: status %d, want 400", n, code)
		}
	}
}
