package protocol

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// peer is the far end of a DXP connection, driven by the test.
type peer struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func (p *peer) send(s string) {
	p.c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := p.c.Write([]byte(s + "\x00")); err != nil {
		p.t.Fatal(err)
	}
}

func (p *peer) recv() string {
	p.t.Helper()
	p.c.SetReadDeadline(time.Now().Add(20 * time.Second))
	s, err := p.br.ReadString(0)
	if err != nil {
		p.t.Fatalf("peer read: %v", err)
	}
	return strings.TrimSuffix(s, "\x00")
}

func startFollower(t *testing.T) (*peer, chan error) {
	a, b := net.Pipe()
	eng := search.New(movegen.International, 16)
	d := NewDXP(a, DXPConfig{Name: "damaengine", Engine: eng, MoveTime: 20 * time.Millisecond, Log: zerolog.Nop(), Timeout: 20 * time.Second})
	errc := make(chan error, 1)
	go func() { errc <- d.Run(); a.Close() }()
	return &peer{t: t, c: b, br: bufio.NewReader(b)}, errc
}

func TestDXPMessages(t *testing.T) {
	p, errc := startFollower(t)
	// Noise before a game: ignored or answered, never fatal.
	p.send("C hello there")
	p.send("Q what is this")
	p.send("B001W")
	if got := p.recv(); got != "K1" {
		t.Fatalf("take-back request answered %q, want K1", got)
	}
	p.send("R01" + pad("tester", 32) + "X" + "005" + "000" + "A") // bad colour
	if got := p.recv(); got != "A"+pad("damaengine", 32)+"1" {
		t.Fatalf("bad request answered %q", got)
	}
	p.send("R01short")
	if got := p.recv(); !strings.HasSuffix(got, "3") {
		t.Fatalf("short request answered %q", got)
	}
	// A real game: the follower plays White (we asked to be followed by W).
	p.send("R01" + pad("tester", 32) + "W" + "001" + "000" + "A")
	if got := p.recv(); got != "A"+pad("damaengine", 32)+"0" {
		t.Fatalf("request answered %q", got)
	}
	v := movegen.International
	pos := v.Start()
	m := p.recv()
	if !strings.HasPrefix(m, "M") || len(m) < 11 {
		t.Fatalf("expected a move, got %q", m)
	}
	d := &DXP{v: v}
	mv, err := d.parseMove(&pos, m[1:])
	if err != nil {
		t.Fatalf("engine's move %q: %v", m, err)
	}
	pos.Play(mv)
	p.send("C nice move")
	p.send("Mxx")                      // a malformed move
	if got := p.recv(); got != "E30" { // malformed move = the engine claims the game
		t.Fatalf("malformed move answered %q, want E30", got)
	}
	p.send("E00")
	// Next game: an illegal move.
	p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A")
	if got := p.recv(); !strings.HasSuffix(got, "0") {
		t.Fatalf("second request answered %q", got)
	}
	p.send("M0001" + "01" + "02" + "00") // 1-2 is not a move
	if got := p.recv(); got != "E30" {
		t.Fatalf("illegal move answered %q, want E30", got)
	}
	p.send("E01")
	p.c.Close()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("session ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("session did not end when the peer closed")
	}
}

func TestDXPPeerEndsGame(t *testing.T) {
	p, errc := startFollower(t)
	p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A")
	p.recv()
	p.send("M0001" + "32" + "28" + "00")
	if m := p.recv(); !strings.HasPrefix(m, "M") {
		t.Fatalf("expected a reply move, got %q", m)
	}
	p.send("E11") // I lose, stop
	if got := p.recv(); got != "E30" {
		t.Fatalf("game end answered %q, want E30 (the engine wins by resignation)", got)
	}
	p.c.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestDXPMoveMessage(t *testing.T) {
	v := movegen.International
	p, err := v.ParseFEN("W:W28:B23,13")
	if err != nil {
		t.Fatal(err)
	}
	d := &DXP{v: v}
	m, err := d.parseMove(&p, "0003"+"28"+"17"+"02"+"23"+"13")
	if err == nil {
		t.Fatalf("28x17 is not a move here: %+v", m)
	}
	var ml movegen.MoveList
	v.Generate(&p, &ml)
	if ml.N != 1 {
		t.Fatalf("%d moves", ml.N)
	}
	msg := d.moveMsg(ml.Moves[0], 3*time.Second)
	back, err := d.parseMove(&p, msg[1:])
	if err != nil || back != ml.Moves[0] {
		t.Fatalf("%q does not read back: %v", msg, err)
	}
	if !strings.HasPrefix(msg, "M0003") {
		t.Errorf("time field in %q", msg)
	}
}

// FuzzDXPMessage: any message body read as a game request or a move
// neither panics nor yields an illegal move, and a follower session fed the
// message still answers a proper game request afterwards.
func FuzzDXPMessage(f *testing.F) {
	f.Add("R01" + pad("x", 32) + "W001000A")
	f.Add("R01" + pad("x", 32) + "Z005050B" + "W" + strings.Repeat("e", 20) + strings.Repeat("w", 10) + strings.Repeat("e", 20))
	f.Add("M0001322800")
	f.Add("M00013228010203")
	f.Add("E11")
	f.Add("B001W")
	f.Add("Chello")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, msg string) {
		if strings.ContainsRune(msg, 0) || len(msg) > maxDXP {
			return
		}
		v := movegen.International
		d := &DXP{v: v, log: zerolog.Nop()}
		if len(msg) > 0 {
			d.parseRequest(msg[1:])
			p := v.Start()
			if m, err := d.parseMove(&p, msg[1:]); err == nil {
				var ml movegen.MoveList
				v.Generate(&p, &ml)
				ok := false
				for _, x := range ml.Slice() {
					ok = ok || x == m
				}
				if !ok {
					t.Fatalf("%q read as an illegal move", msg)
				}
			}
		}
		if msg == "" || msg[0] == 'R' || msg[0] == 'E' || msg[0] == 'M' {
			return // these start or end games: covered by the session tests
		}
		p, errc := startFollower(t)
		p.send(msg)
		p.send("R01" + pad("tester", 32) + "Z" + "001" + "000" + "A")
		for {
			got := p.recv()
			if strings.HasPrefix(got, "A") {
				break
			}
			if got != "K1" {
				t.Fatalf("after %q: unexpected %q", msg, got)
			}
		}
		p.c.Close()
		<-errc
	})
}
