package serve

// The browser tests drive a real headless Chromium through
// github.com/chromedp/chromedp (a test-only dependency: no package of the
// engine imports it). chromedp starts /usr/bin/chromium and speaks the
// DevTools protocol to it over a pipe; the clicks are real mouse events at
// the elements' places on the screen, not calls into the page's script.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chromiumPath is the Chromium the browser tests drive: $CHROMIUM when
// set, else Debian's chromium (which .ci/run installs), else the first of
// the usual names on the PATH.
var chromiumPath = findChromium()

// findChromium returns the Chromium to drive, or Debian's path when none
// is found (the tests then skip, naming it).
func findChromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	const debian = "/usr/bin/chromium"
	if _, err := os.Stat(debian); err == nil {
		return debian
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return debian
}

// hangGuard bounds each step in the browser: a guard against a hang, not a
// timing check.
const hangGuard = 90 * time.Second

// browserSetup skips where Chromium is missing or under -short, and gives
// the folder for the screenshots: $SERVE_SCREENSHOTS when set, else the
// test's temporary folder.
func browserSetup(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("browser test skipped: %s not found (apt-get install chromium, or set $CHROMIUM, to run it)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	dir := os.Getenv("SERVE_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browser is a headless Chromium driven by chromedp, and its current tab.
type browser struct {
	t       *testing.T
	ctx     context.Context // the browser
	tab     context.Context // the page that open made last
	closeTb context.CancelFunc
}

// startChromium starts headless Chromium with a window of width×height and
// closes it when the test ends.
func startChromium(t *testing.T, width, height int) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox, // root in CI containers
		chromedp.DisableGPU,
		chromedp.WindowSize(width, height),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	b := &browser{t: t, ctx: ctx}
	t.Cleanup(func() {
		if b.closeTb != nil {
			b.closeTb()
		}
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", chromiumPath, err)
	}
	return b
}

// open closes the last page and makes a new one of width×height (a phone's
// when mobile) at url, waiting for it to load.
func (c *browser) open(url string, width, height int, mobile bool) {
	c.t.Helper()
	if c.closeTb != nil {
		c.closeTb()
	}
	c.tab, c.closeTb = chromedp.NewContext(c.ctx)
	if err := chromedp.Do(c.tab); err != nil { // the new tab, with no time bound
		c.t.Fatal(err)
	}
	var emu []chromedp.EmulateViewportOption
	if mobile {
		emu = append(emu, chromedp.EmulateMobile)
	}
	c.do("open "+url, chromedp.EmulateViewport(int64(width), int64(height), emu...), chromedp.Navigate(url))
}

// do runs steps in the current page.
func (c *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, hangGuard)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		c.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its JSON value into out, unless out is nil.
func (c *browser) eval(expr string, out any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, hangGuard)
	defer cancel()
	if out == nil {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](expr, chromedp.EvalAwaitPromise)); err != nil {
			c.t.Fatalf("%s: %v", expr, err)
		}
		return
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		c.t.Fatalf("%s: %v", expr, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		c.t.Fatalf("%s: %v in %s", expr, err, raw)
	}
}

// waitFor waits until the JavaScript condition cond holds in the page.
func (c *browser) waitFor(what, cond string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, hangGuard+10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(hangGuard)))
	if err == nil {
		return
	}
	if !errors.Is(err, chromedp.ErrPollingTimeout) {
		c.t.Fatalf("waiting for %s: %v", what, err)
	}
	var dbg string
	c.eval(`JSON.stringify({status: document.getElementById("status").textContent, error: document.getElementById("error").textContent})`, &dbg)
	c.t.Fatalf("waiting for %s: %s", what, dbg)
}

// click clicks the middle of the square named n with the mouse.
func (c *browser) click(n string) {
	c.t.Helper()
	c.clickEl(`#board rect.sq[data-n="` + n + `"]`)
}

// clickEl clicks the middle of the element sel (a CSS selector) with the
// mouse.
func (c *browser) clickEl(sel string) {
	c.t.Helper()
	c.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// keys types text key by key, as a keyboard would, then Enter.
func (c *browser) keys(text string) {
	c.t.Helper()
	c.do("type "+text, chromedp.KeyEvent(text+kb.Enter))
}

// reload reloads the page and waits for it to load.
func (c *browser) reload() {
	c.t.Helper()
	c.do("reload", chromedp.Reload())
}

// screenshot saves the page as a PNG in dir and returns its path.
func (c *browser) screenshot(dir, name string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, hangGuard)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		c.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		c.t.Fatal(err)
	}
	return path
}

// ready is the page's condition for a drawn board with no request running.
const ready = `typeof st !== "undefined" && st && document.getElementById("board").dataset.busy === "0"`

// TestBrowser loads the page in headless Chromium, plays by clicking the
// squares, checks the board and the engine's replies, and saves
// screenshots (to $SERVE_SCREENSHOTS when set, else a temporary folder).
func TestBrowser(t *testing.T) {
	dir := browserSetup(t)
	ts := httptest.NewServer(New(Options{TableLog2: 16}))
	defer ts.Close()
	c := startChromium(t, 1100, 820)

	t.Run("italian", func(t *testing.T) {
		c.t = t
		c.open(ts.URL+"/?variant=italian&level=3&nodes=300", 1100, 820, false)
		c.waitFor("the board", ready+` && st.variant === "italian"`)
		for i := 0; i < 3; i++ {
			var path []string
			c.eval(`st.moves[st.moves.length - 1].path`, &path)
			for _, n := range path {
				c.click(n)
			}
			want := 2 * (i + 1)
			c.waitFor("the engine's reply", ready+fmt.Sprintf(` && st.history.length === %d`, want))
			var got struct {
				Last  string
				Reply string
				Piece string
				Score string
			}
			c.eval(`({Last: st.history[`+fmt.Sprint(want-2)+`], Reply: st.history[`+fmt.Sprint(want-1)+`], Piece: (document.querySelector('#board g.piece[data-n="`+path[len(path)-1]+`"]') || {dataset: {}}).dataset.piece || "",
				Score: document.getElementById("score").textContent})`, &got)
			if got.Last != strings.Join(path, "-") && !strings.Contains(got.Last, "x") {
				t.Errorf("move %d: played %s, clicked %v", i+1, got.Last, path)
			}
			// (unless the engine's reply captured it there)
			if got.Piece != "w" && !strings.Contains(got.Reply, "x") {
				t.Errorf("move %d: square %s shows %q after the reply %s, want a white man", i+1, path[len(path)-1], got.Piece, got.Reply)
			}
			if got.Score == "" {
				t.Errorf("move %d: no engine score shown", i+1)
			}
		}
		// the last move's two squares are marked
		var marked int
		c.eval(`document.querySelectorAll("#board .lastsq").length`, &marked)
		if marked != 2 {
			t.Errorf("%d squares of the last move marked, want 2", marked)
		}
		// a move typed with the keyboard, nothing focused first: the first
		// key takes the focus to the move box
		var typed string
		c.eval(`st.moves[0].text`, &typed)
		c.eval(`document.activeElement.blur(); document.activeElement === document.body`, nil)
		c.keys(typed)
		c.waitFor("the typed move and the reply", ready+` && st.history.length === 8`)
		var got string
		c.eval(`st.history[6]`, &got)
		if got != typed {
			t.Errorf("typed %s, played %s", typed, got)
		}
		// FEN and PDN export into the text box
		c.clickEl("#fenbtn")
		c.waitFor("the FEN", `!document.getElementById("export").hidden && document.getElementById("export").value === st.fen`)
		c.clickEl("#pdnbtn")
		c.waitFor("the PDN", `document.getElementById("export").value.includes('[White "you"]') && document.getElementById("export").value.includes("4. "+st.history[6])`)
		// flip turns the board: square 1 (a8) goes from the top to the bottom
		top := `document.querySelector('#board rect.sq[data-n="1"]').getBoundingClientRect().y`
		var before, after float64
		c.eval(top, &before)
		c.eval(`document.getElementById("flip").click(); true`, nil)
		c.eval(top, &after)
		if !(after > before) {
			t.Errorf("flip: square 1 at y=%v, before at y=%v; want it lower", after, before)
		}
		c.eval(`document.getElementById("flip").click(); true`, nil)
		t.Logf("screenshot %s", c.screenshot(dir, "italian"))
	})

	t.Run("multi-capture", func(t *testing.T) {
		c.t = t
		c.open(ts.URL+"/?variant=english&nodes=200", 1100, 820, false)
		c.waitFor("the board", ready)
		c.eval(`document.getElementById("fen").value = "W:W19,32:B15,7,12"; document.getElementById("newgame").click(); true`, nil)
		c.waitFor("the position", ready+` && st.history.length === 0 && st.moves.length === 1 && st.moves[0].text === "19x10x3"`)
		c.click("19")
		c.click("10")
		var targets int
		c.eval(`document.querySelectorAll("#board .target").length`, &targets)
		if targets != 1 {
			t.Errorf("after 19 and 10: %d targets highlighted, want 1 (square 3)", targets)
		}
		c.click("3")
		c.waitFor("the capture and the reply", ready+` && st.history.length === 2`)
		var first string
		c.eval(`st.history[0]`, &first)
		if first != "19x10x3" {
			t.Errorf("played %s, want 19x10x3", first)
		}
		c.clickEl("#undo")
		c.waitFor("the undo", ready+` && st.history.length === 0`)
		c.click("19")
		c.click("10")
		c.click("3")
		c.waitFor("the reply", ready+` && st.history.length === 2`)
		var king string
		c.eval(`document.querySelector('#board g.piece[data-n="3"]').dataset.piece`, &king)
		if king != "W" {
			t.Errorf("square 3 shows %q after 19x10x3, want a white king", king)
		}
		t.Logf("screenshot %s", c.screenshot(dir, "english-capture"))
	})

	t.Run("engine-capture", func(t *testing.T) {
		c.t = t
		// the engine has White and opens with the crowning double capture
		c.open(ts.URL+"/?variant=english&side=black&nodes=200", 1100, 820, false)
		c.waitFor("the board", ready)
		c.eval(`document.getElementById("fen").value = "W:W19,32:B15,7,12"; document.getElementById("newgame").click(); true`, nil)
		c.waitFor("the engine's capture", ready+` && st.history.length === 1 && st.history[0] === "19x10x3"`)
		var shown struct{ Ghosts, Promoted int }
		c.eval(`({Ghosts: document.querySelectorAll("#board .ghost").length, Promoted: document.querySelectorAll("#board .promoted").length})`, &shown)
		if shown.Ghosts != 2 || shown.Promoted != 1 {
			t.Errorf("after the engine's 19x10x3: %d captured pieces shown (want 2), %d crownings (want 1)", shown.Ghosts, shown.Promoted)
		}
		t.Logf("screenshot %s", c.screenshot(dir, "engine-capture"))
	})

	t.Run("thinking", func(t *testing.T) {
		c.t = t
		// the engine has White and a second to think: its score and line
		// are shown while it thinks, streamed
		c.open(ts.URL+"/?variant=italian&side=black&level=max&movetime=1", 1100, 820, false)
		c.waitFor("the engine's report while it thinks", `typeof st !== "undefined" && st && document.body.classList.contains("thinking") && document.getElementById("score").textContent !== "" && document.getElementById("pv").textContent !== ""`)
		var during struct{ Score, Depth string }
		c.eval(`({Score: document.getElementById("score").textContent, Depth: document.getElementById("depth").textContent})`, &during)
		t.Logf("while thinking: %s %s", during.Score, during.Depth)
		t.Logf("screenshot %s", c.screenshot(dir, "thinking"))
		c.waitFor("the engine's move", ready+` && st.history.length === 1`)
		var after struct{ PV, Move, Status string }
		c.eval(`({PV: document.getElementById("pv").textContent, Move: st.history[0], Status: document.getElementById("status").textContent})`, &after)
		if !strings.HasPrefix(after.PV+" ", after.Move+" ") {
			t.Errorf("engine played %s, the line shown is %q", after.Move, after.PV)
		}
		if !strings.HasPrefix(after.Status, "Your move") {
			t.Errorf("status after the engine's move: %q", after.Status)
		}
	})

	// every other rule set the page offers (Italian is above): a move by
	// clicks, the engine's reply and a screenshot named after the rule set,
	// Russian on a phone's screen
	for _, v := range servedVariants() {
		tc := struct {
			variant string
			w, h    int
			mobile  bool
		}{variantName(v), 1100, 820, false}
		switch tc.variant {
		case "italian":
			continue
		case "russian":
			tc.w, tc.h, tc.mobile = 390, 844, true
		}
		t.Run(tc.variant, func(t *testing.T) {
			c.t = t
			c.open(ts.URL+"/?variant="+tc.variant+"&level=2&nodes=300", tc.w, tc.h, tc.mobile)
			c.waitFor("the board", ready+` && st.variant === "`+tc.variant+`"`)
			var n struct{ Rects, Squares int }
			c.eval(`({Rects: document.querySelectorAll("#board rect.sq").length, Squares: st.squares.length})`, &n)
			if n.Rects != n.Squares {
				t.Errorf("%d squares drawn, %d on the board", n.Rects, n.Squares)
			}
			// (in English Black, the engine, has moved first)
			var before struct {
				N    int
				Path []string
			}
			c.eval(`({N: st.history.length, Path: st.moves[0].path})`, &before)
			for _, sq := range before.Path {
				c.click(sq)
			}
			c.waitFor("the engine's reply", ready+fmt.Sprintf(` && st.history.length === %d`, before.N+2))
			if tc.mobile {
				// the board and the panel fit the phone's width: no sideways
				// scrolling
				var fit struct{ Page, Board, Width float64 }
				c.eval(`({Page: document.documentElement.scrollWidth, Board: document.getElementById("board").getBoundingClientRect().right, Width: window.innerWidth})`, &fit)
				if fit.Page > fit.Width || fit.Board > fit.Width {
					t.Errorf("page %v px wide, board to %v px, window %v px", fit.Page, fit.Board, fit.Width)
				}
			}
			t.Logf("screenshot %s", c.screenshot(dir, tc.variant))
		})
	}
}
