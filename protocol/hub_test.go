package protocol

import (
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// session runs the lines through a fresh Hub and returns its output lines.
// Input stays open until every go line has been answered (by done or an
// error), since end of input stops a search.
func session(t *testing.T, input string) []string {
	t.Helper()
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	done := make(chan error)
	go func() { done <- h.Run() }()
	gos := 0 // go and perft lines, each answered by one final line
	for _, l := range strings.Split(input, "\n") {
		if strings.HasPrefix(l, "go") || strings.HasPrefix(l, "perft") {
			gos++
		}
	}
	go func() {
		pw.Write([]byte(input))
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			o := out.String()
			if strings.Count(o, "done move=")+strings.Count(o, `error message="go:`)+strings.Count(o, "perft nodes=")+strings.Count(o, `error message="perft:`) >= gos {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		pw.Close()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("session did not end")
	}
	text := strings.TrimRight(out.String(), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// golden compares output lines with patterns: a pattern is a regular
// expression matched against the whole line.
func golden(t *testing.T, input string, want ...string) []string {
	t.Helper()
	got := session(t, input)
	if len(got) != len(want) {
		t.Errorf("input:\n%s\ngot %d lines:\n%s\nwant %d:\n%s", input, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
		return got
	}
	for i := range want {
		if !regexp.MustCompile("^(?:" + want[i] + ")$").MatchString(got[i]) {
			t.Errorf("input:\n%s\nline %d = %q, want /%s/", input, i+1, got[i], want[i])
		}
	}
	return got
}

const (
	infoRE = `info depth=\d+( mean-depth=\d+\.\d)? score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d{3}( nps=\d+\.\d)? pv="[^"=]*"`
	doneRE = `done move=\d+[-x]\d+(x\d+)* ponder=\d+[-x]\d+(x\d+)*`
)

func TestHandshake(t *testing.T) {
	golden(t, "hub\ninit\nping\nquit\nping\n",
		`id name=damaengine version=\S+ author="the damaengine developers"`,
		`param name=variant value=italian type=enum values=.*italian.*`,
		`param name=notation value=auto type=enum values="auto pydraughts pydraughts-0.5 official"`,
		`param name=ponder value=false type=bool`,
		`param name=threads value=1 type=int min=1 max=`+strconv.Itoa(maxThreads()),
		`param name=tt-size value=22 type=int min=16 max=`+strconv.Itoa(maxTTSize()),
		`param name=all-damoni-win value=false type=bool`,
		`param name=multipv value=1 type=int min=1 max=16`,
		`param name=level value=max type=enum values="1 2 3 4 5 6 7 8 max"`,
		`param name=book value=true type=bool`,
		`param name=book-ply value=16 type=int min=0 max=200`,
		`param name=book-margin value=2 type=int min=0 max=100`,
		`param name=book-file value="" type=string`,
		`param name=log-level value=off type=enum values="off error warn info debug"`,
		`param name=log-file value="" type=string`,
		`param name=initial-time value="" type=string`,
		`param name=eval-file value="" type=string`,
		`param name=egdb value=false type=bool`,
		`param name=egdb-path value="" type=string`,
		`param name=egdb-cache value=32 type=int min=1 max=65536`,
		`wait`, `ready`, `pong`)
}

func TestThinkDepth(t *testing.T) {
	golden(t, "hub\ninit\npos start\nlevel depth=4\ngo think\n",
		append(append([]string{`id .*`}, repeat(`param .*`, len(params))...), `wait`, `ready`,
			`info depth=1 .*`, `info depth=2 .*`, `info depth=3 .*`, infoRE, doneRE)...)
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestBadInputKeepsState(t *testing.T) {
	const start = "W:W21-32:B1-12"
	golden(t, strings.Join([]string{
		"pos pos=W:W21-33:B1-12",                // bad FEN
		"pos pos=Wxyz",                          // bad hub string
		"pos",                                   // missing pos
		"pos start moves=\"22-18 11-15 18x11\"", // wrong capture text: illegal
		"pos start moves=\"22-18 12-16 99-1\"",  // bad square
		"set-param name=variant value=klingon",
		"set-param name=threads value=0",
		"set-param name=tt-size value=big",
		"set-param name=ponder value=maybe",
		"set-param name=notation value=upside-down",
		"set-param name=log-level value=loud",
		"set-param value=1",
		"level depth=x",
		"level move-time=fast",
		"go sideways",
		"frobnicate now",
		"stop",
		"ponder-hit",
		"set-param name=unknown-thing value=1",
		"ping",
	}, "\n")+"\n",
		`error message="pos: fen .*33.*"`,
		`error message="pos: hub position .*"`,
		`error message="pos: missing pos="`,
		`error message="pos: moves: move 3: .*18x11.*not legal.*"`,
		`error message="pos: moves: move 3: .*99.*"`,
		`error message="set-param: unknown variant .*klingon.*"`,
		`error message="set-param: threads value '0'.*"`,
		`error message="set-param: tt-size value 'big'.*"`,
		`error message="set-param: ponder value 'maybe'.*"`,
		`error message="set-param: notation value 'upside-down'.*"`,
		`error message="set-param: log-level value 'loud'.*"`,
		`error message="set-param: missing name"`,
		`error message="level: depth value 'x'.*"`,
		`error message="level: move-time value 'fast'.*"`,
		`error message="go: unknown mode 'sideways'.*"`,
		`error message="unknown command 'frobnicate'"`,
		`error message="set-param: unknown parameter 'unknown-thing'.*"`,
		`pong`)
	_ = start
}

// The state stays after bad input: a failed pos keeps the old position and
// the search then plays from it.
func TestFailedPosKeepsPosition(t *testing.T) {
	golden(t, "pos pos=W:W29:B26,19,11,1\npos pos=W:W21-33:B1-12\nlevel depth=2\ngo think\n",
		`error message=.*`, infoRE, `done move=29x6x11x19x26 ponder=1-5`)
}

// Issue 12 point 3: a forced move still gets an info line (score, pv) and
// a ponder move, at once.
func TestSingleMoveAnswersAtOnce(t *testing.T) {
	start := time.Now()
	golden(t, "pos pos=W:W32:B1\nlevel move-time=20\ngo think\n", infoRE, `done move=32-28 ponder=1-5`)
	golden(t, "pos pos=W:W29:B26,19,11,1\nlevel time=100\ngo think\n", `info depth=\d+ .*pv="29x6x11x19x26 1-5.*"`, `done move=29x6x11x19x26 ponder=1-5`)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("single legal move took %v", el)
	}
}

func TestNoLegalMove(t *testing.T) {
	golden(t, "pos pos=W:W:B1\ngo think\npos pos=B:WK5:B1\ngo think\nping\n",
		`error message="go: no legal move in this position"`,
		`error message="go: no legal move in this position"`,
		`pong`)
}

func TestNodesAndDepthExact(t *testing.T) {
	got := session(t, "set-param name=book value=false\npos start\nlevel nodes=5000\ngo think\n")
	if len(got) < 2 || !strings.HasPrefix(got[len(got)-1], "done move=") {
		t.Fatalf("no done: %q", got)
	}
	for _, l := range got {
		if m := regexp.MustCompile(`nodes=(\d+)`).FindStringSubmatch(l); m != nil {
			if n, _ := strconv.Atoi(m[1]); n > 5000 {
				t.Errorf("nodes over the limit: %s", l)
			}
		}
	}
	got = session(t, "pos start\nlevel depth=6\ngo think\n")
	last := ""
	for _, l := range got {
		if strings.HasPrefix(l, "info ") {
			last = l
		}
	}
	if !strings.HasPrefix(last, "info depth=6 ") {
		t.Errorf("last info %q, want depth 6", last)
	}
}

func TestLevelsAddUpAndReset(t *testing.T) {
	// depth from the first level line, nodes from the second; after done the
	// limits reset, so the next go think uses the default move time (1 s)
	// unless a new level comes: here depth=1.
	got := session(t, "pos start\nlevel depth=3\nlevel nodes=1000000\ngo think\nlevel depth=1\ngo think\n")
	depths := []string{}
	for _, l := range got {
		if m := regexp.MustCompile(`^info depth=(\d+)`).FindStringSubmatch(l); m != nil {
			depths = append(depths, m[1])
		}
	}
	if strings.Join(depths, ",") != "1,2,3,1" {
		t.Errorf("depths %v, want 1,2,3 then 1", depths)
	}
}

func TestPingDuringSearchAndStop(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	done := make(chan struct{})
	go func() { h.Run(); close(done) }()
	write := func(s string) { pw.Write([]byte(s + "\n")) }
	write("pos start")
	write("go analyze")
	time.Sleep(200 * time.Millisecond)
	write("ping")
	waitFor(t, out, "pong")
	if strings.Contains(out.String(), "done") {
		t.Fatal("analysis ended by itself")
	}
	stopAt := time.Now()
	write("stop")
	waitFor(t, out, "done move=")
	if d := time.Since(stopAt); d > 500*time.Millisecond {
		t.Errorf("stop took %v", d)
	}
	// A line other than ping/stop/ponder-hit ends the search first.
	write("go analyze")
	time.Sleep(100 * time.Millisecond)
	write("pos start moves=22-18")
	write("ping")
	waitFor(t, out, "pong\n.*pong|done.*\n(.*\n)*pong")
	pw.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("end of input did not end the session")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if n := strings.Count(out.String(), "done move="); n != 2 {
		t.Errorf("%d done lines, want 2:\n%s", n, out.String())
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "error") {
			t.Errorf("error during session: %s", l)
		}
	}
}

func TestPonder(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	defer pw.Close()
	write := func(s string) { pw.Write([]byte(s + "\n")) }
	write("set-param name=ponder value=true")
	write("pos start moves=\"22-18 11-15\"")
	write("level time=10 inc=0.1")
	write("go ponder")
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(out.String(), "done") {
		t.Fatal("ponder search answered before ponder-hit")
	}
	write("ponder-hit")
	waitFor(t, out, "done move=")
	// ponder then stop: still exactly one done.
	write("pos start")
	write("level time=10")
	write("go ponder")
	time.Sleep(100 * time.Millisecond)
	write("stop")
	waitFor(t, out, "done move=(.*\n)*.*done move=")
}

func TestPerftExtension(t *testing.T) {
	golden(t, "perft depth=3\npos pos=W:W29:B26,19,11,1\nperft depth=1 divide\nperft depth=0\n",
		`perft nodes=302 time=\S+ nps=\d+`,
		`info move=29x6x11x19x26 nodes=1`,
		`perft nodes=1 time=\S+ nps=\d+`,
		`error message="perft: depth value '0'.*"`)
}

func TestParseLine(t *testing.T) {
	l := parseLine(`set-param name=log-file value=my file.txt`)
	if v, _ := l.get("value"); v != "my file.txt" {
		t.Errorf("unquoted value with a space read as %q", v)
	}
	l = parseLine(`pos pos="W:W21-32:B1-12" moves="22-18 11-15"`)
	if v, _ := l.get("pos"); v != "W:W21-32:B1-12" {
		t.Errorf("pos %q", v)
	}
	if v, _ := l.get("moves"); v != "22-18 11-15" {
		t.Errorf("moves %q", v)
	}
	l = parseLine(`go   think  `)
	if l.cmd != "go" || len(l.args) != 1 || l.args[0].name != "think" {
		t.Errorf("%+v", l)
	}
	if q := quote("a b"); q != `"a b"` {
		t.Error(q)
	}
	if q := quote(""); q != `""` {
		t.Error(q)
	}
	if q := quote("x=y"); q != `"x=y"` {
		t.Error(q)
	}
}

func TestArgsAndVariantAliases(t *testing.T) {
	var out strings.Builder
	h := NewHub(strings.NewReader("hub\n"), &out, Options{Log: zerolog.Nop(), Args: []string{"--tt-size=18", "--threads=2", "--bogus=1", "plain"}})
	h.Run()
	if !strings.Contains(out.String(), "name=tt-size value=18") || !strings.Contains(out.String(), "name=threads value=2") {
		t.Errorf("command-line settings not applied:\n%s", out.String())
	}
	for _, alias := range []string{"Italian", "ITALIAN", "dama"} {
		golden(t, "set-param name=variant value="+alias+"\nping\n", "pong")
	}
	if movegen.Italian.Name != "italian" {
		t.Fatal("variant name")
	}
}

// TestClockIsRespected: with little time left the answer comes within it,
// and a negative time counts as zero. Measured from go to done through a
// pipe; the slack is generous because test machines are shared.
func TestClockIsRespected(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	defer pw.Close()
	pw.Write([]byte("set-param name=tt-size value=16\ninit\nping\n"))
	waitFor(t, out, "pong")
	for i, c := range []struct {
		level  string
		budget time.Duration
	}{
		{"level time=0.3", 300 * time.Millisecond},
		{"level time=0.05 inc=0", 50 * time.Millisecond},
		{"level time=-5", 0},
		{"level time=0.2 moves=1", 200 * time.Millisecond},
		{"level move-time=0.1", 100 * time.Millisecond},
		{"level time=0 inc=0.05", 50 * time.Millisecond},
	} {
		pw.Write([]byte("pos start moves=\"22-18 11-15\"\n" + c.level + "\n"))
		start := time.Now()
		pw.Write([]byte("go think\n"))
		for strings.Count(out.String(), "done move=") <= i {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s: no answer", c.level)
			}
			time.Sleep(100 * time.Microsecond)
		}
		if el := time.Since(start); el > c.budget+time.Second {
			t.Errorf("%s: answered after %v", c.level, el)
		}
	}
}

func TestLogging(t *testing.T) {
	file := t.TempDir() + "/engine.log"
	lines := session(t, "set-param name=log-level value=debug\nset-param name=log-file value="+file+"\npos start\nlevel depth=2\ngo think\nping\n")
	for _, l := range lines {
		if !regexp.MustCompile(`^(info|done|pong) `).MatchString(l + " ") {
			t.Errorf("non-protocol line on the protocol stream: %q", l)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"line":"pos start"`) || !strings.Contains(string(b), "search started") {
		t.Errorf("log file lacks the session:\n%s", b)
	}
	// the end of a search, with the nodes of each thread (one here)
	if !regexp.MustCompile(`"depth":2,"nodes":[1-9][0-9]*,"thread_nodes":\[[1-9][0-9]*\].*"search done"`).Match(b) {
		t.Errorf("log file lacks the search's end with its thread nodes:\n%s", b)
	}
	golden(t, "set-param name=log-level value=info\nset-param name=log-file value=/nonexistent-dir/x.log\nping\n",
		`error message="set-param: log-file: .*nonexistent-dir.*"`, `pong`)
}

// TestEOFWhilePondering: end of input ends a ponder search and the session
// at once.
func TestEOFWhilePondering(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	done := make(chan struct{})
	go func() { h.Run(); close(done) }()
	pw.Write([]byte("set-param name=ponder value=true\nset-param name=book value=false\npos start\nlevel time=60\ngo ponder\n"))
	waitFor(t, out, "info depth=3 ")
	pw.Close()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("session still running after end of input during a ponder search")
	}
	if !strings.Contains(out.String(), "done move=") {
		t.Errorf("no done line:\n%s", out.String())
	}
}

// TestMultiPV: go analyze with multipv=3 reports three lines per depth,
// each starting with a different move, best first.
func TestMultiPV(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	defer pw.Close()
	pw.Write([]byte("set-param name=multipv value=3\npos start\ngo analyze\n"))
	waitFor(t, out, "info depth=6 (.*\n)*info depth=6 (.*\n)*info depth=6 ")
	pw.Write([]byte("stop\n"))
	waitFor(t, out, "done move=")
	re := regexp.MustCompile(`^info depth=(\d+) .*score=(-?[\d.]+) .*pv="(\S+)`)
	byDepth := map[string][]string{}
	scores := map[string][]float64{}
	for _, l := range strings.Split(out.String(), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			byDepth[m[1]] = append(byDepth[m[1]], m[3])
			f, _ := strconv.ParseFloat(m[2], 64)
			scores[m[1]] = append(scores[m[1]], f)
		}
	}
	for d := 1; d <= 6; d++ {
		k := strconv.Itoa(d)
		moves := byDepth[k]
		if len(moves) != 3 {
			t.Fatalf("depth %d: %d lines, want 3", d, len(moves))
		}
		if moves[0] == moves[1] || moves[1] == moves[2] || moves[0] == moves[2] {
			t.Errorf("depth %d: lines repeat a first move: %v", d, moves)
		}
		if scores[k][0] < scores[k][1] || scores[k][1] < scores[k][2] {
			t.Errorf("depth %d: lines not best first: %v", d, scores[k])
		}
	}
}

// TestPonderHitBeforeSearch: a ponder-hit read before the search took its
// control (a late start on a loaded machine) still reaches the search.
func TestPonderHitBeforeSearch(t *testing.T) {
	tk := newTask()
	tk.PonderHit()
	c := tk.control(search.NewControl(true))
	if c.Pondering() {
		t.Error("the ponder-hit read before the search started was lost")
	}
	tk = newTask()
	if c := tk.control(search.NewControl(true)); !c.Pondering() {
		t.Error("a search without ponder-hit stopped pondering")
	}
}
