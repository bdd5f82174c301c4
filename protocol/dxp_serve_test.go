package protocol

import (
	"bufio"
	"bytes"
	"net"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/search"
)

// Issue 19 item 7: messages during the peer's turn that are not moves do
// not change the game record, so they never make a repetition.
func TestDXPNoiseIsNotARepetition(t *testing.T) {
	p, errc := startFollower(t)
	p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A") // we play Black: the peer moves first
	p.recv()
	for i := 0; i < 4; i++ {
		p.send("Q nonsense")
		p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A") // a request inside a game
	}
	p.send("M0001" + "32" + "28" + "00")
	if m := p.recv(); !strings.HasPrefix(m, "M") {
		t.Fatalf("after noise and a legal move the engine answered %q, want a move", m)
	}
	p.send("E11")
	p.recv()
	p.c.Close()
	<-errc
}

// Issue 19 item 9: strict parsing; malformed requests are refused (code 3)
// and the session goes on.
func TestDXPStrictParsing(t *testing.T) {
	p, errc := startFollower(t)
	for _, req := range []string{
		"R01" + pad("tester", 32) + "W" + "abc" + "000" + "A",                                 // minutes abc
		"R01" + pad("tester", 32) + "W" + "-05" + "000" + "A",                                 // minutes -05
		"R01" + pad("tester", 32) + "W" + "005" + "000" + "B" + "X" + strings.Repeat("e", 50), // side X
		"R01" + pad("tester", 32) + "W" + "005" + "000" + "Axx",                               // trailing bytes
	} {
		p.send(req)
		if got := p.recv(); got != "A"+pad("damaengine", 32)+"3" {
			t.Errorf("%q answered %q, want a refusal (3)", req, got)
		}
	}
	// trailing bytes after a move: malformed, the engine claims the game
	p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A")
	p.recv()
	p.send("M0001" + "32" + "28" + "00" + "17")
	if got := p.recv(); got != "E30" {
		t.Errorf("move with trailing bytes answered %q, want E30", got)
	}
	p.send("E01")
	p.c.Close()
	<-errc
}

// Issue 19 item 9: an over-long message is not buffered beyond the cap:
// a 32 MB message costs no 32 MB, and the session goes on.
func TestDXPOverLongMessage(t *testing.T) {
	p, errc := startFollower(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	chunk := bytes.Repeat([]byte("C"), 1<<20)
	p.c.SetWriteDeadline(time.Now().Add(120 * time.Second)) // 32 MB through a pipe under -race on a loaded machine
	for i := 0; i < 32; i++ {
		if _, err := p.c.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	p.send("")
	p.send("R01" + pad("tester", 32) + "W" + "001" + "000" + "A")
	if got := p.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Fatalf("request after a 32 MB message answered %q", got)
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
		t.Errorf("reading a 32 MB message allocated %d MB", grown>>20)
	}
	p.c.Close()
	<-errc
}

// Issue 19 item 8: a server serves one connection after another; a peer
// that drops mid-game is logged and its game saved as unfinished.
func TestServeDXPKeepsListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var games bytes.Buffer
	pw := writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return games.Write(b) })
	cfg := DXPConfig{Name: "damaengine", MoveTime: 20 * time.Millisecond,
		Log: zerolog.Nop(), Timeout: 20 * time.Second, PDN: pw}
	served := make(chan error, 1)
	go func() { served <- ServeDXP(ln, DXPServer{Config: cfg, NewEngine: newDXPEngine}) }()
	dial := func() *peer {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return &peer{t: t, c: c, br: bufio.NewReader(c)}
	}
	// first peer: a game, one move each, then the peer drops
	p := dial()
	p.send("R01" + pad("first", 32) + "Z" + "001" + "000" + "A")
	p.recv()
	p.send("M0001" + "32" + "28" + "00")
	if m := p.recv(); !strings.HasPrefix(m, "M") {
		t.Fatalf("got %q", m)
	}
	p.c.Close()
	// second peer: served
	q := dial()
	q.send("R01" + pad("second", 32) + "W" + "001" + "000" + "A")
	if got := q.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Fatalf("second connection: request answered %q", got)
	}
	q.c.Close()
	ln.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ServeDXP did not return after the listener closed")
	}
	mu.Lock()
	text := games.String()
	mu.Unlock()
	gs, err := pdn.Read(strings.NewReader(text), movegen.International)
	if err != nil || len(gs) < 1 {
		t.Fatalf("PDN: %v\n%s", err, text)
	}
	if gs[0].Result != pdn.Unfinished || len(gs[0].Moves) != 2 || !strings.Contains(text, "connection lost") {
		t.Errorf("dropped game saved as %s with %d moves:\n%s", gs[0].Result, len(gs[0].Moves), text)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func newDXPEngine() Searcher { return search.New(movegen.International, 16) }
