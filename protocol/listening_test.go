package protocol

import (
	"io"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// live starts a session and returns a line writer, its output and a
// function that closes the input and waits for the end (failing after
// limit).
func live(t *testing.T, opt Options) (func(string), *syncBuffer, func(limit time.Duration)) {
	t.Helper()
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	opt.Log = zerolog.Nop()
	h := NewHub(pr, out, opt)
	done := make(chan struct{})
	go func() { h.Run(); close(done) }()
	write := func(s string) { pw.Write([]byte(s + "\n")) }
	end := func(limit time.Duration) {
		t.Helper()
		pw.Close()
		select {
		case <-done:
		case <-time.After(limit):
			t.Fatalf("session still running %v after end of input:\n%s", limit, out.String())
		}
	}
	return write, out, end
}

// Issue 19 item 1: perft runs like a search: ping is answered, stop ends
// it, end of input quits.
func TestPerftDoesNotBlock(t *testing.T) {
	write, out, end := live(t, Options{})
	write("perft depth=20")
	write("ping")
	waitFor(t, out, "pong")
	write("stop")
	waitFor(t, out, `perft nodes=\d+ time=\S+ nps=\d+ stopped=true`)
	write("perft depth=20")
	start := time.Now()
	end(5 * time.Second)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("end of input during perft took %v", el)
	}
}

// slowClear is a Searcher whose new game takes long (a huge table).
type slowClear struct{ *search.Engine }

func (slowClear) NewGame() { time.Sleep(3 * time.Second) }

// Issue 19 item 2: new-game clears the table off the command loop (ping
// is answered at once); the next search waits for the clear, not the loop.
func TestNewGameDoesNotBlock(t *testing.T) {
	write, out, end := live(t, Options{Engine: func(v *movegen.Variant, tt int) Searcher { return slowClear{search.New(v, tt)} }})
	write("init")
	write("new-game")
	start := time.Now()
	write("ping")
	waitFor(t, out, "pong")
	if el := time.Since(start); el > time.Second {
		t.Errorf("ping during new-game answered after %v", el)
	}
	write("pos start")
	write("level depth=2")
	write("go think")
	waitFor(t, out, "done move=")
	end(10 * time.Second)
}

// Issue 19 item 2: tt-size is capped by the machine's memory, with an
// error naming the limit, and the previous table kept.
func TestTTSizeCappedByMemory(t *testing.T) {
	hi := maxTTSize()
	golden(t, "set-param name=tt-size value="+strconv.Itoa(hi+1)+"\nhub\n",
		append([]string{`error message="set-param: tt-size value '` + strconv.Itoa(hi+1) + `' is not an integer in 16-` + strconv.Itoa(hi) + ` \(2\^\d+ entries is .*, half this machine's memory\)"`,
			`id .*`}, append(repeat(`param .*`, len(params)), `wait`)...)...)
	// when the memory available now is short, the error says so
	old := memInfo
	defer func() { memInfo = old }()
	memInfo = func(field string) uint64 {
		if field == "MemAvailable" {
			return 100 << 20
		}
		return 64 << 30
	}
	lines := golden(t, "init\nset-param name=tt-size value=24\nhub\n",
		append([]string{`ready`, `error message="set-param: tt-size 24 needs 256 MiB but only 100 MiB of memory is available; the table stays at 22"`,
			`id .*`}, append(repeat(`param .*`, len(params)), `wait`)...)...)
	if !strings.Contains(strings.Join(lines, "\n"), "param name=tt-size value=22 ") {
		t.Error("tt-size changed after the refusal")
	}
}

// Issue 19 item 3: threads are capped at the cores, with an error naming
// them; the count stays.
func TestThreadsCapped(t *testing.T) {
	n := maxThreads()
	lines := golden(t, "set-param name=threads value="+strconv.Itoa(n+1)+"\nset-param name=threads value=64\nhub\n",
		append([]string{`error message="set-param: threads value '` + strconv.Itoa(n+1) + `' is not an integer in 1-` + strconv.Itoa(n) + ` \(this machine has \d+ cores\)"`,
			`error message="set-param: threads value '64' .*"`, `id .*`}, append(repeat(`param .*`, len(params)), `wait`)...)...)
	if !strings.Contains(strings.Join(lines, "\n"), "param name=threads value=1 ") {
		t.Error("threads changed after the refusal")
	}
}

// Issue 19 item 3: at the most threads accepted, the scheduler keeps a
// processor for the command loop, so that a line from the GUI's pipe is
// read at once (TestStopLatency measures it through operating-system
// pipes: 25 ms median at threads=2 on 2 cores without it, under 1 ms with).
func TestThreadsLeaveAProcessor(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.NumCPU()))
	n := maxThreads()
	session(t, "set-param name=threads value="+strconv.Itoa(n)+"\nping\n")
	if p := runtime.GOMAXPROCS(0); p <= n {
		t.Errorf("threads=%d with GOMAXPROCS=%d: no processor left for the command loop", n, p)
	}
	runtime.GOMAXPROCS(runtime.NumCPU())
	h := NewHub(strings.NewReader(""), io.Discard, Options{Log: zerolog.Nop(), Args: []string{"--threads=" + strconv.Itoa(n)}})
	if p := runtime.GOMAXPROCS(0); h.threads != n || p <= n {
		t.Errorf("--threads=%d on the command line: threads %d, GOMAXPROCS=%d", n, h.threads, p)
	}
}

// Issue 19 item 4: every echoed value is clipped.
func TestEchoedValuesClipped(t *testing.T) {
	big := strings.Repeat("9x", 1<<18) // 512 KB (a line holds at most 1 MB)
	lines := session(t, "level depth="+big+"\nset-param name=log-file value="+big+"\nset-param name=variant value="+big+"\npos pos="+big+"\n"+big+"\nhub\n")
	for _, l := range lines {
		if len(l) > 1200 {
			t.Errorf("a %d-byte line: %.100s...", len(l), l)
		}
	}
	if len(lines) < 5 || !strings.HasPrefix(lines[0], `error message="level: depth value '9x9x`) {
		t.Errorf("lines: %.300q", lines)
	}
}

// Issue 19 item 5: the log never goes to the protocol's stdout.
func TestLogFileRefusesStdout(t *testing.T) {
	for _, f := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		golden(t, "set-param name=log-level value=debug\nset-param name=log-file value="+f+"\nping\n",
			`error message="set-param: log-file '`+regexp.QuoteMeta(f)+`' is the protocol's own output.*"`, `pong`)
	}
}

// Issue 19 item 6: a short line holding a NUL byte is reported as what it
// is, not as too long.
func TestNULLineMessage(t *testing.T) {
	golden(t, "\x00too-long\nping\n", `error message="line ignored: it holds a NUL byte \(at byte 1 of 9\)"`, `pong`)
}

// signalSearch tells when a search has returned.
type signalSearch struct {
	*search.Engine
	returned chan struct{}
}

func (s signalSearch) Search(ctl *search.Control, g search.Game, lim search.Limits, onInfo func(search.Info)) search.Result {
	r := s.Engine.Search(ctl, g, lim, onInfo)
	close(s.returned)
	return r
}

// Issue 11: info lines are handed off without the search waiting on the
// writer: with a GUI that reads nothing, the search still ends.
func TestSearchDoesNotWaitForTheWriter(t *testing.T) {
	returned := make(chan struct{})
	in, inw := io.Pipe()
	outr, outw := io.Pipe() // nobody reads until the search has returned
	mk := func(v *movegen.Variant, tt int) Searcher { return signalSearch{search.New(v, tt), returned} }
	h := NewHub(in, outw, Options{Log: zerolog.Nop(), Engine: mk})
	done := make(chan struct{})
	go func() { h.Run(); outw.Close(); close(done) }()
	inw.Write([]byte("pos start\nlevel depth=9\ngo think\n"))
	select {
	case <-returned:
	case <-time.After(20 * time.Second):
		t.Fatal("the search waited for the writer")
	}
	inw.Close()
	b, _ := io.ReadAll(outr)
	<-done
	if n := strings.Count(string(b), "info depth="); n < 8 || !strings.Contains(string(b), "done move=") {
		t.Errorf("%d info lines:\n%s", n, b)
	}
}

// Issue 19 item 1: quit during a perft quits.
func TestQuitDuringPerft(t *testing.T) {
	write, out, end := live(t, Options{})
	write("perft depth=20")
	write("quit")
	waitFor(t, out, `perft .*stopped=true`)
	end(5 * time.Second)
}

// Issue 19 item 1: ping, stop and quit act at once during a perft even
// when other lines wait for it; the waiting lines then run in order.
func TestPerftStopBehindWaitingLines(t *testing.T) {
	write, out, end := live(t, Options{})
	write("perft depth=20")
	write("pos pos=W:W29:B26,19,11,1")
	write("level depth=1")
	write("ping")
	waitFor(t, out, "pong")
	write("stop")
	waitFor(t, out, `perft nodes=\d+ .*stopped=true`)
	write("go think")
	waitFor(t, out, `done move=29x6x11x19x26`)
	write("perft depth=20")
	write("go think")
	write("quit")
	end(5 * time.Second)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "pong" || !strings.HasPrefix(lines[1], "perft ") {
		t.Errorf("pong should come first, during the perft:\n%s", out.String())
	}
}

// Lines that waited for a perft keep their order with the lines after
// them: a line that ends a search started from the waiting lines runs
// after the rest of them.
func TestWaitingLinesKeepTheirOrder(t *testing.T) {
	write, out, end := live(t, Options{})
	write("set-param name=book value=false")
	write("perft depth=20")
	write("level depth=30")
	write("go think")                  // waits, then searches the start position
	write("pos pos=W:W29:B26,19,11,1") // waits behind it
	write("stop")                      // ends the perft
	waitFor(t, out, `perft .*stopped=true`)
	write("level depth=1") // ends that search, then runs after the pos
	write("go think")
	waitFor(t, out, `(?s)done move=.*done move=`)
	end(5 * time.Second)
	dones := regexp.MustCompile(`done move=(\S+)`).FindAllStringSubmatch(out.String(), -1)
	if len(dones) != 2 || dones[1][1] != "29x6x11x19x26" {
		t.Errorf("the last go think did not search the position set before it:\n%s", out.String())
	}
}
