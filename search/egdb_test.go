package search

import (
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestProbeHook: a table that calls every position won for White turns
// the search's score into a table win, below the wins by distance, once a
// capture leads into it; with the root in the tables only a draw is
// taken from them.
func TestProbeHook(t *testing.T) {
	v := movegen.English
	// A 4-piece position where White must capture (into 3 pieces).
	var p movegen.Position
	found := false
	for a := 1; a <= 32 && !found; a++ {
		for c := 1; c <= 32 && !found; c++ {
			q, err := v.ParseFEN("W:WK" + itoa(a) + ",K32:BK" + itoa(c) + ",K4")
			if err == nil && v.HasCapture(&q) {
				p, found = q, true
			}
		}
	}
	if !found {
		t.Fatal("no position with a capture")
	}
	whiteWins := func(v *movegen.Variant, q *movegen.Position) (int, bool) {
		if q.Side == movegen.White {
			return 1, true
		}
		return -1, true
	}
	e := New(v, 16)
	e.SetProbe(whiteWins, 3)
	res := e.Search(NewControl(false), Game{Pos: p}, Limits{Depth: 4}, nil)
	if res.Score < EGWin-1000-MaxPly || res.Score >= MateBound {
		t.Errorf("%s: score %d, want a table win", v.FEN(&p), res.Score)
	}
	// The root in the tables: wins are searched, draws taken.
	r, _ := v.ParseFEN("W:WK1,K2:BK32")
	e.NewGame()
	if res := e.Search(NewControl(false), Game{Pos: r}, Limits{Depth: 4}, nil); res.Score >= EGWin-1000-MaxPly {
		t.Errorf("root in the tables: score %d, a table win", res.Score)
	}
	e.SetProbe(func(*movegen.Variant, *movegen.Position) (int, bool) { return 0, true }, 3)
	e.NewGame()
	if res := e.Search(NewControl(false), Game{Pos: r}, Limits{Depth: 4}, nil); res.Score != 0 {
		t.Errorf("root in the tables, every position a draw: score %d", res.Score)
	}
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}
