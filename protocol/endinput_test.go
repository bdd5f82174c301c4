package protocol

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// runToEnd runs a whole input through a fresh Hub, its input ending right
// after the last line, and returns the output lines and the time Run took.
func runToEnd(t *testing.T, input string, opt Options) ([]string, time.Duration) {
	t.Helper()
	out := &syncBuffer{}
	opt.Log = zerolog.Nop()
	h := NewHub(strings.NewReader(input), out, opt)
	start := time.Now()
	done := make(chan struct{})
	go func() { h.Run(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("session still running 20 s after end of input:\n%s", out.String())
	}
	el := time.Since(start)
	text := strings.TrimRight(out.String(), "\n")
	if text == "" {
		return nil, el
	}
	return strings.Split(text, "\n"), el
}

// Issue 48 point 6: at end of input the lines waiting behind a perft run
// in order: a go gets its done, an init its ready.
func TestWaitingLinesRunAtEndOfInput(t *testing.T) {
	lines, _ := runToEnd(t, "set-param name=book value=false\nperft depth=20\nlevel depth=3\ngo think\ninit\nping\n", Options{})
	got := strings.Join(lines, "\n")
	if !regexp.MustCompile(`(?s)^pong\nperft nodes=\d+ .*stopped=true\n(info .*\n)*` + doneRE + `\nready$`).MatchString(got) {
		t.Errorf("output:\n%s\nwant pong, the stopped perft, the search's info lines and done, then ready", got)
	}
	if !strings.Contains(got, "info depth=3 ") {
		t.Errorf("the waiting go think did not search to its depth:\n%s", got)
	}
}

// The lines that waited run within the end grace: a search among them that
// would not end by itself is stopped when the grace is over and still
// answers, and so is one that starts after it.
func TestWaitingLinesBoundedAtEndOfInput(t *testing.T) {
	grace := 200 * time.Millisecond
	lines, el := runToEnd(t, "perft depth=20\ngo analyze\nlevel infinite\ngo think\npos start\ngo ponder\nping\n", Options{EndGrace: grace})
	got := strings.Join(lines, "\n")
	if n := strings.Count(got, "done move="); n != 3 {
		t.Errorf("%d done lines, want 3 (go analyze, go think, go ponder):\n%s", n, got)
	}
	if el > grace+3*time.Second {
		t.Errorf("the waiting lines took %v after end of input, the grace being %v", el, grace)
	}
}

// Issue 48 point 6: a perft stopped inside its first root move reports the
// leaves counted so far, not 0; divide lines are given only for the root
// moves counted in full.
func TestStoppedPerftCountsSoFar(t *testing.T) {
	write, out, end := live(t, Options{})
	write("perft depth=20 divide")
	time.Sleep(200 * time.Millisecond)
	write("stop")
	waitFor(t, out, `perft nodes=\d+ .*stopped=true`)
	end(5 * time.Second)
	m := regexp.MustCompile(`perft nodes=(\d+) `).FindStringSubmatch(out.String())
	if n, _ := strconv.ParseUint(m[1], 10, 64); n == 0 {
		t.Errorf("a perft stopped after 200 ms reports no leaves:\n%s", out.String())
	}
	if strings.Contains(out.String(), "info move=") {
		t.Errorf("a root move not counted in full got a divide line:\n%s", out.String())
	}
}

// Issue 48 point 7: level keys it does not know, set-param names it does
// not know and a level that bounds nothing are answered with an error
// naming them, and change nothing: the go think after them keeps the
// limits given before (here depth 1), or the default second.
func TestLevelRefusals(t *testing.T) {
	golden(t, strings.Join([]string{
		"set-param name=book value=false",
		"level foo=1 depth=2",
		"level bar=1 baz",
		"set-param name=foo value=1",
		"level",
		"level depth=0",
		"level nodes=0",
		"level moves=5",
		"level depth=1",
		"level depth=0",
		"go think",
	}, "\n")+"\n",
		`error message="level: unknown key 'foo' \(known: depth nodes move-time time inc moves infinite\)"`,
		`error message="level: unknown keys 'bar', 'baz' .*"`,
		`error message="set-param: unknown parameter 'foo'.*"`,
		`error message="level: bounds nothing .*"`,
		`error message="level: bounds nothing .*"`,
		`error message="level: bounds nothing .*"`,
		`error message="level: bounds nothing .*"`,
		`error message="level: bounds nothing .*"`,
		`info depth=1 .*`, `done move=\S+.*`)
	// limits that bound together are accepted line by line
	golden(t, "set-param name=book value=false\nlevel depth=1\nlevel moves=5\nlevel nodes=0\ngo think\n", `info depth=1 .*`, `done move=\S+.*`)
	// a refused level leaves go think its default second
	start := time.Now()
	lines := session(t, "set-param name=book value=false\nlevel moves=5\ngo think\n")
	if el := time.Since(start); len(lines) < 2 || !strings.HasPrefix(lines[0], `error message="level: bounds nothing`) || !strings.HasPrefix(lines[len(lines)-1], "done move=") || el > 5*time.Second {
		t.Errorf("after %v:\n%s", el, strings.Join(lines, "\n"))
	}
}
