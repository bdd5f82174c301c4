package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzJSONRequests sends any body, under any content type, to the API's
// JSON requests that change state (a new game, a move, an undo): each is
// answered 2xx, or 4xx with a JSON error, never 5xx or a panic; a game made
// has a move time within the server's bounds and a node cap in range, so
// that its engine requests end by themselves. The seed corpus is in
// testdata/fuzz/FuzzJSONRequests.
func FuzzJSONRequests(f *testing.F) {
	s := New(Options{TableLog2: 10, MaxGames: 4})
	// the last: POST where only GET is served (405 from the mux)
	paths := []string{"/api/games", "/move", "/undo", ""}
	newGame := func(t *testing.T) string {
		g, err := s.makeGame(newGameRequest{Variant: "italian", Side: "white", Level: "1", MoveTime: "1", Nodes: "0"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.add(g); err != nil {
			t.Fatal(err)
		}
		return g.id
	}
	base := ""
	f.Fuzz(func(t *testing.T, body, contentType string, which uint8) {
		path := paths[int(which)%len(paths)]
		if path != "/api/games" {
			s.mu.Lock()
			_, ok := s.games[base]
			s.mu.Unlock()
			if !ok {
				base = newGame(t)
			}
			path = "/api/games/" + base + path
		}
		r := httptest.NewRequest("POST", path, strings.NewReader(body))
		r.Host = "localhost"
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		code := w.Code
		if code >= 500 || code < 200 {
			t.Fatalf("POST %s %q (%q): status %d %s", path, body, contentType, code, w.Body.String())
		}
		if code >= 400 {
			var e struct{ Error string }
			if err := json.Unmarshal(w.Body.Bytes(), &e); code != http.StatusMethodNotAllowed && (err != nil || e.Error == "") {
				t.Fatalf("POST %s %q: status %d without a JSON error: %s", path, body, code, w.Body.String())
			}
			return
		}
		if path != "/api/games" {
			return
		}
		var st State
		if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
			t.Fatalf("new game %q: %v", body, err)
		}
		s.mu.Lock()
		g := s.games[st.ID]
		s.mu.Unlock()
		if g == nil {
			t.Fatalf("new game %q: game %s not kept", body, st.ID)
		}
		if g.moveTime < minMoveTime || g.moveTime > s.opt.MaxMoveTime || g.nodes > maxNodes {
			t.Fatalf("new game %q: move time %v, nodes %d out of bounds", body, g.moveTime, g.nodes)
		}
	})
}
