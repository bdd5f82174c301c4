package protocol

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// syncPDN collects the PDN a session writes.
type syncPDN struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncPDN) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncPDN) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// followerWithPDN starts a follower session on a pipe that writes its games
// to the returned buffer.
func followerWithPDN(t *testing.T) (*peer, chan error, *syncPDN) {
	a, b := net.Pipe()
	games := &syncPDN{}
	d := NewDXP(a, DXPConfig{Name: "damaengine", Engine: newDXPEngine(), MoveTime: 20 * time.Millisecond, Log: zerolog.Nop(),
		Timeout: 20 * time.Second, PDN: games})
	errc := make(chan error, 1)
	go func() { errc <- d.Run(); a.Close() }()
	return &peer{t: t, c: b, br: bufio.NewReader(b)}, errc, games
}

// dxpBoard writes a position as a DXP board: the colour to move and the 50
// squares.
func dxpBoard(t *testing.T, fen string) string {
	t.Helper()
	v := movegen.International
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	side := "W"
	if p.Side == movegen.Black {
		side = "Z"
	}
	var sb strings.Builder
	for n := 1; n <= 50; n++ {
		bit := uint64(1) << v.Bit(n)
		switch {
		case p.Pieces[movegen.White]&bit != 0 && p.Kings&bit != 0:
			sb.WriteByte('W')
		case p.Pieces[movegen.White]&bit != 0:
			sb.WriteByte('w')
		case p.Pieces[movegen.Black]&bit != 0 && p.Kings&bit != 0:
			sb.WriteByte('Z')
		case p.Pieces[movegen.Black]&bit != 0:
			sb.WriteByte('z')
		default:
			sb.WriteByte('e')
		}
	}
	return side + sb.String()
}

// Issue 48 point 5: a peer's claim of a result the game record does not
// show is never recorded as the engine's loss: a false win claim (E3) and
// a draw claim (E2) in the middle of a game are recorded as disputed and
// unfinished, answered E0; "I lose" (E1) is the peer's resignation.
func TestDXPFalseClaims(t *testing.T) {
	for _, tc := range []struct {
		claim, answer, result, comment string
	}{
		{"E30", "E00", pdn.Unfinished, "disputed: the opponent claimed a win (E3) after 2 plies"},
		{"E20", "E00", pdn.Unfinished, "disputed: the opponent claimed a draw (E2) after 2 plies"},
		{"E10", "E30", pdn.BlackWins, "the opponent resigned after 2 plies"},
		{"E00", "E00", pdn.Unfinished, "with no result"},
	} {
		p, errc, games := followerWithPDN(t)
		p.send("R01" + pad("liar", 32) + "Z" + "001" + "000" + "A") // we play Black
		p.recv()
		p.send("M0001" + "32" + "28" + "00")
		if m := p.recv(); !strings.HasPrefix(m, "M") {
			t.Fatalf("got %q, want a move", m)
		}
		p.send(tc.claim)
		if got := p.recv(); got != tc.answer {
			t.Errorf("%s answered %q, want %q", tc.claim, got, tc.answer)
		}
		p.c.Close()
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		gs, err := pdn.Read(strings.NewReader(games.String()), movegen.International)
		if err != nil || len(gs) != 1 {
			t.Fatalf("%s: PDN %v:\n%s", tc.claim, err, games.String())
		}
		if gs[0].Result != tc.result || !strings.Contains(games.String(), tc.comment) {
			t.Errorf("%s recorded as %s:\n%s\nwant %s naming %q", tc.claim, gs[0].Result, games.String(), tc.result, tc.comment)
		}
	}
}

// The game end the record decides stands, whatever the peer answers: the
// engine takes Black's last piece, claims the win, and the peer's answer
// that it won is only noted.
func TestDXPRecordDecidesTheEnd(t *testing.T) {
	p, errc, games := followerWithPDN(t)
	p.send("R01" + pad("liar", 32) + "W" + "001" + "000" + "B" + dxpBoard(t, "W:W28:B23")) // we play White
	if got := p.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Fatalf("request answered %q", got)
	}
	if m := p.recv(); m != "M0000281901"+"23" {
		t.Fatalf("got %q, want the capture 28x19", m)
	}
	if got := p.recv(); got != "E30" {
		t.Fatalf("got %q, want the engine's win E30", got)
	}
	p.send("E30") // the peer claims the win too
	p.c.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	text := games.String()
	gs, err := pdn.Read(strings.NewReader(text), movegen.International)
	if err != nil || len(gs) != 1 || gs[0].Result != pdn.WhiteWins || !strings.Contains(text, "the record stands") {
		t.Errorf("PDN (%v):\n%s\nwant 2-0 with the peer's disagreement noted", err, text)
	}
}

// Issue 48 point 5: a game request with a position that cannot be played
// is refused (code 3): no pieces, one side without pieces, a side to move
// without a move, a man where it would be crowned, too many pieces.
func TestDXPImpossiblePositionRefused(t *testing.T) {
	p, errc := startFollower(t)
	refused := "A" + pad("damaengine", 32) + "3"
	for name, board := range map[string]string{
		"no pieces":            "W" + strings.Repeat("e", 50),
		"black has no pieces":  "W" + strings.Repeat("w", 5) + strings.Repeat("e", 45)[5:] + strings.Repeat("e", 5),
		"white has no pieces":  "Z" + strings.Repeat("z", 10) + strings.Repeat("e", 40),
		"white man crowned":    "W" + "w" + strings.Repeat("e", 48) + "z",
		"21 white pieces":      "W" + strings.Repeat("z", 20) + strings.Repeat("e", 9) + strings.Repeat("w", 21),
		"white to move, stuck": dxpBoard(t, "W:W46:B41,37"),
	} {
		p.send("R01" + pad("tester", 32) + "W" + "001" + "000" + "B" + board)
		if got := p.recv(); got != refused {
			t.Errorf("%s: answered %q, want %q", name, got, refused)
		}
	}
	// a position that can be played is accepted
	p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "B" + dxpBoard(t, "W:W28,46:B23,5"))
	if got := p.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Errorf("a playable position answered %q", got)
	}
	p.c.Close()
	<-errc
}

// Issue 48 point 4: several peers are played at once, each game on its own
// engine: a silent peer holds only its own place, and is dropped after the
// idle timeout; a connection over the cap is told why and refused.
func TestDXPPeersAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	games := &syncPDN{}
	cfg := DXPConfig{Name: "damaengine", MoveTime: 20 * time.Millisecond, Log: zerolog.Nop(),
		Timeout: 5 * time.Second, IdleTimeout: 400 * time.Millisecond, PDN: games}
	served := make(chan error, 1)
	go func() { served <- ServeDXP(ln, DXPServer{Config: cfg, NewEngine: newDXPEngine, MaxPeers: 2}) }()
	dial := func() *peer {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		return &peer{t: t, c: c, br: bufio.NewReader(c)}
	}
	silent := dial()
	start := time.Now()
	time.Sleep(50 * time.Millisecond) // the silent peer is served first
	active := dial()
	active.send("R01" + pad("active", 32) + "Z" + "001" + "000" + "A")
	if got := active.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Fatalf("the second peer's request answered %q while the first is silent", got)
	}
	active.send("M0001" + "32" + "28" + "00")
	if m := active.recv(); !strings.HasPrefix(m, "M") {
		t.Fatalf("the second peer got %q, want a move", m)
	}
	// a third connection: over the cap
	third := dial()
	if got := third.recv(); !strings.HasPrefix(got, "Cserver busy") {
		t.Errorf("the third connection got %q, want a chat saying the server is busy", got)
	}
	third.send("R01" + pad("third", 32) + "Z" + "001" + "000" + "A")
	if got := third.recv(); got != "A"+pad("damaengine", 32)+"3" {
		t.Errorf("the third connection's request answered %q, want a refusal", got)
	}
	third.c.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := third.br.ReadByte(); err != io.EOF {
		t.Errorf("the third connection was not closed: %v", err)
	}
	// the silent peer is dropped after the idle timeout
	silent.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := silent.br.ReadByte(); err != io.EOF {
		t.Errorf("the silent peer was not dropped: %v", err)
	} else if el := time.Since(start); el < 300*time.Millisecond {
		t.Errorf("the silent peer was dropped after %v, before its idle timeout", el)
	}
	// its place is free again
	fourth := dial()
	fourth.send("R01" + pad("fourth", 32) + "W" + "001" + "000" + "A")
	if got := fourth.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Errorf("after the silent peer was dropped, a request answered %q", got)
	}
	fourth.c.Close()
	ln.Close() // ends the game under way, saved as unfinished
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeDXP did not return after the listener closed")
	}
	active.c.Close()
	if !strings.Contains(games.String(), `[White "active"]`) || !strings.Contains(games.String(), `"*"`) {
		t.Errorf("the game cut off by the end of the server is not saved as unfinished:\n%s", games.String())
	}
}
