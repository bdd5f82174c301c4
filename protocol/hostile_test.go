package protocol

import (
	"bufio"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

var protoLine = regexp.MustCompile(`^(id|param|wait|ready|info|done|pong|error|perft)( |$)`)

// checkProtocolOnly fails on any output line that is not a protocol line.
func checkProtocolOnly(t *testing.T, out string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if l != "" && !protoLine.MatchString(l) {
			t.Fatalf("non-protocol output line %q", l)
		}
	}
}

// hostileLine returns a random malformed line.
func hostileLine(rng *rand.Rand) string {
	words := []string{"hub", "init", "pos", "pos=", "moves=", "level", "go", "think", "ponder", "analyze",
		"set-param", "name=", "value=", "variant", "threads", "tt-size", "perft", "depth=", "stop",
		"ponder-hit", "new-game", "\"", "=", "x", "start", "W:W21-32:B1-12", "Wbbbb", "22-18", "99x1",
		"time=-1", "nodes=abc", "\x00", "\xff\xfe", "é", "\t", "divide", "move-time=1e309", "depth=99999999999"}
	n := rng.IntN(8)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if rng.IntN(4) == 0 {
			b := make([]byte, rng.IntN(12))
			for j := range b {
				b[j] = byte(rng.IntN(256))
			}
			sb.Write(b)
		} else {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		if rng.IntN(3) > 0 {
			sb.WriteByte(' ')
		}
	}
	return strings.ReplaceAll(sb.String(), "\n", " ")
}

// TestHostileSession sends thousands of malformed lines, a line of several
// megabytes, NUL bytes and invalid UTF-8; the engine answers only protocol
// lines, then still answers ping and plays a correct search.
func TestHostileSession(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 3000
	if testing.Short() {
		n = 500
	}
	var sb strings.Builder
	for i := 0; i < n; i++ {
		l := hostileLine(rng)
		if strings.HasPrefix(strings.TrimSpace(l), "go") || strings.HasPrefix(strings.TrimSpace(l), "perft") || strings.HasPrefix(strings.TrimSpace(l), "quit") {
			continue // searches and quits are exercised below
		}
		sb.WriteString(l + "\n")
	}
	sb.WriteString("pos " + strings.Repeat("x", 3<<20) + "\n") // a 3 MB line
	sb.WriteString("ping\n")
	sb.WriteString("set-param name=variant value=italian\nset-param name=tt-size value=16\n")
	sb.WriteString("pos start moves=\"22-18 11-15\"\nlevel depth=4\ngo think\n")
	lines := session(t, sb.String())
	out := strings.Join(lines, "\n")
	checkProtocolOnly(t, out)
	if !strings.Contains(out, "error message=\"line of 3145733 bytes ignored: longer than") {
		t.Error("the 3 MB line was not reported")
	}
	if !strings.Contains(out, "pong") {
		t.Fatal("no pong after the hostile lines")
	}
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`^done move=(\S+)`).FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q, want done", last)
	}
	v := movegen.Italian
	p := v.Start()
	for _, mv := range []string{"22-18", "11-15"} {
		x, _ := v.ParseMove(&p, mv)
		p.Play(x)
	}
	if _, err := v.ParseMove(&p, m[1]); err != nil {
		t.Errorf("move after the hostile session: %v", err)
	}
}

// TestWrongStateCommands: commands in the wrong state get an error or are
// ignored, never a crash, and never an error while a search runs.
func TestWrongStateCommands(t *testing.T) {
	lines := session(t, strings.Join([]string{
		"go think",   // before pos: the start position
		"ponder-hit", // idle: ignored
		"stop",       // idle: ignored
		"pos start",
		"pos start moves=\"22-18 22-18\"", // illegal list: error, start kept
		"level depth=30",
		"go analyze",
		"set-param name=threads value=2", // during a search: ends it, then applies
		"ping",
		"level depth=3",
		"go think",
	}, "\n")+"\n")
	out := strings.Join(lines, "\n")
	checkProtocolOnly(t, out)
	if c := strings.Count(out, "error"); c != 1 {
		t.Errorf("%d error lines, want 1 (illegal move list):\n%s", c, out)
	}
	if c := strings.Count(out, "done move="); c != 3 {
		t.Errorf("%d done lines, want 3:\n%s", c, out)
	}
	// no error between a go and its done
	searching := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "info"):
			searching = true
		case strings.HasPrefix(l, "done"):
			searching = false
		case strings.HasPrefix(l, "error") && searching:
			t.Errorf("error during a search: %s", l)
		}
	}
}

// TestSearchPanicIsRecovered: a panic inside the search (here from a
// broken evaluation) is answered with an error line, and the engine goes on.
// fixedEval is a Searcher whose evaluation the Hub cannot replace.
type fixedEval struct{ *search.Engine }

func (fixedEval) SetEval(search.EvalFunc) {}

func TestSearchPanicIsRecovered(t *testing.T) {
	for _, threads := range []int{1, 2} {
		if threads > maxThreads() {
			continue
		}
		pr, pw := io.Pipe()
		out := &syncBuffer{}
		var calls atomic.Int64
		mk := func(v *movegen.Variant, tt int) Searcher {
			e := search.New(v, tt)
			e.SetEval(func(v *movegen.Variant, p *movegen.Position) int {
				if calls.Add(1) > 500 {
					panic("broken evaluation")
				}
				return 0
			})
			return fixedEval{e}
		}
		h := NewHub(pr, out, Options{Log: zerolog.Nop(), Engine: mk, Args: []string{"--threads=" + strconv.Itoa(threads)}})
		done := make(chan struct{})
		go func() { h.Run(); close(done) }()
		pw.Write([]byte("pos start\nlevel depth=12\ngo think\n"))
		waitFor(t, out, `error message="search failed: .*broken evaluation.*"`)
		// the go still gets its done, with a legal move
		waitFor(t, out, `done move=\d+-\d+`)
		pw.Write([]byte("ping\n"))
		waitFor(t, out, "pong")
		pw.Close()
		<-done
		if n := strings.Count(out.String(), "done"); n != 1 {
			t.Errorf("threads=%d: %d done lines after the panic:\n%s", threads, n, out.String())
		}
	}
}

// TestStopLatency measures how fast stop ends a search: the median and the
// worst of many stops (reported; the bound is generous for shared machines).
func TestStopLatency(t *testing.T) {
	// Issue 19 item 3: at every thread count the Hub accepts.
	for threads := 1; threads <= maxThreads(); threads++ {
		stopLatency(t, threads)
	}
}

func stopLatency(t *testing.T, threads int) {
	// Operating-system pipes, as between a GUI and the binary: a line
	// read from a pipe wakes the command loop only when the Go scheduler
	// has a processor free for it (an in-memory pipe hands it over
	// directly, which hides that).
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	h := NewHub(inR, outW, Options{Log: zerolog.Nop(), Args: []string{"--threads=" + strconv.Itoa(threads)}})
	ended := make(chan struct{})
	go func() { h.Run(); outW.Close(); close(ended) }()
	dones := make(chan time.Time, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "done move=") {
				dones <- time.Now()
			}
		}
		close(dones)
	}()
	defer func() { inW.Close(); <-ended; outR.Close(); inR.Close() }()
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	var lat []time.Duration
	for i := 0; i < rounds; i++ {
		inW.Write([]byte("pos start\ngo analyze\n"))
		time.Sleep(time.Duration(5+i%20) * time.Millisecond)
		start := time.Now()
		inW.Write([]byte("stop\n"))
		select {
		case at := <-dones:
			lat = append(lat, at.Sub(start))
		case <-time.After(5 * time.Second):
			t.Fatal("stop not answered")
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("threads=%d: stop latency over %d searches: median %v, max %v", threads, len(lat), lat[len(lat)/2], lat[len(lat)-1])
	// Loose bounds only: a machine loaded ten times over deschedules a
	// helper thread for seconds (3.4 s seen at load 20), so the worst stop
	// is reported, not judged, beyond the 5 s "not answered" above
	// (docs/testing.md has the quiet figures).
	if lat[len(lat)/2] > 500*time.Millisecond {
		t.Errorf("threads=%d: stop too slow: median %v, max %v", threads, lat[len(lat)/2], lat[len(lat)-1])
	}
}

// FuzzHubLine: any line after "pos start" leaves only protocol lines on
// the output; a line answered with an error leaves the position and the
// parameters as they were; ping is still answered.
func FuzzHubLine(f *testing.F) {
	for _, s := range []string{"pos pos=Wbbbb", "set-param name=variant value=klingon", "level depth=x",
		"pos start moves=\"22-18 99-1\"", "go sideways", "perft depth=2", "set-param name=tt-size value=17",
		"pos pos=W:W21-32:B1-12 moves=22-18", "\x00\xff", "set-param name=notation value=official", "hub"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		f := strings.Fields(line + " x")[0]
		if f == "go" || f == "quit" || (f == "perft" && strings.Contains(line, "depth=")) {
			return // searches and perft are slow; quit ends the session
		}
		var out syncBuffer
		h := NewHub(strings.NewReader(""), &out, Options{Log: zerolog.Nop()})
		h.out = newOutput(&out)
		h.handle(inLine{text: "pos start"})
		pos, variant, notation, tt := h.game.Position(), h.variant, h.notation, h.ttSize
		h.handle(inLine{text: "ping"})
		waitFor(t, &out, "pong\n$")
		before := len(out.String())
		h.handle(inLine{text: line})
		h.endTask()
		h.handle(inLine{text: "ping"})
		h.out.close()
		h.jobs.stop()
		o := out.String()
		checkProtocolOnly(t, o)
		if !strings.HasSuffix(o, "pong\n") {
			t.Fatalf("no pong after %q:\n%s", line, o)
		}
		if strings.Contains(o[before:], "error") && (h.game.Position() != pos || h.variant != variant || h.notation != notation || h.ttSize != tt) {
			t.Fatalf("%q was refused but changed the state", line)
		}
	})
}
