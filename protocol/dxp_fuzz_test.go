package protocol

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// FuzzDXPStream feeds any byte stream to the DXP reader and every message
// it yields to the parsers, with no engine (so it runs thousands of times a
// second): messages are split at NUL bytes and never longer than the cap;
// a game request accepted has a start position that can be played and a
// time control in range; a move read is legal in the position it was read
// in; a game end the peer sends is never recorded as the engine's loss.
// The seed corpus is in testdata/fuzz/FuzzDXPStream.
func FuzzDXPStream(f *testing.F) {
	v := movegen.International
	var positions []movegen.Position
	for _, fen := range []string{"W:W31-50:B1-20", "W:W28:B23", "B:W28,K46:B23,19,K5", "W:W33,K36:B29,K3"} {
		p, err := v.ParseFEN(fen)
		if err != nil {
			f.Fatal(err)
		}
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		d := &DXP{v: v, log: zerolog.Nop(), conn: struct {
			io.Reader
			io.Writer
		}{bytes.NewReader(stream), io.Discard}, msgs: make(chan dxpMsg, 16), errc: make(chan error, 1)}
		go d.readLoop()
		for m := range d.msgs {
			if m.kind != 0 && (1+len(m.body) > maxDXP || strings.IndexByte(m.body, 0) >= 0 || m.kind == '\r' || m.kind == '\n') {
				t.Fatalf("message %q: over the cap, holding a NUL, or starting with a line break", string(m.kind)+m.body)
			}
			switch m.kind {
			case 'R':
				g, code := d.parseRequest(m.body)
				if code != "0" {
					break
				}
				if err := playable(v, &g.start); err != nil {
					t.Fatalf("request %q accepted with an unplayable position: %v", m.body, err)
				}
				if _, err := v.ParseFEN(v.FEN(&g.start)); err != nil {
					t.Fatalf("request %q accepted with an impossible position: %v", m.body, err)
				}
				if g.minutes < 1 || g.minutes > 999 || g.moves < 0 || g.moves > 999 {
					t.Fatalf("request %q accepted with %d minutes for %d moves", m.body, g.minutes, g.moves)
				}
			case 'M':
				for _, p := range positions {
					mv, err := d.parseMove(&p, m.body)
					if err != nil {
						continue
					}
					var ml movegen.MoveList
					v.Generate(&p, &ml)
					legal := false
					for _, x := range ml.Slice() {
						legal = legal || x == mv
					}
					if !legal {
						t.Fatalf("move %q read as an illegal move in %s", m.body, v.FEN(&p))
					}
				}
			case 'E':
				claim := byte('0')
				if len(m.body) > 0 {
					claim = m.body[0]
				}
				for _, ours := range []movegen.Color{movegen.White, movegen.Black} {
					res, _, _ := judgeClaim(claim, ours, 10)
					if ours == movegen.White && res == pdn.BlackWins || ours == movegen.Black && res == pdn.WhiteWins {
						t.Fatalf("game end %q recorded as the engine's loss (%s)", m.body, res)
					}
				}
			}
		}
		<-d.errc
	})
}
