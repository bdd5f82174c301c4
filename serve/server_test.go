package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/search"
)

// client talks to a test server.
type client struct {
	t    *testing.T
	base string
}

func newClient(t *testing.T, opt Options) (*client, *Server) {
	t.Helper()
	if opt.TableLog2 == 0 {
		opt.TableLog2 = 16
	}
	s := New(opt)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &client{t: t, base: ts.URL}, s
}

// do sends a request and returns the status and body.
func (c *client) do(method, path, body string, header ...string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		switch {
		case header[i] == "Host":
			req.Host = header[i+1]
		case header[i+1] == "":
			req.Header.Del(header[i])
		default:
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return res.StatusCode, b
}

// state sends a request that must answer a State with the status want.
func (c *client) state(want int, method, path, body string) State {
	c.t.Helper()
	code, b := c.do(method, path, body)
	if code != want {
		c.t.Fatalf("%s %s %s: status %d, want %d: %s", method, path, body, code, want, b)
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		c.t.Fatalf("%s %s: %v in %s", method, path, err, b)
	}
	return s
}

// TestGamePerVariant plays a whole short game of every variant through the
// API: the person's side plays legal moves from the move list, the engine
// answers on a tiny node budget, until the game ends (or a ply cap). The
// PDN export must read back to the same position.
func TestGamePerVariant(t *testing.T) {
	c, _ := newClient(t, Options{})
	maxPlies := 400
	if testing.Short() {
		maxPlies = 40
	}
	for _, v := range movegen.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			c := &client{t: t, base: c.base}
			s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"`+v.Name+`","level":"max","nodes":300}`)
			if len(s.Squares) != v.Squares || s.Files != v.Files() || s.Ranks != v.Ranks() {
				t.Fatalf("board %dx%d with %d squares, want %dx%d with %d", s.Files, s.Ranks, len(s.Squares), v.Files(), v.Ranks(), v.Squares)
			}
			for ply := 0; !s.Over && ply < maxPlies; ply++ {
				if s.ToMove == s.Human {
					if len(s.Moves) == 0 {
						t.Fatalf("no moves listed but not over: %s", s.FEN)
					}
					mv := s.Moves[ply%len(s.Moves)]
					s = c.state(http.StatusOK, "POST", "/api/games/"+s.ID+"/move", `{"move":"`+mv.Text+`"}`)
					if s.Last == nil || s.Last.Text != mv.Text {
						t.Fatalf("played %s, last move is %+v", mv.Text, s.Last)
					}
					continue
				}
				code, b := c.do("POST", "/api/games/"+s.ID+"/engine", "")
				if code != http.StatusOK {
					t.Fatalf("engine: status %d: %s", code, b)
				}
				var r EngineReply
				if err := json.Unmarshal(b, &r); err != nil {
					t.Fatal(err)
				}
				if r.State.Last == nil || r.State.Last.Text != r.Move.Text {
					t.Fatalf("engine played %s, last is %+v", r.Move.Text, r.State.Last)
				}
				if len(r.Thought.PV) == 0 || r.Thought.PV[0] != r.Move.Text {
					t.Fatalf("engine played %s, its line shown is %v", r.Move.Text, r.Thought.PV)
				}
				s = r.State
			}
			if len(s.History) == 0 {
				t.Fatal("no move was played")
			}
			code, b := c.do("GET", "/api/games/"+s.ID+"/pdn", "")
			if code != http.StatusOK {
				t.Fatalf("pdn: %d %s", code, b)
			}
			games, err := pdn.Read(strings.NewReader(string(b)), v)
			if err != nil || len(games) != 1 {
				t.Fatalf("PDN does not read back (%v):\n%s", err, b)
			}
			p := games[0].Start
			for _, m := range games[0].Moves {
				p.Play(m)
			}
			if got := v.FEN(&p); got != s.FEN || len(games[0].Moves) != len(s.History) {
				t.Errorf("PDN replays to %s after %d moves, the game is at %s after %d", got, len(games[0].Moves), s.FEN, len(s.History))
			}
			if s.Over && games[0].Result != s.Result {
				t.Errorf("PDN result %s, game %s", games[0].Result, s.Result)
			}
			code, b = c.do("GET", "/api/games/"+s.ID+"/fen", "")
			if code != http.StatusOK || strings.TrimSpace(string(b)) != s.FEN {
				t.Errorf("fen: %d %q, want %q", code, b, s.FEN)
			}
			t.Logf("%d plies, over=%v %s %s", len(s.History), s.Over, s.Result, s.Status)
		})
	}
}

// TestBadRequests checks that bad input is answered with a clear 4xx and
// leaves the game as it was.
func TestBadRequests(t *testing.T) {
	c, _ := newClient(t, Options{})
	for _, tc := range []struct{ body, want string }{
		{`{bad`, "bad JSON"},
		{`{"variant":"chess"}`, "unknown variant"},
		{`{"level":"11"}`, "unknown level"},
		{`{"side":"red"}`, "not white or black"},
		{`{"fen":"W:W33:B1"}`, "bad fen"},
		{`{"movetime":-1}`, "movetime"},
		{`{"movetime":1e9}`, "movetime"},
		{`{"variant":"italian","colour":"white"}`, "unknown field"},
		{`{} {}`, "more than one value"},
	} {
		code, b := c.do("POST", "/api/games", tc.body)
		if code != http.StatusBadRequest || !strings.Contains(string(b), tc.want) {
			t.Errorf("new game %s: %d %s, want 400 naming %q", tc.body, code, b, tc.want)
		}
	}
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"english","nodes":200}`)
	id := "/api/games/" + s.ID
	before := c.state(http.StatusOK, "GET", id, "")
	for _, tc := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/move", `{"move":"22-11"}`, http.StatusUnprocessableEntity, "not legal"},
		{"POST", "/move", `{"move":"zz"}`, http.StatusUnprocessableEntity, ""},
		{"POST", "/move", `{"move":""}`, http.StatusBadRequest, "no move"},
		{"POST", "/move", `{"move":22}`, http.StatusBadRequest, "bad JSON"},
		{"POST", "/move", `[`, http.StatusBadRequest, "bad JSON"},
		{"POST", "/undo", ``, http.StatusConflict, "0 played"},
		{"POST", "/undo", `{"plies":0}`, http.StatusBadRequest, "plies 0 out of range"},
		{"POST", "/engine", `{"x":1}`, http.StatusBadRequest, "unknown field"},
		{"GET", "/nothing", ``, http.StatusNotFound, ""},
		{"PUT", "/move", `{}`, http.StatusMethodNotAllowed, ""},
	} {
		code, b := c.do(tc.method, id+tc.path, tc.body)
		if code != tc.code || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s %s %s: %d %s, want %d naming %q", tc.method, tc.path, tc.body, code, b, tc.code, tc.want)
		}
	}
	after := c.state(http.StatusOK, "GET", id, "")
	if after.FEN != before.FEN || len(after.History) != len(before.History) {
		t.Errorf("bad requests changed the game: %s → %s", before.FEN, after.FEN)
	}
	if code, b := c.do("POST", "/api/games/feedfacefeedface/move", `{"move":"9-13"}`); code != http.StatusNotFound || !strings.Contains(string(b), "no game") {
		t.Errorf("unknown game: %d %s", code, b)
	}
	if code, _ := c.do("POST", "/api/games", strings.Repeat(" ", maxBody+10)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("huge body: %d", code)
	}
}

// TestMoveUndoFENAndCapturePath plays a capture given by its path, checks
// the captured pieces and the promotion reported, and takes moves back.
func TestMoveUndoFENAndCapturePath(t *testing.T) {
	c, _ := newClient(t, Options{})
	// English: the white man on 10 jumps 6 and lands on 1, crowned.
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"english","fen":"W:W10,32:B6,28"}`)
	if len(s.Moves) != 1 || !s.Moves[0].Promote || len(s.Moves[0].Captured) != 1 || s.Moves[0].Captured[0] != "6" {
		t.Fatalf("moves %+v, want the one capture 10x1 taking 6 and crowning", s.Moves)
	}
	s = c.state(http.StatusOK, "POST", "/api/games/"+s.ID+"/move", `{"move":"10x1"}`)
	if s.Last == nil || !s.Last.Promote || s.Taken != [2]int{0, 1} || s.Last.Pieces[0] != "b" {
		t.Fatalf("after 10x1: last %+v taken %v", s.Last, s.Taken)
	}
	for _, sq := range s.Squares {
		if sq.Name == "1" && sq.Piece != "W" {
			t.Errorf("square 1 holds %q, want a white king", sq.Piece)
		}
	}
	s = c.state(http.StatusOK, "POST", "/api/games/"+s.ID+"/undo", `{"plies":1}`)
	if s.FEN != "W:W10,32:B6,28" || s.Last != nil || s.Taken != [2]int{} {
		t.Errorf("after undo: %s last %+v taken %v", s.FEN, s.Last, s.Taken)
	}
	// a game over: Black has no move
	o := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"english","fen":"B:W10,32:B1"}`)
	if code, _ := c.do("POST", "/api/games/"+o.ID+"/engine", ""); o.Over && code != http.StatusConflict {
		t.Errorf("engine in a finished game: %d", code)
	}
}

// TestEngineEvents reads the engine's server-sent events: info reports
// while it thinks, then done with the move played.
func TestEngineEvents(t *testing.T) {
	c, _ := newClient(t, Options{})
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"international","side":"black","nodes":2000}`)
	req, _ := http.NewRequest("POST", c.base+"/api/games/"+s.ID+"/engine", nil)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var events []string
	var reply EngineReply
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
			events = append(events, name)
		case strings.HasPrefix(line, "data: ") && name == "info":
			var th Thought
			if err := json.Unmarshal([]byte(line[6:]), &th); err != nil || th.Depth < 1 || len(th.PV) == 0 {
				t.Errorf("info %s: %v", line, err)
			}
		case strings.HasPrefix(line, "data: ") && name == "done":
			if err := json.Unmarshal([]byte(line[6:]), &reply); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(events) < 2 || events[0] != "info" || events[len(events)-1] != "done" {
		t.Fatalf("events %v, want info... done", events)
	}
	if reply.State.ToMove != "black" || len(reply.State.History) != 1 || reply.Move.Text == "" {
		t.Errorf("after the engine's move: %+v", reply.State)
	}
}

// TestCapAndIdle checks the cap on games (the least recently used goes
// first) and the idle timeout, on a clock the test moves.
func TestCapAndIdle(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	tick := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	c, srv := newClient(t, Options{MaxGames: 2, IdleTimeout: time.Minute, Now: clock})
	a := c.state(http.StatusCreated, "POST", "/api/games", "")
	tick(time.Second)
	b := c.state(http.StatusCreated, "POST", "/api/games", "")
	tick(time.Second)
	c.state(http.StatusOK, "GET", "/api/games/"+a.ID, "") // a is now the more recent
	tick(time.Second)
	c.state(http.StatusCreated, "POST", "/api/games", "")
	if code, _ := c.do("GET", "/api/games/"+b.ID, ""); code != http.StatusNotFound {
		t.Errorf("the least recently used game is still there (%d)", code)
	}
	c.state(http.StatusOK, "GET", "/api/games/"+a.ID, "")
	tick(2 * time.Minute)
	if code, _ := c.do("GET", "/api/games/"+a.ID, ""); code != http.StatusNotFound {
		t.Errorf("an idle game is still there (%d)", code)
	}
	c.state(http.StatusCreated, "POST", "/api/games", "")
	if n := srv.Games(); n != 1 {
		t.Errorf("%d games kept, want 1 (idle ones dropped)", n)
	}
	if code, _ := c.do("DELETE", "/api/games/"+a.ID, ""); code != http.StatusNotFound {
		t.Errorf("delete of a dropped game: %d", code)
	}
}

// TestConcurrentGames runs engine moves of several games at once.
func TestConcurrentGames(t *testing.T) {
	c, _ := newClient(t, Options{})
	var wg sync.WaitGroup
	for _, v := range []string{"italian", "turkish", "damone", "russian"} {
		s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"`+v+`","nodes":300,"side":"black"}`)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				code, b := c.do("POST", "/api/games/"+s.ID+"/engine", "")
				if code != http.StatusOK {
					t.Errorf("%s engine: %d %s", v, code, b)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPage checks the embedded page and its assets are served.
func TestPage(t *testing.T) {
	c, _ := newClient(t, Options{})
	for path, want := range map[string]string{"/": "<svg id=\"board\"", "/app.js": "engineMove", "/style.css": "#board"} {
		code, b := c.do("GET", path, "")
		if code != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d, missing %q", path, code, want)
		}
	}
	code, b := c.do("GET", "/api/variants", "")
	if code != http.StatusOK || !strings.Contains(string(b), `"turkish"`) || !strings.Contains(string(b), `"max"`) {
		t.Errorf("variants: %d %s", code, b)
	}
}

// TestSettle checks that the report sent with the engine's move names that
// move first: a search stopped in the middle of a depth may play a move
// that beat the last completed depth's best, and the page must not show a
// line that starts with another move.
func TestSettle(t *testing.T) {
	v := movegen.Italian
	root := v.Start()
	var ml movegen.MoveList
	v.Generate(&root, &ml)
	a, b := ml.Moves[0], ml.Moves[1]
	reported := thought(v, root, search.Info{Depth: 5, Score: 12, Nodes: 400, PV: []movegen.Move{a}})
	after := root
	after.Play(b)
	var replies movegen.MoveList
	v.Generate(&after, &replies)
	got := settle(v, root, reported, search.Result{Move: b, HasMove: true, Ponder: replies.Moves[0], HasPonder: true, Nodes: 500})
	want := []string{v.FormatMove(&root, b), v.FormatMove(&after, replies.Moves[0])}
	if strings.Join(got.PV, " ") != strings.Join(want, " ") || got.Depth != 5 || got.Score != 12 || got.Nodes != 500 {
		t.Errorf("settled %+v, want the line %v at depth 5, score 12, 500 nodes", got, want)
	}
	// the move the report named: the report stays as it was
	same := settle(v, root, reported, search.Result{Move: a, HasMove: true, Nodes: 300})
	if strings.Join(same.PV, " ") != strings.Join(reported.PV, " ") || same.Nodes != 400 {
		t.Errorf("settled %+v, want %+v", same, reported)
	}
}

// TestBoardGeometry checks the squares the page is given for every board:
// the names at the corners (rules.md's numbering), which colour of square
// is played on, and that names and places are unique.
func TestBoardGeometry(t *testing.T) {
	c, _ := newClient(t, Options{})
	type at struct{ f, r int }
	for _, tc := range []struct {
		variant  string
		a1Dark   bool // for the diagonal boards
		diagonal bool
		names    map[at]string
	}{
		{"italian", false, true, map[at]string{{0, 7}: "1", {6, 7}: "4", {1, 6}: "5", {1, 0}: "29", {7, 0}: "32"}},
		{"damone", false, true, map[at]string{{0, 7}: "1", {7, 0}: "32"}},
		{"english", true, true, map[at]string{{1, 7}: "1", {7, 7}: "4", {0, 6}: "5", {0, 0}: "29", {6, 0}: "32"}},
		{"russian", true, true, map[at]string{{0, 0}: "a1", {2, 0}: "c1", {7, 7}: "h8", {1, 7}: "b8"}},
		{"brazilian", true, true, map[at]string{{0, 0}: "a1", {7, 7}: "h8"}},
		{"spanish", false, true, map[at]string{{7, 0}: "1", {5, 0}: "2", {1, 0}: "4", {0, 7}: "32"}},
		{"international", true, true, map[at]string{{1, 9}: "1", {9, 9}: "5", {0, 8}: "6", {0, 0}: "46", {8, 0}: "50"}},
		{"turkish", false, false, map[at]string{{0, 0}: "a1", {7, 0}: "h1", {0, 7}: "a8", {7, 7}: "h8", {4, 3}: "e4"}},
	} {
		s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"`+tc.variant+`"}`)
		if s.Diagonal != tc.diagonal {
			t.Errorf("%s: diagonal %v", tc.variant, s.Diagonal)
		}
		names, places := map[string]bool{}, map[at]string{}
		for _, sq := range s.Squares {
			p := at{sq.File, sq.Rank}
			if names[sq.Name] || places[p] != "" || sq.File < 0 || sq.File >= s.Files || sq.Rank < 0 || sq.Rank >= s.Ranks {
				t.Errorf("%s: square %q at %v repeated or off the board", tc.variant, sq.Name, p)
			}
			names[sq.Name], places[p] = true, sq.Name
			if dark := (sq.File+sq.Rank)%2 == 0; tc.diagonal && dark != tc.a1Dark {
				t.Errorf("%s: square %s at file %d rank %d is not the colour played on", tc.variant, sq.Name, sq.File, sq.Rank)
			}
		}
		if want := s.Files * s.Ranks; !tc.diagonal && len(s.Squares) != want || tc.diagonal && len(s.Squares) != want/2 {
			t.Errorf("%s: %d squares on %dx%d", tc.variant, len(s.Squares), s.Files, s.Ranks)
		}
		for p, n := range tc.names {
			if places[p] != n {
				t.Errorf("%s: file %d rank %d is %q, want %q", tc.variant, p.f, p.r, places[p], n)
			}
		}
	}
}

// TestBusyAndGone checks that while the engine thinks a move, an undo and
// a second engine request are refused with 409 and change nothing, and
// that a client that goes away stops the search at once and leaves the
// game as it was, no longer busy.
func TestBusyAndGone(t *testing.T) {
	c, _ := newClient(t, Options{})
	s := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"international","side":"black","level":"max","movetime":10}`)
	id := "/api/games/" + s.ID
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", c.base+id+"/engine", nil)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// the first info event: the search runs
	br := bufio.NewReader(res.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "event: info\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	if st := c.state(http.StatusOK, "GET", id, ""); !st.Thinking {
		t.Errorf("state while the engine thinks: thinking=false")
	}
	for _, tc := range []struct{ path, body string }{
		{"/move", `{"move":"31-27"}`}, {"/undo", `{"plies":1}`}, {"/engine", ``},
	} {
		if code, b := c.do("POST", id+tc.path, tc.body); code != http.StatusConflict || !strings.Contains(string(b), "thinking") {
			t.Errorf("POST %s while the engine thinks: %d %s, want 409", tc.path, code, b)
		}
	}
	start := time.Now()
	cancel()
	res.Body.Close()
	for {
		st := c.state(http.StatusOK, "GET", id, "")
		if !st.Thinking {
			if len(st.History) != 0 || st.FEN != s.FEN {
				t.Errorf("after the client went away: %d moves, %s", len(st.History), st.FEN)
			}
			break
		}
		if time.Since(start) > 9*time.Second { // a hang guard: the move time is 10 s
			t.Fatal("the search went on after its client went away")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, b := c.do("POST", id+"/undo", ""); code != http.StatusConflict || !strings.Contains(string(b), "0 played") {
		t.Errorf("undo after the stopped search: %d %s, want 409 naming no move played", code, b)
	}
}

// TestAssetsSelfContained checks that the page names nothing outside the
// server: no URL but the SVG namespace, no import from elsewhere.
func TestAssetsSelfContained(t *testing.T) {
	entries, err := static.ReadDir("static")
	if err != nil || len(entries) == 0 {
		t.Fatalf("embedded assets: %v", err)
	}
	for _, e := range entries {
		b, err := static.ReadFile("static/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), "http://www.w3.org/2000/svg", "")
		for _, bad := range []string{"http:", "https:", "//cdn", "@import", "url(", "import "} {
			if strings.Contains(text, bad) {
				t.Errorf("%s names %q: the page must fetch nothing from elsewhere", e.Name(), bad)
			}
		}
	}
}

// TestAllDamoniOffered: the page offers Damone with the all-Damoni rule
// beside plain Damone, and a game of it applies the rule: the position
// where White has kings but no Damone left is lost for White there, still
// played in plain Damone.
func TestAllDamoniOffered(t *testing.T) {
	c, _ := newClient(t, Options{})
	code, b := c.do("GET", "/api/variants", "")
	if code != http.StatusOK || !strings.Contains(string(b), `"name":"damone-all-damoni"`) || !strings.Contains(string(b), `"name":"damone"`) {
		t.Fatalf("variants %d: %s", code, b)
	}
	const fen = "W:WK24:BD1,K9"
	all := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"damone-all-damoni","fen":"`+fen+`"}`)
	if all.Variant != "damone-all-damoni" || !all.Over || all.Result != "0-2" {
		t.Errorf("all-Damoni game: variant %q over %v result %q status %q", all.Variant, all.Over, all.Result, all.Status)
	}
	plain := c.state(http.StatusCreated, "POST", "/api/games", `{"variant":"damone","fen":"`+fen+`"}`)
	if plain.Variant != "damone" || plain.Over {
		t.Errorf("plain Damone game: variant %q over %v status %q", plain.Variant, plain.Over, plain.Status)
	}
}
