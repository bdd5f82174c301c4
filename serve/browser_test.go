package serve

// The browser test drives a real headless Chromium through the DevTools
// protocol over --remote-debugging-pipe: Chromium reads commands from its
// file descriptor 3 and writes answers to 4, each a JSON message ended by a
// NUL byte. That needs no port, no websocket and no module beyond the
// standard library, and the clicks are real mouse events at the squares'
// places on the screen (Input.dispatchMouseEvent), not calls into the
// page's script.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const chromiumPath = "/usr/bin/chromium"

// cdp is a minimal DevTools protocol client over Chromium's pipe.
type cdp struct {
	t       *testing.T
	w       *os.File
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpReply
	session string
}

type cdpReply struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (c *cdp) read(r *os.File) {
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID int `json:"id"`
			cdpReply
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil || m.ID == 0 {
			continue // an event: not used
		}
		c.mu.Lock()
		ch := c.waiting[m.ID]
		delete(c.waiting, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m.cdpReply
		}
	}
}

// call sends a command (to the attached page when session is set) and
// decodes its result into out.
func (c *cdp) call(method string, params map[string]any, out any) error {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	msg := map[string]any{"id": id, "method": method, "params": params}
	if c.session != "" && !strings.HasPrefix(method, "Target.") {
		msg["sessionId"] = c.session
	}
	b, _ := json.Marshal(msg)
	_, err := c.w.Write(append(b, 0))
	c.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-time.After(60 * time.Second): // a hang guard, not a timing check
		return fmt.Errorf("%s: no answer from chromium", method)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its JSON
// value into out.
func (c *cdp) eval(expr string, out any) {
	c.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		c.t.Fatal(err)
	}
	if r.Exception != nil {
		c.t.Fatalf("%s: %s", expr, r.Exception.Text)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			c.t.Fatalf("%s: %v in %s", expr, err, r.Result.Value)
		}
	}
}

// waitFor polls a JavaScript condition until it holds.
func (c *cdp) waitFor(what, cond string) {
	c.t.Helper()
	deadline := time.Now().Add(90 * time.Second) // a hang guard only
	for {
		var ok bool
		c.eval("!!("+cond+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var dbg string
			c.eval(`JSON.stringify({status: document.getElementById("status").textContent, error: document.getElementById("error").textContent})`, &dbg)
			c.t.Fatalf("waiting for %s: %s", what, dbg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// click clicks the middle of the square named n with the mouse.
func (c *cdp) click(n string) {
	c.t.Helper()
	var box struct{ X, Y float64 }
	c.eval(`(() => { const r = document.querySelector('#board rect.sq[data-n="`+n+`"]').getBoundingClientRect();
		return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, &box)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := c.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": box.X, "y": box.Y, "button": "left", "clickCount": 1}, nil); err != nil {
			c.t.Fatal(err)
		}
	}
}

// clickEl clicks the middle of the element sel (a CSS selector) with the
// mouse.
func (c *cdp) clickEl(sel string) {
	c.t.Helper()
	var box struct{ X, Y float64 }
	c.eval(`(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect();
		return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, &box)
	for _, typ := range []string{"mousePressed", "mouseReleased"} {
		if err := c.call("Input.dispatchMouseEvent", map[string]any{"type": typ, "x": box.X, "y": box.Y, "button": "left", "clickCount": 1}, nil); err != nil {
			c.t.Fatal(err)
		}
	}
}

// keys types text key by key, as a keyboard would, then Enter.
func (c *cdp) keys(text string) {
	c.t.Helper()
	for _, r := range text + "\r" {
		key, code := string(r), 0
		if r == '\r' {
			key, code = "Enter", 13
		}
		for _, typ := range []string{"keyDown", "keyUp"} {
			ev := map[string]any{"type": typ, "key": key, "text": string(r)}
			if code != 0 {
				ev["code"], ev["windowsVirtualKeyCode"] = "Enter", code
			}
			if typ == "keyUp" {
				delete(ev, "text")
			}
			if err := c.call("Input.dispatchKeyEvent", ev, nil); err != nil {
				c.t.Fatal(err)
			}
		}
	}
}

// screenshot saves the page as a PNG in dir and returns its path.
func (c *cdp) screenshot(dir, name string) string {
	c.t.Helper()
	var r struct{ Data string }
	if err := c.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": false}, &r); err != nil {
		c.t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		c.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		c.t.Fatal(err)
	}
	return path
}

// startChromium starts headless Chromium with a page at url and returns a
// client attached to it.
func startChromium(t *testing.T, width, height int) *cdp {
	t.Helper()
	cmdR, cmdW, err := os.Pipe() // commands: we write, chromium reads on fd 3
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe() // answers: chromium writes on fd 4
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromiumPath, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", fmt.Sprintf("--window-size=%d,%d", width, height),
		"--hide-scrollbars", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	outW.Close()
	c := &cdp{t: t, w: cmdW, waiting: map[int]chan cdpReply{}}
	go c.read(outR)
	t.Cleanup(func() {
		_ = c.call("Browser.close", nil, nil)
		cmdW.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		outR.Close()
	})
	return c
}

// open makes a new page at url, attaches to it and sets its viewport.
func (c *cdp) open(url string, width, height int, mobile bool) {
	c.t.Helper()
	var tg struct{ TargetID string }
	if err := c.call("Target.createTarget", map[string]any{"url": "about:blank"}, &tg); err != nil {
		c.t.Fatal(err)
	}
	var at struct{ SessionID string }
	if err := c.call("Target.attachToTarget", map[string]any{"targetId": tg.TargetID, "flatten": true}, &at); err != nil {
		c.t.Fatal(err)
	}
	c.session = at.SessionID
	if err := c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, nil); err != nil {
		c.t.Fatal(err)
	}
	if err := c.call("Page.navigate", map[string]any{"url": url}, nil); err != nil {
		c.t.Fatal(err)
	}
}

// ready is the page's condition for a drawn board with no request running.
const ready = `typeof st !== "undefined" && st && document.getElementById("board").dataset.busy === "0"`

// TestBrowser loads the page in headless Chromium, plays by clicking the
// squares, checks the board and the engine's replies, and saves
// screenshots (to $SERVE_SCREENSHOTS when set, else a temporary folder).
func TestBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("browser test skipped: %s not found (apt-get install chromium to run it)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	dir := os.Getenv("SERVE_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
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

	for _, tc := range []struct {
		variant string
		w, h    int
		mobile  bool
	}{
		{"international", 1100, 820, false},
		{"turkish", 1100, 820, false},
		{"damone", 1100, 820, false},
		{"spanish", 1100, 820, false},
		{"russian", 390, 844, true},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			c.t = t
			c.open(ts.URL+"/?variant="+tc.variant+"&level=2&nodes=300", tc.w, tc.h, tc.mobile)
			c.waitFor("the board", ready+` && st.variant === "`+tc.variant+`"`)
			var n struct{ Rects, Squares int }
			c.eval(`({Rects: document.querySelectorAll("#board rect.sq").length, Squares: st.squares.length})`, &n)
			if n.Rects != n.Squares {
				t.Errorf("%d squares drawn, %d on the board", n.Rects, n.Squares)
			}
			var path []string
			c.eval(`st.moves[0].path`, &path)
			for _, sq := range path {
				c.click(sq)
			}
			c.waitFor("the engine's reply", ready+` && st.history.length === 2`)
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
