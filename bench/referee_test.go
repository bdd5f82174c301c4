package bench

import (
	"math/rand/v2"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// Referee asks for moves until the record's Status ends the game, and
// returns that end: random games of every variant end by the rules or at
// the MaxGamePlies cap, never later.
func TestRefereeEndsByTheRules(t *testing.T) {
	for _, v := range movegen.Variants() {
		r := rand.New(rand.NewPCG(1, 2))
		var rec *movegen.Game
		var ml movegen.MoveList
		asked := 0
		out, plies := Referee(v, v.Start(), func(g *movegen.Game) movegen.Move {
			if g.Status().Over() {
				t.Fatalf("%s: asked for a move in a finished game", v.Name)
			}
			rec, asked = g, asked+1
			p := g.Position()
			v.Generate(&p, &ml)
			return ml.Moves[r.IntN(ml.N)]
		})
		st := rec.Status()
		if !st.Over() || out != outcomeOf(st) || plies != rec.Plies() || plies != asked || plies > MaxGamePlies {
			t.Errorf("%s: outcome %d after %d plies (%d asked); the record says %v after %d", v.Name, out, plies, asked, st, rec.Plies())
		}
	}
}
