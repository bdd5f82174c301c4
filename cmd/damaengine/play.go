package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// playTableLog2 is the size of the engine's table in "damaengine play"
// (2^20 entries of 16 bytes: 16 MiB).
const playTableLog2 = 20

const playHelp = `Type a move in the variant's notation: a quiet move "22-19", a capture as its
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

// runPlay implements "damaengine play": a person plays the engine on the
// terminal, typing moves and commands on stdin.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	variant := fs.String("variant", "italian", "rule set")
	side := fs.String("side", "white", "the colour you play: white or black")
	moveTime := fs.Float64("movetime", 1, "seconds the engine thinks per move")
	fen := fs.String("fen", "", "start position (PDN FEN or Hub string; default: the variant's start)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "damaengine play: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "damaengine play: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	v, err := movegen.Lookup(*variant)
	if err != nil {
		fmt.Fprintf(stderr, "damaengine play: %v\n", err)
		return 2
	}
	var human movegen.Color
	switch strings.ToLower(strings.TrimSpace(*side)) {
	case "white", "w":
		human = movegen.White
	case "black", "b":
		human = movegen.Black
	default:
		fmt.Fprintf(stderr, "damaengine play: --side %q is not white or black\n", *side)
		return 2
	}
	if math.IsNaN(*moveTime) || *moveTime <= 0 || *moveTime > 3600 {
		fmt.Fprintf(stderr, "damaengine play: --movetime %v out of range (0, 3600] seconds\n", *moveTime)
		return 2
	}
	pos := v.Start()
	if *fen != "" {
		if pos, err = v.ParsePosition(*fen); err != nil {
			fmt.Fprintf(stderr, "damaengine play: %v\n", err)
			return 2
		}
	}
	g := &playGame{
		v: v, human: human, pos: pos,
		moveTime: time.Duration(*moveTime * float64(time.Second)),
		eng:      search.New(v, playTableLog2),
		out:      stdout,
		in:       bufio.NewReader(stdin),
	}
	g.run()
	return 0
}

// playSnapshot is the game state before one move, kept for undo.
type playSnapshot struct {
	pos   movegen.Position
	rev   int
	nkeys int
	text  string // the move played from pos, in notation
}

// playGame is one game between the person at the terminal and the engine.
type playGame struct {
	v        *movegen.Variant
	human    movegen.Color
	pos      movegen.Position
	keys     []uint64 // keys of the positions before pos, oldest first
	rev      int      // plies since the last capture or man move
	undo     []playSnapshot
	moveTime time.Duration
	eng      *search.Engine
	out      io.Writer
	in       *bufio.Reader
}

func (g *playGame) printf(format string, a ...any) { fmt.Fprintf(g.out, format, a...) }

// run plays until the game ends, the person quits or the input ends.
func (g *playGame) run() {
	g.printf("damaengine play: %s, you play %s, the engine thinks %s per move; type help for the commands.\n",
		g.v.Name, g.human, g.moveTime)
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
func (g *playGame) command(text string) bool {
	switch strings.ToLower(text) {
	case "":
	case "quit", "exit":
		g.printf("Goodbye.\n")
		return false
	case "help", "?":
		g.printf("%s\n", playHelp)
	case "fen":
		g.printf("FEN: %s\n", g.v.FEN(&g.pos))
	case "moves":
		g.printf("Legal moves: %s\n", strings.Join(g.legalTexts(), " "))
	case "hint":
		res := g.think()
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
func (g *playGame) legal() []movegen.Move {
	var ml movegen.MoveList
	g.v.Generate(&g.pos, &ml)
	return append([]movegen.Move(nil), ml.Slice()...)
}

// legalTexts returns the legal moves in notation.
func (g *playGame) legalTexts() []string {
	ms := g.legal()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = g.v.FormatMove(&g.pos, m)
	}
	return out
}

// splitSquares cuts move text at its separators ('-', 'x', ':') and
// reports whether it ended with one.
func splitSquares(s string) (toks []string, trailing bool) {
	tok := ""
	for _, c := range s {
		switch c {
		case '-', 'x', 'X', ':':
			toks = append(toks, tok)
			tok = ""
		default:
			tok += string(c)
		}
	}
	if tok == "" && len(toks) > 0 {
		return toks, true
	}
	return append(toks, tok), false
}

// square reads one square name (a number, or algebraic where the variant
// uses it) and returns its bit, or -1.
func (g *playGame) square(tok string) int {
	tok = strings.ToLower(strings.TrimSpace(tok))
	if n, err := strconv.Atoi(tok); err == nil {
		return g.v.Bit(n)
	}
	for b := 0; b < 64; b++ {
		if g.v.Board()&(1<<b) != 0 && g.v.SquareName(b) == tok {
			return b
		}
	}
	return -1
}

// resolve finds the legal move text names: anything ParseMove reads, or
// the beginning of exactly one legal move's written path. On failure the
// message says why and lists the legal moves or the candidates.
func (g *playGame) resolve(text string) (movegen.Move, string) {
	legal := g.legal()
	names := make([]string, len(legal))
	for i, m := range legal {
		names[i] = g.v.FormatMove(&g.pos, m)
	}
	list := strings.Join(names, " ")
	if len(legal) == 0 {
		return movegen.Move{}, fmt.Sprintf("No legal move for %q: %s has no move.", text, g.pos.Side)
	}
	if m, err := g.v.ParseMove(&g.pos, text); err == nil {
		return m, ""
	}
	toks, _ := splitSquares(text)
	want := make([]int, len(toks))
	for i, t := range toks {
		if want[i] = g.square(t); want[i] < 0 {
			return movegen.Move{}, fmt.Sprintf("%q is neither a move nor a command (%q is not a square; type help). Legal moves: %s", text, t, list)
		}
	}
	var found []int
	for i, name := range names {
		path, _ := splitSquares(name)
		if len(want) == 2 && int(legal[i].From) == want[0] && int(legal[i].To) == want[1] {
			found = append(found, i) // a capture named by from and to
			continue
		}
		if len(want) > len(path) {
			continue
		}
		ok := true
		for j, b := range want {
			if g.square(path[j]) != b {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return movegen.Move{}, fmt.Sprintf("Illegal move %q: it is not legal here. Legal moves: %s", text, list)
	case 1:
		return legal[found[0]], ""
	}
	cands := make([]string, len(found))
	for i, k := range found {
		cands[i] = names[k]
	}
	return movegen.Move{}, fmt.Sprintf("Ambiguous move %q: it fits %s. Type more of the path.", text, strings.Join(cands, ", "))
}

// play makes m, keeping what undo and the draw rules need.
func (g *playGame) play(m movegen.Move) {
	g.undo = append(g.undo, playSnapshot{pos: g.pos, rev: g.rev, nkeys: len(g.keys), text: g.v.FormatMove(&g.pos, m)})
	g.keys = append(g.keys, g.pos.Key)
	g.rev = g.pos.NextReversible(m, g.rev)
	g.pos.Play(m)
}

// takeBack returns to the last earlier position where the person was to
// move: their last move and the engine's answer (or just their move if the
// engine had not answered).
func (g *playGame) takeBack() {
	i := len(g.undo) - 1
	for i >= 0 && g.undo[i].pos.Side != g.human {
		i--
	}
	if i < 0 {
		g.printf("Nothing to undo.\n")
		return
	}
	var texts []string
	for _, s := range g.undo[i:] {
		texts = append(texts, s.text)
	}
	s := g.undo[i]
	g.pos, g.rev, g.keys, g.undo = s.pos, s.rev, g.keys[:s.nkeys], g.undo[:i]
	g.printf("Took back %s.\n", strings.Join(texts, " "))
	g.printBoard()
}

// think searches the current position for the engine's move or a hint.
func (g *playGame) think() search.Result {
	game := search.Game{Pos: g.pos, History: append([]uint64(nil), g.keys...), Reversible: g.rev}
	return g.eng.Search(search.NewControl(false), game, search.Limits{MoveTime: g.moveTime}, nil)
}

// engineMove lets the engine play its move.
func (g *playGame) engineMove() {
	res := g.think()
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
func (g *playGame) scoreText(res search.Result) string {
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

// finished announces the result if the game is over.
func (g *playGame) finished() bool {
	side := g.pos.Side
	result := ""
	switch {
	case len(g.legal()) == 0:
		result = fmt.Sprintf("%s wins (%s has no legal move)", side^1, side)
	case g.v.Lost(&g.pos):
		result = fmt.Sprintf("%s wins (%s has lost every Damone)", side^1, side)
	case g.repetitions() >= 3:
		result = "draw (threefold repetition)"
	case g.v.DrawPlies > 0 && g.rev >= g.v.DrawPlies:
		result = fmt.Sprintf("draw (%d plies without a capture or a man move)", g.rev)
	default:
		return false
	}
	g.printf("Result: %s\n", result)
	return true
}

// repetitions counts the occurrences of the current position since the
// last capture or man move, this one included.
func (g *playGame) repetitions() int {
	n := 1
	for j := len(g.keys) - 1; j >= 0 && j >= len(g.keys)-g.rev; j-- {
		if g.keys[j] == g.pos.Key {
			n++
		}
	}
	return n
}

// printBoard draws the board from the person's side: their pieces at the
// bottom, files and ranks around it, the number of every empty playable
// square in numbered variants; then says whose move it is.
func (g *playGame) printBoard() {
	v, p := g.v, &g.pos
	files, ranks := v.Files(), v.Ranks()
	numbered := false
	for b := 0; b < 64; b++ {
		if v.Board()&(1<<b) != 0 {
			_, err := strconv.Atoi(v.SquareName(b))
			numbered = err == nil
			break
		}
	}
	fileAt := func(i int) int {
		if g.human == movegen.Black {
			return files - 1 - i
		}
		return i
	}
	var sb strings.Builder
	letters := func() {
		sb.WriteString("   ")
		for i := 0; i < files; i++ {
			sb.WriteString("  " + string(rune('a'+fileAt(i))))
		}
		sb.WriteString("\n")
	}
	letters()
	for i := 0; i < ranks; i++ {
		r := ranks - 1 - i
		if g.human == movegen.Black {
			r = i
		}
		fmt.Fprintf(&sb, "%2d ", r+1)
		for j := 0; j < files; j++ {
			b := v.BitAt(fileAt(j), r)
			cell := "  "
			if b >= 0 {
				cell = " ."
				if numbered {
					cell = fmt.Sprintf("%2s", v.SquareName(b))
				}
				bit := uint64(1) << b
				for c := movegen.White; c <= movegen.Black; c++ {
					if p.Pieces[c]&bit == 0 {
						continue
					}
					letter := "w"
					if c == movegen.Black {
						letter = "b"
					}
					switch {
					case p.Super&bit != 0:
						cell = strings.ToUpper(letter) + "D"
					case p.Kings&bit != 0:
						cell = " " + strings.ToUpper(letter)
					default:
						cell = " " + letter
					}
				}
			}
			sb.WriteString(" " + cell)
		}
		fmt.Fprintf(&sb, "  %d\n", r+1)
	}
	letters()
	legend := "w b men, W B kings"
	if p.Super != 0 || strings.Contains(v.StartFEN, "D") {
		legend = "w b men, W B Dame, WD BD Damoni"
	}
	who := "you"
	if p.Side != g.human {
		who = "engine"
	}
	fmt.Fprintf(&sb, "(%s)  %s to move (%s)\n", legend, titleColour(p.Side), who)
	g.printf("%s", sb.String())
}

// titleColour returns "White" or "Black".
func titleColour(c movegen.Color) string {
	s := c.String()
	return strings.ToUpper(s[:1]) + s[1:]
}
