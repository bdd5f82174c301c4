package search

import (
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestProbeHook: a table that calls every position won for White turns
// the search's score into a table win, below the wins by distance.
func TestProbeHook(t *testing.T) {
	v := movegen.English
	p, err := v.ParseFEN("W:WK1,K2:BK32")
	if err != nil {
		t.Fatal(err)
	}
	e := New(v, 16)
	plain := e.Search(NewControl(false), Game{Pos: p}, Limits{Depth: 4}, nil)
	calls := 0
	e.SetProbe(func(v *movegen.Variant, q *movegen.Position) (int, bool) {
		calls++
		if q.Side == movegen.White {
			return 1, true
		}
		return -1, true
	}, 3)
	e.NewGame()
	res := e.Search(NewControl(false), Game{Pos: p}, Limits{Depth: 4}, nil)
	if calls == 0 || res.Score < EGWin-1000-MaxPly || res.Score >= MateBound {
		t.Errorf("with the table: score %d after %d probes, want a table win", res.Score, calls)
	}
	if plain.Score >= EGWin-1000-MaxPly {
		t.Errorf("without the table: score %d", plain.Score)
	}
}
