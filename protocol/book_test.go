package protocol

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/book"
	bookbuild "github.com/damaengine/damaengine/book/build"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

const bookInfoRE = `info depth=\d+ score=-?\d+\.\d\d nodes=0 time=\d+\.\d{3} pv="[^"=]+"`

// bookMoves returns the Hub texts of the embedded book's moves from the
// Italian start within margin of the best.
func bookMoves(t *testing.T, margin int) map[string]bool {
	t.Helper()
	v := movegen.Italian
	b, err := book.Embedded(v)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	var ch book.Choices
	if b.Probe(v, &p, &ch) == 0 {
		t.Fatal("the embedded Italian book has no move from the start")
	}
	ok := map[string]bool{}
	for _, c := range ch.Slice() {
		if ch.Moves[0].Score-c.Score <= margin {
			ok[v.HubMove(c.Move)] = true
		}
	}
	return ok
}

func doneMove(t *testing.T, lines []string) string {
	t.Helper()
	m := regexp.MustCompile(`^done move=(\S+)`).FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("last line %q is not done", lines[len(lines)-1])
	}
	return m[1]
}

// The book is off by default (docs/testing.md: the embedded books measured
// weaker than none); these tests switch it on.

// TestBookMove: from the start the book answers at once, with one info
// (nodes=0, the book line as pv) and a done whose move is a book move
// within book-margin of the best, and whose ponder is the line's second
// move.
func TestBookMove(t *testing.T) {
	ok := bookMoves(t, defaultBookMargin)
	for range 5 {
		lines := golden(t, "set-param name=book value=true\npos start\nlevel move-time=30\ngo think\n", bookInfoRE, doneRE)
		if len(lines) != 2 {
			continue
		}
		if m := doneMove(t, lines); !ok[m] {
			t.Errorf("book move %s is not within the margin (%v)", m, ok)
		}
		pv := regexp.MustCompile(`pv="(\S+) (\S+)`).FindStringSubmatch(lines[0])
		if pv == nil || !strings.HasPrefix(lines[1], "done move="+pv[1]+" ponder="+pv[2]) {
			t.Errorf("done %q does not follow the pv of %q", lines[1], lines[0])
		}
	}
	// margin 0: always the best move
	best := bookMoves(t, 0)
	for range 3 {
		lines := session(t, "set-param name=book value=true\nset-param name=book-margin value=0\npos start\ngo think\n")
		if m := doneMove(t, lines); !best[m] {
			t.Errorf("margin 0 played %s, not the best book move (%v)", m, best)
		}
	}
}

// TestBookNotUsed: book=false, book-ply 0, a depth level and go analyze
// all search; a node level is a budget, and the book answers under it.
func TestBookNotUsed(t *testing.T) {
	for _, in := range []string{
		"set-param name=book value=false\npos start\nlevel move-time=0.05\ngo think\n",
		"set-param name=book value=true\nset-param name=book-ply value=0\npos start\nlevel move-time=0.05\ngo think\n",
		"set-param name=book value=true\npos start\nlevel depth=3\ngo think\n",
	} {
		lines := session(t, in)
		if len(lines) < 2 || strings.Contains(lines[0], "nodes=0 ") {
			t.Errorf("%q: book used:\n%s", in, strings.Join(lines, "\n"))
		}
	}
	golden(t, "set-param name=book value=true\npos start\nlevel nodes=3000\ngo think\n", bookInfoRE, doneRE)
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	pw.Write([]byte("set-param name=book value=true\npos start\ngo analyze\n"))
	waitFor(t, out, "info depth=3 ")
	pw.Write([]byte("stop\n"))
	waitFor(t, out, "done move=")
	pw.Close()
	if strings.Contains(out.String(), "nodes=0 ") {
		t.Errorf("go analyze used the book:\n%s", out.String())
	}
}

// TestBookPonder: under go ponder a book move waits for ponder-hit.
func TestBookPonder(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	pw.Write([]byte("set-param name=book value=true\nset-param name=ponder value=true\npos start\nlevel time=60\ngo ponder\nping\n"))
	waitFor(t, out, "pong")
	if strings.Contains(out.String(), "done") {
		t.Fatalf("done before ponder-hit:\n%s", out.String())
	}
	pw.Write([]byte("ponder-hit\n"))
	waitFor(t, out, "done move=")
	pw.Close()
	if n := strings.Count(out.String(), "done"); n != 1 {
		t.Errorf("%d done lines:\n%s", n, out.String())
	}
}

// TestBookFile: a missing, corrupt or wrong-variant book file is an error
// and the embedded book stays; a good one is used.
func TestBookFile(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.book")
	os.WriteFile(corrupt, []byte("DAMABOOK and then nothing that makes sense"), 0o644)
	build := func(v *movegen.Variant, n int) (string, *book.Book) {
		f := filepath.Join(dir, v.Name+".book")
		b, _, err := bookbuild.Build(context.Background(), bookbuild.Config{Variant: v, Positions: n, Alpha: 0.2, File: f,
			Eval: bookbuild.SearchEvaluator(v, 16, search.Limits{Depth: 1})})
		if err != nil {
			t.Fatal(err)
		}
		return f, b
	}
	russian, _ := build(movegen.Russian, 10)
	italian, ib := build(movegen.Italian, 12)
	lines := golden(t, "set-param name=book value=true\nset-param name=book-file value="+filepath.Join(dir, "missing.book")+"\n"+
		"set-param name=book-file value="+corrupt+"\n"+
		"set-param name=book-file value="+russian+"\n"+
		"pos start\ngo think\n",
		`error message="set-param: book-file: open .*missing.book: no such file or directory; the book in use stays"`,
		`error message="set-param: book-file: .*corrupt.book: truncated book.*; the book in use stays"`,
		`error message="set-param: book-file .*russian.book.* is a book for russian but the variant is italian \(set the variant first\); the book in use stays"`,
		bookInfoRE, doneRE)
	if len(lines) == 5 && !bookMoves(t, defaultBookMargin)[doneMove(t, lines)] {
		t.Errorf("after the errors the embedded book was not used: %s", lines[4])
	}
	// the good Italian file: margin 0 plays its best move
	v := movegen.Italian
	p := v.Start()
	var ch book.Choices
	ib.Probe(v, &p, &ch)
	// (a book this small has no reply in it, so done carries no ponder)
	lines = golden(t, "set-param name=book value=true\nset-param name=book-file value="+italian+"\nset-param name=book-margin value=0\npos start\ngo think\n", bookInfoRE, `done move=\S+( ponder=\S+)?`)
	if len(lines) == 2 {
		if m := doneMove(t, lines); ch.N == 0 || ch.Moves[0].Score != func() int {
			for _, c := range ch.Slice() {
				if v.HubMove(c.Move) == m {
					return c.Score
				}
			}
			return -99999
		}() {
			t.Errorf("with the file book, played %s; its moves %+v", m, ch.Slice())
		}
	}
	golden(t, "set-param name=variant value=russian\nset-param name=book-file value="+russian+"\nping\n", "pong")
}

// BenchmarkBookMove measures a book move through the protocol: from the
// go line to the done line, over a pipe.
func BenchmarkBookMove(b *testing.B) {
	pr, pw := io.Pipe()
	or, ow := io.Pipe()
	h := NewHub(pr, ow, Options{Log: zerolog.Nop()})
	go h.Run()
	buf := make([]byte, 4096)
	readDone := func() {
		var acc []byte
		for !strings.Contains(string(acc), "done move=") {
			n, err := or.Read(buf)
			if err != nil {
				b.Fatal(err)
			}
			acc = append(acc, buf[:n]...)
		}
	}
	pw.Write([]byte("set-param name=book value=true\ninit\n"))
	for b.Loop() {
		pw.Write([]byte("pos start\ngo think\n"))
		readDone()
	}
	pw.Close()
}

// TestBookFileFromArgs: a --book-file on the command line is applied
// before the client sets the variant (the match runner sets it after the
// session starts), so a book for another variant than the default must be
// kept for its variant, not dropped: it was, with a warning no one saw,
// and every non-Italian book-file match measured the embedded book.
func TestBookFileFromArgs(t *testing.T) {
	v := movegen.English
	start := v.Start()
	var ml movegen.MoveList
	v.Generate(&start, &ml)
	// a hand-made book: the start expanded, 12-16 (not the search's
	// choice) the best by far
	ents := map[uint64]book.Entry{start.Key: {Score: 50, Depth: 1, Expanded: true}}
	const want = "12-16"
	for _, m := range ml.Slice() {
		c := start
		c.Play(m)
		s := 0
		if v.HubMove(m) == want {
			s = -50
		}
		ents[c.Key] = book.Entry{Score: s, Depth: 1}
	}
	f := filepath.Join(t.TempDir(), "english.book")
	if err := book.New(v.Name, ents).Save(f); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop(), Args: []string{"--book-file=" + f, "--book-margin=0"}})
	go h.Run()
	pw.Write([]byte("set-param name=variant value=english\nset-param name=notation value=official\npos start\nlevel nodes=2000\ngo think\n"))
	waitFor(t, out, "done move=")
	pw.Close()
	o := out.String()
	if !regexp.MustCompile(`(?m)^info depth=1 score=0\.50 nodes=0 `).MatchString(o) || !strings.Contains(o, "done move="+want) {
		t.Errorf("the command-line English book was not used (want its move %s at 0.50, nodes=0):\n%s", want, o)
	}
}

// A line without nodes (a book move, a slow lookup on a loaded machine)
// carries no nps, however long it took; a searched line does.
func TestInfoLineNPS(t *testing.T) {
	w := newWire(movegen.Italian, "auto")
	var ml movegen.MoveList
	p := movegen.Italian.Start()
	movegen.Italian.Generate(&p, &ml)
	pv := []movegen.Move{ml.Moves[0]}
	book := infoLine(w, search.Info{Depth: 8, PV: pv, Time: 5 * time.Millisecond}, false)
	if strings.Contains(book, "nps=") || !regexp.MustCompile("^"+bookInfoRE+"$").MatchString(book) {
		t.Errorf("book line %q", book)
	}
	searched := infoLine(w, search.Info{Depth: 8, PV: pv, Nodes: 5000, Time: 5 * time.Millisecond}, false)
	if !strings.Contains(searched, " nps=1.0 ") {
		t.Errorf("searched line %q", searched)
	}
}
