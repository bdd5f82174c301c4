package search

import (
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestTurkishSidewaysRepetition: a Turkish man that steps sideways and
// back repeats a position across man moves; the search sees it (the move
// rule's counter is zero there, so it cannot be the window).
func TestTurkishSidewaysRepetition(t *testing.T) {
	v := movegen.Turkish
	start, err := v.ParseFEN("W:Wd4,a2:Bh7,a7")
	if err != nil {
		t.Fatal(err)
	}
	rec := movegen.NewGame(v, start)
	for _, s := range []string{"d4-c4", "h7-g7", "c4-d4", "g7-h7"} {
		p := rec.Position()
		m, err := v.ParseMove(&p, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := rec.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if rec.Position().Key != start.Key || rec.Reversible() != 0 {
		t.Fatalf("setup: not back at the start with a zero move-rule count (rev %d)", rec.Reversible())
	}
	e := New(v, 16)
	w := e.workers[0]
	w.setup(GameOf(rec))
	if !w.isDraw(&w.f[0], 0) {
		t.Error("the repeated position is not seen by the search")
	}
	// Elsewhere a man move closes the window: the same history with a
	// variant whose men only move forward sees no repetition.
	g := GameOf(rec)
	g.SinceCapture = 0
	w.setup(g)
	if w.isDraw(&w.f[0], 0) {
		t.Error("repetition seen beyond the window")
	}
}
