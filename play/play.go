// Package play is the terminal front end: a person plays the engine,
// typing moves in the variant's notation and a few commands, and sees the
// board drawn in text. It reads and writes what it is given (cmd wires it
// to stdin and stdout) and keeps the game in a movegen.Game record, whose
// Status ends it.
package play

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/protocol"
	"github.com/damaengine/damaengine/search"
)

// tableLog2 is the size of the engine's table (2^20 entries of 16 bytes:
// 16 MiB).
const tableLog2 = 20

const help = `Type a move in the variant's notation: a quiet move "22-19", a capture as its
path "29x22x15x6" or in the Hub form (from x to x captured...). A shorter
beginning of a path is enough when only one legal move starts that way
("29x22", "29x" or just "29").
Commands:
  hint    the engine suggests a move (not played) with its score
  undo    take back your last move and the engine's answer
  fen     print the position as FEN
  moves   list the legal moves
  help    this text
  quit    leave the game`

// Options describe one game at the terminal.
type Options struct {
	// Variant is the rule set.
	Variant *movegen.Variant
	// Start is the position the game starts from.
	Start movegen.Position
	// Human is the colour the person plays.
	Human movegen.Color
	// MoveTime is how long the engine thinks per move.
	MoveTime time.Duration
	// Level, when set, weakens the engine as the Hub's level parameter
	// does (protocol.LookupStrength: "1" to "8", "max"): its cap on nodes
	// and time and its evaluation noise. Hints stay at full strength.
	Level *protocol.Strength
}

// Run plays one game: the person's lines come from in, everything shown
// goes to out. It returns when the game ends, the person quits or in ends.
func Run(o Options, in io.Reader, out io.Writer) {
	g := &session{
		v: o.Variant, human: o.Human, rec: movegen.NewGame(o.Variant, o.Start), pos: o.Start,
		moveTime: o.MoveTime, level: o.Level,
		eng: search.New(o.Variant, tableLog2),
		out: out,
		in:  bufio.NewReader(in),
	}
	g.run()
}

// session is one game between the person at the terminal and the engine.
type session struct {
	v        *movegen.Variant
	human    movegen.Color
	rec      *movegen.Game
	pos      movegen.Position // rec's current position, kept at hand
	moveTime time.Duration
	level    *protocol.Strength
	eng      *search.Engine
	out      io.Writer
	in       *bufio.Reader
}

func (g *session) printf(format string, a ...any) { fmt.Fprintf(g.out, format, a...) }

// run plays until the game ends, the person quits or the input ends.
func (g *session) run() {
	lv := ""
	if g.level != nil {
		lv = " at level " + g.level.Name()
	}
	g.printf("damaengine play: %s, you play %s, the engine%s thinks %s per move at most; type help for the commands.\n",
		g.v.Name, g.human, lv, g.moveTime)
	g.printBoard()
	for {
		if g.finished() {
			return
		}
		if g.pos.Side != g.human {
			g.engineMove()
			continue
		}
		g.printf("%s> ", g.human)
		line, err := g.in.ReadString('\n')
		if err != nil && line == "" {
			g.printf("\n")
			return
		}
		if !g.command(strings.TrimSpace(line)) {
			return
		}
	}
}

// command handles one input line; it returns false to leave the game.
func (g *session) command(text string) bool {
	switch strings.ToLower(text) {
	case "":
	case "quit", "exit":
		g.printf("Goodbye.\n")
		return false
	case "help", "?":
		g.printf("%s\n", help)
	case "fen":
		g.printf("FEN: %s\n", g.v.FEN(&g.pos))
	case "moves":
		g.printf("Legal moves: %s\n", strings.Join(g.legalTexts(), " "))
	case "hint":
		res := g.think(false)
		if !res.HasMove {
			g.printf("No legal move.\n")
			break
		}
		g.printf("Hint: %s (%s)\n", g.v.FormatMove(&g.pos, res.Move), g.scoreText(res))
	case "undo":
		g.takeBack()
	default:
		m, msg := g.resolve(text)
		if msg != "" {
			g.printf("%s\n", msg)
			break
		}
		g.printf("You play %s.\n", g.v.FormatMove(&g.pos, m))
		g.play(m)
		g.printBoard()
	}
	return true
}

// legal returns the legal moves of the current position.
func (g *session) legal() []movegen.Move {
	var ml movegen.MoveList
	g.v.Generate(&g.pos, &ml)
	return append([]movegen.Move(nil), ml.Slice()...)
}

// legalTexts returns the legal moves in notation.
func (g *session) legalTexts() []string {
	ms := g.legal()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = g.v.FormatMove(&g.pos, m)
	}
	return out
}

// play makes m, a legal move, in the record.
func (g *session) play(m movegen.Move) {
	if err := g.rec.Play(m); err != nil {
		panic("play: " + err.Error()) // only legal moves reach here
	}
	g.pos = g.rec.Position()
}

// takeBack returns to the last earlier position where the person was to
// move: their last move and the engine's answer (or just their move if the
// engine had not answered).
func (g *session) takeBack() {
	i := g.rec.Plies() - 1
	for i >= 0 && g.rec.Before(i).Side != g.human {
		i--
	}
	if i < 0 {
		g.printf("Nothing to undo.\n")
		return
	}
	var texts []string
	for j := i; j < g.rec.Plies(); j++ {
		p := g.rec.Before(j)
		texts = append(texts, g.v.FormatMove(&p, g.rec.Moves()[j]))
	}
	for g.rec.Plies() > i {
		g.rec.Undo()
	}
	g.pos = g.rec.Position()
	g.printf("Took back %s.\n", strings.Join(texts, " "))
	g.printBoard()
}

// think searches the current position for the engine's move (at the
// level, if one is set) or a hint (full strength).
func (g *session) think(atLevel bool) search.Result {
	lim := search.Limits{MoveTime: g.moveTime}
	full, _ := protocol.LookupStrength("max")
	eval := full.Eval(0)
	if atLevel && g.level != nil {
		lim = g.level.Limit(lim)
		eval = g.level.Eval(rand.Uint64())
	}
	g.eng.SetEval(eval)
	return g.eng.Search(search.NewControl(false), search.GameOf(g.rec), lim, nil)
}

// engineMove lets the engine play its move.
func (g *session) engineMove() {
	res := g.think(true)
	if !res.HasMove { // finished() catches a position without moves first
		legal := g.legal()
		if len(legal) == 0 {
			return
		}
		res.Move = legal[0]
	}
	g.printf("Engine plays %s (%s).\n", g.v.FormatMove(&g.pos, res.Move), g.scoreText(res))
	g.play(res.Move)
	g.printBoard()
}

// scoreText describes a search score from the side to move's view.
func (g *session) scoreText(res search.Result) string {
	if len(g.legal()) == 1 {
		return "the only move"
	}
	s := res.Score
	switch {
	case s > search.MateBound:
		return fmt.Sprintf("score: win in %d plies", search.Mate-s)
	case s < -search.MateBound:
		return fmt.Sprintf("score: loss in %d plies", search.Mate+s)
	}
	return fmt.Sprintf("score %+.2f for %s", float64(s)/100, g.pos.Side)
}

// finished announces the result if the record says the game is over.
func (g *session) finished() bool {
	s := g.rec.Status()
	if !s.Over() {
		return false
	}
	g.printf("Result: %s\n", resultText(g.v, s))
	return true
}

// resultText words a finished game's status for the person.
func resultText(v *movegen.Variant, s movegen.Status) string {
	switch s.End {
	case movegen.NoDamone:
		return fmt.Sprintf("%s wins (%s has lost every Damone)", s.Winner, s.Winner^1)
	case movegen.MoveRule:
		return fmt.Sprintf("draw (%d plies without a capture or a man move)", v.DrawPlies)
	}
	if s.Draw() {
		return "draw (" + s.String() + ")"
	}
	return fmt.Sprintf("%s wins (%s)", s.Winner, s)
}
