package bench

import "github.com/damaengine/damaengine/movegen"

// Referee follows a game and says when the rules end it: a side with no
// legal move loses; threefold repetition, the variant's move rule and
// MaxGamePlies draw; in Damone with the all-Damoni option, a side without
// a Damone loses.
type Referee struct {
	v       *movegen.Variant
	seen    map[uint64]int
	history []uint64
	rev     int
	plies   int
}

// NewReferee starts refereeing a game of v.
func NewReferee(v *movegen.Variant) *Referee {
	return &Referee{v: v, seen: map[uint64]int{}}
}

// Status reports whether the game is over in p, which must be the position
// after every move recorded so far: outcome (from White's side) and the
// reason in words.
func (r *Referee) Status(p *movegen.Position) (over bool, outcome int, reason string) {
	loser := func(why string) (bool, int, string) {
		if p.Side == movegen.White {
			return true, BlackWins, why
		}
		return true, WhiteWins, why
	}
	var ml movegen.MoveList
	r.v.Generate(p, &ml)
	switch {
	case ml.N == 0:
		return loser(p.Side.String() + " has no legal move")
	case r.v.Lost(p):
		return loser(p.Side.String() + " has no Damone left")
	case r.seen[p.Key] >= 2:
		return true, Draw, "threefold repetition"
	case r.v.DrawPlies > 0 && r.rev >= r.v.DrawPlies:
		return true, Draw, "move rule"
	case r.plies >= MaxGamePlies:
		return true, Draw, "game too long"
	}
	return false, 0, ""
}

// Record notes that m, legal in p, is played.
func (r *Referee) Record(p *movegen.Position, m movegen.Move) {
	r.seen[p.Key]++
	r.history = append(r.history, p.Key)
	r.rev = p.NextReversible(m, r.rev)
	r.plies++
}

// History returns the keys of the positions played so far, and the number
// of plies since the last capture or man move: what a search needs to see
// repetitions and the move rule.
func (r *Referee) History() ([]uint64, int) { return r.history, r.rev }
