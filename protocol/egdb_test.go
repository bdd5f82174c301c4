package protocol

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// probeRecorder is a search engine that records the tables each search
// was given.
type probeRecorder struct {
	*search.Engine
	mu     sync.Mutex
	pieces []int
}

func (r *probeRecorder) SetProbe(f search.ProbeFunc, pieces int) {
	r.mu.Lock()
	if f == nil {
		pieces = 0
	}
	r.pieces = append(r.pieces, pieces)
	r.mu.Unlock()
	r.Engine.SetProbe(f, pieces)
}

func (r *probeRecorder) last() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pieces) == 0 {
		return -1
	}
	return r.pieces[len(r.pieces)-1]
}

// egdbHub is a running Hub session with the tables on, built up to 3
// pieces at most (tiny tables only in tests).
type egdbHub struct {
	in       *io.PipeWriter
	out, err *syncBuffer
	rec      *probeRecorder
	hub      *Hub // set before Run: tests may change its tables' hooks then
	done     chan error
}

func startEgdbHub(t *testing.T, args ...string) *egdbHub {
	t.Helper()
	return startEgdbHubWith(t, true, args...)
}

// startEgdbHubWith starts the session with e.err as its Progress writer
// (progress) or as its LogOutput with no Progress writer.
func startEgdbHubWith(t *testing.T, progress bool, args ...string) *egdbHub {
	t.Helper()
	pr, pw := io.Pipe()
	e := &egdbHub{in: pw, out: &syncBuffer{}, err: &syncBuffer{}, done: make(chan error, 1)}
	opt := Options{Log: zerolog.Nop(), Progress: e.err, Args: args, Egdb: true,
		Engine: func(v *movegen.Variant, ttLog2 int) Searcher {
			e.rec = &probeRecorder{Engine: search.New(v, ttLog2)}
			return e.rec
		}}
	if !progress {
		opt.Progress, opt.LogOutput = nil, e.err
	}
	h := NewHub(pr, e.out, opt)
	e.hub = h
	h.tables.auto = func(*movegen.Variant) int { return 3 }
	go func() { e.done <- h.Run() }()
	t.Cleanup(func() {
		pw.Close()
		<-e.done
	})
	return e
}

func (e *egdbHub) send(t *testing.T, lines ...string) {
	t.Helper()
	if _, err := io.WriteString(e.in, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
}

// search plays one go on a 3-piece English position and returns the
// pieces the search was given.
func (e *egdbHub) search(t *testing.T) int {
	t.Helper()
	n := strings.Count(e.out.String(), "done move=")
	e.send(t, "pos pos=W:WK1,K2:BK32", "level depth=2", "go think")
	waitFor(t, e.out, `(?s)(done move=.*){`+strconv.Itoa(n+1)+`}`)
	return e.rec.last()
}

// TestEgdbBuildsInBackground: with the tables on and none in the
// directory, init starts a build (progress on stderr, nothing on stdout
// but the protocol), the engine answers at once, and the search after the
// build probes the tables.
func TestEgdbBuildsInBackground(t *testing.T) {
	dir := t.TempDir()
	e := startEgdbHub(t, "--egdb-path="+dir)
	e.send(t, "hub", "set-param name=variant value=english", "init", "ping")
	waitFor(t, e.out, `(?m)^pong$`)
	waitFor(t, e.err, `tables of up to 3 pieces built in .*; used from the next search`)
	if !strings.Contains(e.err.String(), "building the tables of up to 3 pieces in "+dir+" in the background") {
		t.Errorf("no start line on stderr: %q", e.err.String())
	}
	if got := e.search(t); got != 3 {
		t.Errorf("search after the build: tables of %d pieces, want 3", got)
	}
	if o := e.out.String(); strings.Contains(o, "egdb english") || strings.Contains(o, "error message") {
		t.Errorf("build output on stdout: %q", o)
	}
	if _, err := os.Stat(filepath.Join(dir, "english", "build.lock")); !os.IsNotExist(err) {
		t.Errorf("build lock left behind: %v", err)
	}
	// egdb off: no tables.
	e.send(t, "set-param name=egdb value=false")
	if got := e.search(t); got != 0 {
		t.Errorf("egdb=false: tables of %d pieces", got)
	}
	e.send(t, "set-param name=egdb value=true")
	if got := e.search(t); got != 3 {
		t.Errorf("egdb=true again: tables of %d pieces", got)
	}
}

// TestEgdbProgressNotInTheLog: without a Progress writer the background
// build says nothing, not even on the log output (a client that merges
// stderr into stdout would read its lines as protocol), and still builds.
func TestEgdbProgressNotInTheLog(t *testing.T) {
	e := startEgdbHubWith(t, false, "--egdb-path="+t.TempDir())
	e.send(t, "hub", "set-param name=variant value=english", "init")
	for deadline := time.Now().Add(120 * time.Second); e.search(t) != 3; {
		if time.Now().After(deadline) {
			t.Fatal("the tables were never built and used")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s := e.err.String(); s != "" {
		t.Errorf("background build wrote to the log output: %q", s)
	}
}

// TestEgdbTwoSessionsOneDirectory: two sessions (as the two engines of a
// match) finding the same directory empty build it once between them and
// both end with sound tables.
func TestEgdbTwoSessionsOneDirectory(t *testing.T) {
	dir := t.TempDir()
	a := startEgdbHub(t, "--egdb-path="+dir)
	b := startEgdbHub(t, "--egdb-path="+dir)
	for _, e := range []*egdbHub{a, b} {
		e.send(t, "set-param name=variant value=english", "init")
	}
	for _, e := range []*egdbHub{a, b} {
		waitFor(t, e.err, `used from the next search|another process is building`)
	}
	for _, e := range []*egdbHub{a, b} {
		// The waiting one finds the tables once the other's build is done
		// and its lock gone (it looks every second).
		deadline := time.Now().Add(20 * time.Second)
		for e.search(t) != 3 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if got := e.search(t); got != 3 {
			t.Fatalf("tables of %d pieces; stderr %q; stdout %q", got, e.err.String(), e.out.String())
		}
	}
	db, err := egdb.New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.LoadPresent(movegen.English, dir); n != 3 || err != nil {
		t.Errorf("files: %d pieces, %v", n, err)
	}
}

// corruptEnglish flips a byte in the middle of the English 1k-1k values
// file in dir and returns its path.
func corruptEnglish(t *testing.T, dir string) string {
	t.Helper()
	bad := filepath.Join(dir, "english", "0101.wdl")
	raw, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 0xff
	if err := os.WriteFile(bad, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestEgdbBadFiles: a corrupt table file is an error line naming it, and
// the engine plays on without tables; a path that is a file is refused.
func TestEgdbBadFiles(t *testing.T) {
	dir := t.TempDir()
	buildEnglish3(t, dir)
	bad := corruptEnglish(t, dir)
	e := startEgdbHub(t, "--egdb-path="+dir)
	e.send(t, "set-param name=variant value=english", "init")
	waitFor(t, e.out, `error message=".*`+regexp.QuoteMeta(bad)+`: corrupt \(checksum mismatch\); english is played without endgame tables"`)
	if got := e.search(t); got != 0 {
		t.Errorf("corrupt file: tables of %d pieces", got)
	}
	if n := strings.Count(e.out.String(), "error message"); n != 1 {
		t.Errorf("%d error lines, want the one:\n%s", n, e.out.String())
	}
	e.send(t, "set-param name=egdb-path value="+bad, "set-param name=egdb-cache value=0", "ping")
	waitFor(t, e.out, `(?m)^pong$`)
	for _, want := range []string{`is not a directory`, `is not an integer in 1-65536`} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("no error %q:\n%s", want, e.out.String())
		}
	}
	// A new path setting reloads: good tables, no error.
	good := t.TempDir()
	buildEnglish3(t, good)
	e.send(t, "set-param name=egdb-path value="+good)
	if got := e.search(t); got != 3 {
		t.Errorf("good path: tables of %d pieces:\n%s", got, e.out.String())
	}
}

// TestEgdbLoadInBackground: a load that takes longer than the wait does
// not hold up init or go: ready and the searches come at once, without
// tables, and the tables are in use from the first search after the
// files are read; a corrupt file found so is reported at that search.
func TestEgdbLoadInBackground(t *testing.T) {
	for _, corrupt := range []bool{false, true} {
		dir := t.TempDir()
		buildEnglish3(t, dir)
		if corrupt {
			corruptEnglish(t, dir)
		}
		release := make(chan struct{})
		e := startEgdbHubWith(t, true, "--egdb-path="+dir)
		e.hub.tables.wait = 10 * time.Millisecond
		e.hub.tables.beforeLoad = func() { <-release }
		e.send(t, "hub", "set-param name=variant value=english", "init")
		waitFor(t, e.out, `(?m)^ready$`)
		if got := e.search(t); got != 0 {
			t.Errorf("search while the load is held: tables of %d pieces", got)
		}
		close(release)
		want := 3
		if corrupt {
			want = 0
			waitForSearch(t, e, func() bool { return strings.Contains(e.out.String(), "checksum mismatch") })
		} else {
			waitForSearch(t, e, func() bool { return e.rec.last() == 3 })
		}
		if got := e.search(t); got != want {
			t.Errorf("corrupt %v: after the load, tables of %d pieces, want %d", corrupt, got, want)
		}
		if n := strings.Count(e.out.String(), "error message"); corrupt != (n == 1) || n > 1 {
			t.Errorf("corrupt %v: %d error lines:\n%s", corrupt, n, e.out.String())
		}
	}
}

// waitForSearch searches until ok holds (at most 20 s).
func waitForSearch(t *testing.T, e *egdbHub, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		e.search(t)
		if ok() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("never: stdout %q", e.out.String())
		}
	}
}

// TestEgdbRebuildsWithoutDistances: tables from before the distances (no
// .dtc files) are solved again in the background, and used meanwhile.
func TestEgdbRebuildsWithoutDistances(t *testing.T) {
	dir := t.TempDir()
	buildEnglish3(t, dir)
	dtc, _ := filepath.Glob(filepath.Join(dir, "english", "*.dtc"))
	if len(dtc) == 0 {
		t.Fatal("no distance files written")
	}
	for _, f := range dtc {
		os.Remove(f)
	}
	e := startEgdbHub(t, "--egdb-path="+dir)
	e.send(t, "set-param name=variant value=english", "init")
	waitFor(t, e.err, `tables of up to 3 pieces built in .*; used from the next search`)
	if got := e.search(t); got != 3 {
		t.Errorf("tables of %d pieces after the rebuild", got)
	}
	if again, _ := filepath.Glob(filepath.Join(dir, "english", "*.dtc")); len(again) != len(dtc) {
		t.Errorf("%d distance files after the rebuild, want %d", len(again), len(dtc))
	}
}

// buildEnglish3 builds English's tables of up to 3 pieces into dir.
func buildEnglish3(t *testing.T, dir string) {
	t.Helper()
	db, err := egdb.New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Build(movegen.English, 3, dir, nil); err != nil {
		t.Fatal(err)
	}
}

// TestEgdbDamone: Damone's tables are built in the background and probed
// like the others; with the all-Damoni option on (tables are for the
// default rules only) the search gets none, and gets them back with it
// off.
func TestEgdbDamone(t *testing.T) {
	dir := t.TempDir()
	e := startEgdbHub(t, "--egdb-path="+dir)
	e.send(t, "hub", "set-param name=variant value=damone", "init", "ping")
	waitFor(t, e.out, `(?m)^pong$`)
	waitFor(t, e.err, `egdb damone: tables of up to 3 pieces built in .*; used from the next search`)
	search := func() int {
		t.Helper()
		n := strings.Count(e.out.String(), "done move=")
		e.send(t, "pos pos=W:WD30:B29", "level depth=2", "go think")
		waitFor(t, e.out, `(?s)(done move=.*){`+strconv.Itoa(n+1)+`}`)
		return e.rec.last()
	}
	if got := search(); got != 3 {
		t.Errorf("damone: tables of %d pieces, want 3", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "damone", "001100.wdl")); err != nil {
		t.Errorf("damone 1D-1m: %v", err)
	}
	e.send(t, "set-param name=all-damoni-win value=true")
	if got := search(); got != 0 {
		t.Errorf("all-damoni-win: tables of %d pieces", got)
	}
	e.send(t, "set-param name=all-damoni-win value=false")
	if got := search(); got != 3 {
		t.Errorf("all-damoni-win off again: tables of %d pieces", got)
	}
	if o := e.out.String(); strings.Contains(o, "error message") {
		t.Errorf("an error on stdout: %q", o)
	}
}

// TestAutoPieces: the pieces built behind a user's back, variant by
// variant (Italian's fifth piece measured in play; the others' sizes and
// times in AutoPieces' comment).
func TestAutoPieces(t *testing.T) {
	want := map[*movegen.Variant]int{movegen.Italian: 5, movegen.English: 4, movegen.Russian: 4, movegen.Brazilian: 4,
		movegen.Spanish: 4, movegen.Damone: 4, movegen.Turkish: 3, movegen.International: 3}
	for v, n := range want {
		if got := AutoPieces(v); got != n {
			t.Errorf("%s: %d pieces, want %d", v.Name, got, n)
		}
	}
}
