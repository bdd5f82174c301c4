package movegen

import "fmt"

// Game is the record of one game: its variant, start position, the moves
// played, the Zobrist key and move-rule count before each move, and so the
// current position. It is the one place that decides when a game is over
// (Status): every front end (the Hub session, DXP, the terminal game, the
// match runner) keeps its game in one, and a search starts from its
// Position, Keys and Reversible.
//
// The end rules of every variant live in Status; where variants differ
// they are data in the variant table (DrawPlies; the all-Damoni option of
// DamoneAllDamoni), not code here.
type Game struct {
	// MaxPlies, when positive, ends the game as a draw (TooLong) once that
	// many plies are played: an adjudication set by whoever runs the game,
	// not a rule of any variant.
	MaxPlies int

	v      *Variant
	start  Position
	pos    Position
	moves  []Move
	before []Position // before[i]: the position move i was played from
	keys   []uint64   // keys[i] = before[i].Key, the form a search wants
	revs   []int      // revs[i]: the move-rule count before move i
	rev    int        // plies since the last capture or man move
}

// NewGame starts the record of a game of v from start, with no move played
// and the move-rule count at zero.
func NewGame(v *Variant, start Position) *Game {
	return &Game{v: v, start: start, pos: start}
}

// Variant returns the game's rule set.
func (g *Game) Variant() *Variant { return g.v }

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position: the start after every move
// played.
func (g *Game) Position() Position { return g.pos }

// Plies returns the number of moves played.
func (g *Game) Plies() int { return len(g.moves) }

// Moves returns the moves played, oldest first. The slice belongs to the
// record: read it, do not change it.
func (g *Game) Moves() []Move { return g.moves }

// Before returns the position move i (0-based) was played from.
func (g *Game) Before(i int) Position { return g.before[i] }

// Keys returns the Zobrist keys of the positions before the current one,
// oldest first: what a search needs to see repetitions. The slice belongs
// to the record and changes with the next Play or Undo; copy it to keep it.
func (g *Game) Keys() []uint64 { return g.keys }

// Reversible returns the number of plies since the last capture or man
// move: the count the variant's move rule reads.
func (g *Game) Reversible() int { return g.rev }

// Legal reports whether m is a legal move in the current position.
func (g *Game) Legal(m Move) bool {
	var ml MoveList
	g.v.Generate(&g.pos, &ml)
	for _, x := range ml.Slice() {
		if x == m {
			return true
		}
	}
	return false
}

// Play records m and makes it. A move that is not legal in the current
// position is refused with an error and the record stays as it was.
func (g *Game) Play(m Move) error {
	if !g.Legal(m) {
		return fmt.Errorf("illegal move %s in %s", g.v.HubMove(m), g.v.FEN(&g.pos))
	}
	g.moves = append(g.moves, m)
	g.before = append(g.before, g.pos)
	g.keys = append(g.keys, g.pos.Key)
	g.revs = append(g.revs, g.rev)
	g.rev = g.pos.NextReversible(m, g.rev)
	g.pos.Play(m)
	return nil
}

// Undo takes back the last move; it reports false when there is none.
func (g *Game) Undo() bool {
	n := len(g.moves) - 1
	if n < 0 {
		return false
	}
	g.pos, g.rev = g.before[n], g.revs[n]
	g.moves, g.before, g.keys, g.revs = g.moves[:n], g.before[:n], g.keys[:n], g.revs[:n]
	return true
}

// End says why a game is over.
type End uint8

// The ways a game ends, in the order Status tries them.
const (
	// NotOver: the game goes on.
	NotOver End = iota
	// NoMove: the side to move has no legal move (or no piece) and loses.
	NoMove
	// NoDamone: Damone with the all-Damoni option, the side to move has
	// lost its last Damone and loses.
	NoDamone
	// Repetition: the position stands for the third time; a draw.
	Repetition
	// MoveRule: the variant's DrawPlies plies passed without a capture or a
	// man move; a draw.
	MoveRule
	// TooLong: the record's MaxPlies were played; a draw by adjudication.
	TooLong
)

// Status is how a game stands: over or not, why, and who won.
type Status struct {
	// End is why the game is over, or NotOver.
	End End
	// Winner is the side that won when the game ended in a loss for the
	// other (NoMove, NoDamone); it means nothing for a draw.
	Winner Color
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s.End != NotOver }

// Draw reports whether the game ended in a draw.
func (s Status) Draw() bool { return s.End >= Repetition }

// String gives the reason in words, such as "black has no legal move" or
// "threefold repetition" ("" while the game goes on).
func (s Status) String() string {
	switch s.End {
	case NoMove:
		return (s.Winner ^ 1).String() + " has no legal move"
	case NoDamone:
		return (s.Winner ^ 1).String() + " has no Damone left"
	case Repetition:
		return "threefold repetition"
	case MoveRule:
		return "move rule"
	case TooLong:
		return "game too long"
	}
	return ""
}

// Status applies the variant's end rules to the current position: no legal
// move loses; with the all-Damoni option, no Damone loses; the third
// occurrence of a position draws; DrawPlies plies without a capture or a
// man move draw (when the variant has that rule); and MaxPlies, when set,
// draws.
func (g *Game) Status() Status {
	p := &g.pos
	var ml MoveList
	switch {
	case g.v.Count(p, &ml) == 0:
		return Status{End: NoMove, Winner: p.Side ^ 1}
	case g.v.Lost(p):
		return Status{End: NoDamone, Winner: p.Side ^ 1}
	case g.repetitions() >= 3:
		return Status{End: Repetition}
	case g.v.DrawPlies > 0 && g.rev >= g.v.DrawPlies:
		return Status{End: MoveRule}
	case g.MaxPlies > 0 && len(g.moves) >= g.MaxPlies:
		return Status{End: TooLong}
	}
	return Status{}
}

// repetitions counts the occurrences of the current position, this one
// included, over the whole game: a Turkish man may step sideways and back,
// so a man move does not end the positions that can repeat. Only every
// second position has the same side to move.
func (g *Game) repetitions() int {
	n := 1
	for j := len(g.keys) - 2; j >= 0; j -= 2 {
		if g.keys[j] == g.pos.Key {
			n++
		}
	}
	return n
}
