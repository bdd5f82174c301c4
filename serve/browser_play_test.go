package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 46: a refused click says why; a whole game at level 1 played by
// clicks ends with "You won", "You lost" or "Draw" and its rating; a
// reload brings the game back; the move list shows earlier positions.
func TestBrowserPlay(t *testing.T) {
	dir := browserSetup(t)
	ts := httptest.NewServer(New(Options{TableLog2: 16}))
	defer ts.Close()
	c := startChromium(t, 1100, 820)
	note := `document.getElementById("note").textContent`

	t.Run("refused", func(t *testing.T) {
		c.t = t
		c.open(ts.URL+"/?variant=italian&nodes=200", 1100, 820, false)
		c.waitFor("the board", ready+` && st.variant === "italian" && st.history.length === 0`)
		c.click("1") // Black's man
		c.waitFor("the reason", note+`.includes("the engine's piece")`)
		c.click("30") // White's man behind its own men
		c.waitFor("the reason", note+` === "This piece cannot move."`)
		// a capture is forced: White 22 must take 18 (22x13); 29 may not move
		c.eval(`document.getElementById("fen").value = "W:W22,29:B18,1"; document.getElementById("newgame").click(); true`, nil)
		c.waitFor("the position", ready+` && st.start === "W:W22,29:B1,18"`)
		c.click("29")
		var got string
		c.waitFor("the reason", note+`.startsWith("A capture is mandatory")`)
		c.eval(note, &got)
		if got != "A capture is mandatory: 22x13." {
			t.Errorf("note %q", got)
		}
		t.Logf("screenshot %s", c.screenshot(dir, "refused"))
	})

	t.Run("actions", func(t *testing.T) {
		c.t = t
		// Engine move on your own turn: it plays your move, then answers
		c.open(ts.URL+"/?variant=italian&level=2", 1100, 820, false)
		c.waitFor("the board", ready+` && st.variant === "italian" && st.history.length === 0`)
		c.clickEl("#go")
		c.waitFor("both moves", ready+` && st.history.length === 2`)
		var r string
		c.eval(`document.getElementById("rating").textContent`, &r)
		if !strings.Contains(r, "nrated: the engine played a move for you") {
			t.Errorf("after Engine move on your turn: %q", r)
		}
		// a draw offer at the start is declined, with the reason
		c.clickEl("#draw")
		c.waitFor("the answer", ready+` && `+note+`.startsWith("The engine declines")`)
		// resign
		c.eval(`window.confirm = () => true; true`, nil)
		c.clickEl("#resign")
		c.waitFor("the resignation", ready+` && st.over`)
		var s string
		c.eval(`document.getElementById("status").textContent`, &s)
		if s != "You lost — you resigned" {
			t.Errorf("after resigning: %q", s)
		}
		c.click("22")
		c.waitFor("the reason", note+`.includes("game is over")`)
		// New game while the engine thinks (full strength, 5 s a move):
		// the search is stopped and the new game starts at once
		c.open(ts.URL+"/?variant=international&side=black&level=max&movetime=5", 1100, 820, false)
		c.waitFor("the engine thinking", `typeof st !== "undefined" && st && document.body.classList.contains("thinking")`)
		var old string
		c.eval(`st.id`, &old)
		c.eval(`document.getElementById("side").value = "white"; document.getElementById("newgame").click(); true`, nil)
		start := time.Now()
		c.waitFor("the new game", ready+` && st.id !== "`+old+`" && st.human === "white" && st.history.length === 0`)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("the new game took %v", d)
		}
	})

	t.Run("game-reload-lookback", func(t *testing.T) {
		c.t = t
		c.open(ts.URL+"/?variant=italian&level=1", 1100, 820, false)
		c.waitFor("the board", ready+` && st.variant === "italian" && st.history.length === 0`)
		var id string
		c.eval(`st.id`, &id)
		// two moves, then a reload: the same game comes back
		for i := 1; i <= 2; i++ {
			var path []string
			c.eval(`st.moves[0].path`, &path)
			for _, n := range path {
				c.click(n)
			}
			c.waitFor("the reply", ready+fmt.Sprintf(` && st.history.length === %d`, 2*i))
		}
		var before []string
		c.eval(`st.history`, &before)
		c.reload()
		c.waitFor("the game brought back", ready+` && st.history.length === 4`)
		var after struct {
			ID, URL string
			History []string
		}
		c.eval(`({ID: st.id, URL: location.search, History: st.history})`, &after)
		if after.ID != id || !strings.Contains(after.URL, "game="+id) || strings.Join(after.History, " ") != strings.Join(before, " ") {
			t.Errorf("after the reload: id %s url %s history %v; before id %s history %v", after.ID, after.URL, after.History, id, before)
		}
		// the move list: the position after the first move, then back
		c.clickEl(`#history button.ply[data-ply="1"]`)
		c.waitFor("the earlier position", `document.getElementById("board").dataset.view === "1"`)
		c.click(after.History[1][:2]) // any click while looking back says why
		c.waitFor("the reason", note+`.includes("looking back")`)
		c.clickEl("#backtogame")
		c.waitFor("the game again", `document.getElementById("board").dataset.view === ""`)
		// the rest of the game, by clicks, to its result
		for ply := 0; ply < 300; ply++ {
			var s struct {
				Over bool
				Path []string
				N    int
			}
			c.eval(`({Over: st.over, Path: st.moves.length ? st.moves[0].path : [], N: st.history.length})`, &s)
			if s.Over {
				break
			}
			for _, n := range s.Path {
				c.click(n)
			}
			c.waitFor("the reply", ready+fmt.Sprintf(` && (st.over || st.history.length >= %d)`, s.N+2))
		}
		var end struct{ Status, Rating, Ended string }
		c.eval(`({Status: document.getElementById("status").textContent, Rating: document.getElementById("rating").textContent, Ended: String(st.over)})`, &end)
		t.Logf("%s · %s", end.Status, end.Rating)
		if !regexp.MustCompile(`^(You won|You lost|Draw) — `).MatchString(end.Status) {
			t.Errorf("the game's end: %q (over %s)", end.Status, end.Ended)
		}
		if !strings.HasPrefix(end.Rating, "Your italian rating: 1200 → ") {
			t.Errorf("rating after the game: %q", end.Rating)
		}
		t.Logf("screenshot %s", c.screenshot(dir, "level1-game"))
		// a take-back makes the game unrated, and the page says so
		c.clickEl("#undo")
		c.waitFor("the take-back", ready+` && !st.over`)
		c.eval(`document.getElementById("rating").textContent`, &end.Rating)
		if !strings.Contains(strings.ToLower(end.Rating), "unrated") {
			t.Errorf("after a take-back: %q", end.Rating)
		}
	})
}

// Issue 46: the static site (serve --export) from a plain file server, the
// engine in the page as WebAssembly: a legal engine move in Italian,
// International and Turkish, a screenshot of each.
func TestBrowserStatic(t *testing.T) {
	dir := browserSetup(t)
	site := t.TempDir()
	if err := Export(ExportOptions{Dir: site, BuildFlags: []string{"-p", "1"}}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer ts.Close()
	c := startChromium(t, 1100, 820)
	for _, variant := range []string{"italian", "international", "turkish"} {
		t.Run(variant, func(t *testing.T) {
			c.t = t
			c.open(ts.URL+"/?variant="+variant+"&level=2", 1100, 820, false)
			c.waitFor("the board", ready+` && st.variant === "`+variant+`"`)
			var mode string
			c.eval(`document.getElementById("mode").textContent`, &mode)
			if !strings.Contains(mode, "WebAssembly") {
				t.Errorf("mode %q", mode)
			}
			var path []string
			c.eval(`st.moves[0].path`, &path)
			for _, n := range path {
				c.click(n)
			}
			c.waitFor("the engine's reply", ready+` && st.history.length === 2`)
			var score string
			c.eval(`document.getElementById("score").textContent`, &score)
			if !strings.HasPrefix(score, "Score for you: ") {
				t.Errorf("score %q", score)
			}
			t.Logf("screenshot %s", c.screenshot(dir, "static-"+variant))
		})
	}
	t.Run("stop-and-reload", func(t *testing.T) {
		c.t = t
		// New game while the WebAssembly engine thinks: the worker is
		// replaced and the new game starts at once
		c.open(ts.URL+"/?variant=italian&side=black&level=max&movetime=5", 1100, 820, false)
		c.waitFor("the engine thinking", `typeof st !== "undefined" && st && document.body.classList.contains("thinking")`)
		c.eval(`document.getElementById("side").value = "white"; document.getElementById("newgame").click(); true`, nil)
		start := time.Now()
		c.waitFor("the new game", ready+` && st.human === "white" && st.history.length === 0`)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("the new game took %v", d)
		}
		var path []string
		c.eval(`st.moves[0].path`, &path)
		for _, n := range path {
			c.click(n)
		}
		c.waitFor("the reply", ready+` && st.history.length === 2`)
		var before string
		c.eval(`st.history.join(" ")`, &before)
		// a reload: a new worker, the game brought back from the browser
		c.reload()
		c.waitFor("the game brought back", ready+` && st.history.length === 2`)
		var after string
		c.eval(`st.history.join(" ")`, &after)
		if after != before {
			t.Errorf("after the reload %q, before %q", after, before)
		}
	})
}
