package bench

import "github.com/damaengine/damaengine/movegen"

// newRecord starts the record of a refereed game of v from start: the
// record's Status applies the rules (movegen.Game), and a game that runs
// MaxGamePlies is adjudicated a draw.
func newRecord(v *movegen.Variant, start movegen.Position) *movegen.Game {
	g := movegen.NewGame(v, start)
	g.MaxPlies = MaxGamePlies
	return g
}

// outcome returns the result of a finished game from White's side.
func outcome(s movegen.Status) int {
	switch {
	case s.Draw():
		return Draw
	case s.Winner == movegen.White:
		return WhiteWins
	}
	return BlackWins
}
