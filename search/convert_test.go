package search

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/movegen"
)

// withTables gives e the tables of db (probe and distances).
func withTables(e *Engine, db *egdb.DB, pieces int) {
	e.SetProbe(func(v *movegen.Variant, p *movegen.Position) (int, bool) {
		w, ok := db.Probe(v, p)
		return int(w), ok
	}, pieces)
	e.SetDistance(func(v *movegen.Variant, p *movegen.Position) (int, int, bool) {
		w, d, ok := db.ProbeDistance(v, p)
		return int(w), d, ok
	})
}

// randomPosition places the men and kings of slice s (White to move) on
// random squares of v's board, men off their crowning rows (and in
// Damone its Damoni, the Dame off the Damone squares).
func randomPosition(v *movegen.Variant, s egdb.Slice, rng *rand.Rand) movegen.Position {
	var p movegen.Position
	pick := func(allowed uint64) uint64 {
		free := allowed &^ (p.Pieces[0] | p.Pieces[1])
		n := rng.IntN(bits.OnesCount64(free))
		for ; n > 0; n-- {
			free &= free - 1
		}
		return free & -free
	}
	for i := 0; i < s.UsMen; i++ {
		p.Pieces[movegen.White] |= pick(v.Board() &^ v.CrownRank(movegen.White))
	}
	for i := 0; i < s.UsKings; i++ {
		b := pick(v.Board() &^ v.DamoneRank(movegen.White))
		p.Pieces[movegen.White] |= b
		p.Kings |= b
	}
	for i := 0; i < s.ThemMen; i++ {
		p.Pieces[movegen.Black] |= pick(v.Board() &^ v.CrownRank(movegen.Black))
	}
	for i := 0; i < s.ThemKings; i++ {
		b := pick(v.Board() &^ v.DamoneRank(movegen.Black))
		p.Pieces[movegen.Black] |= b
		p.Kings |= b
	}
	for c, n := range [2]int{s.UsDamoni, s.ThemDamoni} {
		for i := 0; i < n; i++ {
			b := pick(v.Board())
			p.Pieces[c] |= b
			p.Kings |= b
			p.Super |= b
		}
	}
	p.Side = movegen.White
	p.Key = p.ComputeKey()
	return p
}

// TestConvertsWonEndings plays won 3-piece positions of every 8x8 variant
// (Damone's slices of every rank among them)
// out, the winner with the tables and their distances, the loser with the
// tables, both at 2,000 nodes a move: every one must end in a win before
// the move rule or a repetition. The positions are, per slice with two
// pieces against one, the won one of longest distance to conversion among
// a seeded sample, within the move rule (a table win ignores it).
func TestConvertsWonEndings(t *testing.T) {
	vs := []*movegen.Variant{movegen.English, movegen.Italian, movegen.Russian, movegen.Brazilian, movegen.Spanish, movegen.Damone}
	if !testing.Short() {
		vs = append(vs, movegen.Turkish)
	}
	for _, v := range vs {
		db, err := egdb.New(4)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Build(v, 3, "", nil); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(16, uint64(v.ID())))
		played := 0
		for _, s := range egdb.SlicesOf(v, 3) {
			if s.Pieces() != 3 || s.UsMen+s.UsKings+s.UsDamoni != 2 {
				continue
			}
			var start movegen.Position
			longest := -1
			for i := 0; i < 400; i++ {
				p := randomPosition(v, s, rng)
				if v.HasCapture(&p) {
					continue
				}
				w, d, ok := db.ProbeDistance(v, &p)
				if ok && w == egdb.Win && d > longest && (v.DrawPlies == 0 || d <= v.DrawPlies) {
					start, longest = p, d
				}
			}
			if longest < 0 {
				continue
			}
			played++
			g := movegen.NewGame(v, start)
			winner, loser := New(v, 16), New(v, 16)
			withTables(winner, db, 3)
			loser.SetProbe(func(v *movegen.Variant, p *movegen.Position) (int, bool) {
				w, ok := db.Probe(v, p)
				return int(w), ok
			}, 3)
			for g.Plies() < 400 && !g.Status().Over() {
				e := loser
				if g.Position().Side == start.Side {
					e = winner
				}
				res := e.Search(NewControl(false), GameOf(g), Limits{Nodes: 2000}, nil)
				if !res.HasMove {
					t.Fatalf("%s: no move", v.FEN(&start))
				}
				if err := g.Play(res.Move); err != nil {
					t.Fatal(err)
				}
			}
			st := g.Status()
			if st.End != movegen.NoMove || st.Winner != start.Side {
				t.Errorf("%s %s %s (distance %d): %q after %d plies, want a win for the side to move", v.Name, s, v.FEN(&start), longest, st.String(), g.Plies())
			} else if g.Plies() > 4*longest+40 {
				t.Errorf("%s %s %s (distance %d): won, but only after %d plies", v.Name, s, v.FEN(&start), longest, g.Plies())
			}
		}
		if played < 3 {
			t.Errorf("%s: only %d won positions played", v.Name, played)
		}
	}
}
