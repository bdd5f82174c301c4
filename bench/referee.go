package bench

import "github.com/damaengine/damaengine/movegen"

// Referee plays one game of v from start: next picks every move (of the
// side to move in g) until the rules end the game (movegen.Game's Status;
// a game that runs MaxGamePlies is adjudicated a draw). It returns the
// outcome from White's side and the number of plies played. A move next
// picks that the rules refuse is a bug of the caller: Referee panics.
func Referee(v *movegen.Variant, start movegen.Position, next func(g *movegen.Game) movegen.Move) (outcome, plies int) {
	g := newRecord(v, start)
	for {
		if s := g.Status(); s.Over() {
			return outcomeOf(s), g.Plies()
		}
		if err := g.Play(next(g)); err != nil {
			panic("bench: the referee refused an " + err.Error())
		}
	}
}

// newRecord starts the record of a refereed game of v from start: the
// record's Status applies the rules (movegen.Game), and a game that runs
// MaxGamePlies is adjudicated a draw.
func newRecord(v *movegen.Variant, start movegen.Position) *movegen.Game {
	g := movegen.NewGame(v, start)
	g.MaxPlies = MaxGamePlies
	return g
}

// outcomeOf returns the result of a finished game from White's side.
func outcomeOf(s movegen.Status) int {
	switch {
	case s.Draw():
		return Draw
	case s.Winner == movegen.White:
		return WhiteWins
	}
	return BlackWins
}
