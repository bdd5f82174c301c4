package play

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// playSession plays script with the options args gives ("--variant V",
// "--side black", "--fen F"; Italian, White and the start otherwise), the
// engine thinking 20 ms a move, and returns 0, what was shown, and "" (the
// form of a command's status, stdout and stderr).
func playSession(t *testing.T, script string, args ...string) (int, string, string) {
	t.Helper()
	o := Options{Variant: movegen.Italian, MoveTime: 20 * time.Millisecond}
	fen := ""
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "--variant":
			v, err := movegen.Lookup(args[i+1])
			if err != nil {
				t.Fatal(err)
			}
			o.Variant = v
		case "--side":
			o.Human = movegen.Black
		case "--fen":
			fen = args[i+1]
		default:
			t.Fatalf("playSession: unknown option %q", args[i])
		}
	}
	o.Start = o.Variant.Start()
	if fen != "" {
		p, err := o.Variant.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		o.Start = p
	}
	var out bytes.Buffer
	Run(o, strings.NewReader(script), &out)
	return 0, out.String(), ""
}

// fens returns every FEN the "fen" command printed, in order.
func fens(out string) []string {
	var fs []string
	for _, m := range regexp.MustCompile(`(?m)FEN: (\S+)$`).FindAllStringSubmatch(out, -1) {
		fs = append(fs, m[1])
	}
	return fs
}

func TestPlaySession(t *testing.T) {
	start := movegen.Italian.StartFEN
	script := strings.Join([]string{
		"fen",
		"hint",
		"fen",   // the hint played nothing
		"21-10", // illegal: named, legal moves listed, state kept
		"fen",
		"22", // two moves start on 22
		"22-19",
		"moves",
		"fen",
		"undo",
		"fen",
		"undo", // nothing left
		"help",
	}, "\n") + "\n" // end of input, no quit
	rc, out, errs := playSession(t, script)
	if rc != 0 || errs != "" {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
	f := fens(out)
	if len(f) != 5 {
		t.Fatalf("want 5 FEN lines, got %q in\n%s", f, out)
	}
	for _, i := range []int{0, 1, 2, 4} {
		if f[i] != start {
			t.Errorf("FEN %d = %q, want the start %q\n%s", i, f[i], start, out)
		}
	}
	if f[3] == start || !strings.HasPrefix(f[3], "W:") || !strings.Contains(f[3], "19") {
		t.Errorf("after 22-19 and the engine's answer the FEN is %q: want white to move, a man on 19", f[3])
	}
	hint := regexp.MustCompile(`Hint: (\d+-\d+) \(score [-+]\d+\.\d\d for white\)`).FindStringSubmatch(out)
	if hint == nil || !strings.Contains(" 21-18 22-19 23-20 21-17 22-18 23-19 24-20 ", " "+hint[1]+" ") {
		t.Errorf("no hint with a legal opening move and a score in\n%s", out)
	}
	if !strings.Contains(out, `Illegal move "21-10": it is not legal here. Legal moves: 21-18 22-19 23-20 21-17 22-18 23-19 24-20`) {
		t.Errorf("illegal move message missing in\n%s", out)
	}
	if !strings.Contains(out, `Ambiguous move "22": it fits 22-19, 22-18`) {
		t.Errorf("ambiguity message missing in\n%s", out)
	}
	if !strings.Contains(out, "You play 22-19.") || !regexp.MustCompile(`Engine plays \d+-\d+ \(`).MatchString(out) {
		t.Errorf("move or engine answer missing in\n%s", out)
	}
	if !regexp.MustCompile(`Took back 22-19 \d+-\d+\.`).MatchString(out) || !strings.Contains(out, "Nothing to undo.") {
		t.Errorf("undo messages missing in\n%s", out)
	}
	if !strings.Contains(out, "hint    the engine suggests") {
		t.Errorf("help text missing in\n%s", out)
	}
	if strings.Contains(out, "Result:") {
		t.Errorf("a result was announced in an unfinished game\n%s", out)
	}
	// The board: White at the bottom, numbers on the empty squares 13-20,
	// whose move it is.
	first := out[:strings.Index(out, "to move")]
	if !strings.Contains(first, " 8   b     b     b     b     8\n") ||
		!strings.Contains(first, " 5     13    14    15    16  5\n") ||
		!strings.Contains(first, " 1      w     w     w     w  1\n") ||
		strings.Index(first, " 8 ") > strings.Index(first, " 1 ") ||
		!strings.Contains(first, "     a  b  c  d  e  f  g  h\n") {
		t.Errorf("start board from White's side wrong:\n%s", first)
	}
	if !strings.Contains(out, "White to move (you)") || !strings.Contains(out, "Black to move (engine)") {
		t.Errorf("side to move not shown:\n%s", out)
	}
	// after 22-19 the board shows the man on 19 and square 22 empty
	if !strings.Contains(out, " 4  17    18     w    20     4\n") || !strings.Contains(out, " 3      w    22     w     w  3\n") {
		t.Errorf("board after 22-19 wrong:\n%s", out)
	}
}

func TestPlayPartialCaptureToTheEnd(t *testing.T) {
	// 29x22x15x6 and 31x22x15x6 are the legal moves; "29x22" names the
	// first alone.
	rc, out, errs := playSession(t, "31-27\n29x22\nfen\n", "--fen", "W:W29,31:B26,19,11,27")
	if rc != 0 || errs != "" {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
	if !strings.Contains(out, `Illegal move "31-27": it is not legal here. Legal moves: 29x22x15x6 31x22x15x6`) {
		t.Errorf("illegal non-capture not refused:\n%s", out)
	}
	if !strings.Contains(out, "You play 29x22x15x6.\n") || !strings.Contains(out, "Engine plays 27-") {
		t.Errorf("partial path 29x22 not resolved, or no answer:\n%s", out)
	}
	if f := fens(out); len(f) != 1 || !strings.HasPrefix(f[0], "W:W6,31:B") {
		t.Errorf("FEN after the capture: %q", f)
	}

	// To the end: "29x" is the only move from 29, and it takes every black man.
	rc, out, errs = playSession(t, "29x\nfen\n", "--fen", "W:W29:B26,19,11")
	if rc != 0 || errs != "" {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
	if !strings.Contains(out, "You play 29x22x15x6.\n") || !strings.HasSuffix(out, "Result: white wins (black has no legal move)\n") {
		t.Errorf("result missing or not last:\n%s", out)
	}
	if strings.Contains(out, "FEN:") || strings.Contains(out, "Engine plays") {
		t.Errorf("the session went on after the end:\n%s", out)
	}

	// "29x" is not enough when two paths leave 29; the full path is.
	rc, out, _ = playSession(t, "29x\n29x22x13\nquit\n", "--fen", "W:W29:B26,19,18,1")
	if rc != 0 || !strings.Contains(out, `Ambiguous move "29x": it fits 29x22x15, 29x22x13`) ||
		!strings.Contains(out, "You play 29x22x13.") || !strings.HasSuffix(out, "Goodbye.\n") {
		t.Errorf("rc %d, ambiguous capture path:\n%s", rc, out)
	}
	// from and to alone fit both paths that end on 6
	rc, out, _ = playSession(t, "29x6\nquit\n", "--fen", "W:W29:B26,18,19,10,11")
	if rc != 0 || !strings.Contains(out, `Ambiguous move "29x6": it fits 29x22x15x6, 29x22x13x6`) {
		t.Errorf("rc %d, from-to ambiguity:\n%s", rc, out)
	}
	// the Hub form names the capture too
	rc, out, _ = playSession(t, "29x6x11x19x26\n", "--fen", "W:W29:B26,19,11")
	if rc != 0 || !strings.Contains(out, "You play 29x22x15x6.") || !strings.Contains(out, "Result: white wins") {
		t.Errorf("rc %d, Hub form:\n%s", rc, out)
	}
}

func TestPlayBlackSide(t *testing.T) {
	rc, out, errs := playSession(t, "undo\nquit\n", "--side", "black")
	if rc != 0 || errs != "" {
		t.Fatalf("rc %d, stderr %q", rc, errs)
	}
	engine := strings.Index(out, "Engine plays ")
	prompt := strings.Index(out, "black> ")
	if engine < 0 || prompt < 0 || engine > prompt {
		t.Errorf("the engine did not move first:\n%s", out)
	}
	first := out[:strings.Index(out, "to move")]
	if !strings.Contains(first, "     h  g  f  e  d  c  b  a\n") ||
		strings.Index(first, " 1 ") > strings.Index(first, " 8 ") {
		t.Errorf("board not turned round for Black:\n%s", first)
	}
	if !strings.Contains(first, " 1   w     w     w     w     1\n") || !strings.Contains(first, " 4     20    19    18    17  4\n") {
		t.Errorf("Black's view of the start:\n%s", first)
	}
	if !strings.Contains(out, "Black to move (you)") || !strings.Contains(out, "Nothing to undo.") {
		t.Errorf("side to move or undo message:\n%s", out)
	}

	// The engine, White, wins at once: the person's side has no move.
	rc, out, _ = playSession(t, "", "--side", "black", "--fen", "W:W29:B26,19,11")
	if rc != 0 || !strings.Contains(out, "Engine plays 29x22x15x6 (the only move).") ||
		!strings.HasSuffix(out, "Result: white wins (black has no legal move)\n") {
		t.Errorf("rc %d, engine win:\n%s", rc, out)
	}
}

func TestPlayDrawRules(t *testing.T) {
	v := movegen.Italian
	p, err := v.ParseFEN("W:WK29:BK4")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	g := &session{v: v, human: movegen.White, rec: movegen.NewGame(v, p), pos: p, out: &out}
	for i, mv := range []string{"29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4"} {
		if g.finished() {
			t.Fatalf("finished after %d plies: %s", i, out.String())
		}
		m, msg := g.resolve(mv)
		if msg != "" {
			t.Fatal(msg)
		}
		g.play(m)
	}
	if !g.finished() || out.String() != "Result: draw (threefold repetition)\n" {
		t.Errorf("third repetition: %q", out.String())
	}
	// undo leaves the repetition
	g.takeBack()
	out.Reset()
	if g.finished() {
		t.Errorf("finished after undo: %q", out.String())
	}
	// the words for the other ends (movegen's tests trigger the rules)
	for _, c := range []struct {
		v    *movegen.Variant
		s    movegen.Status
		want string
	}{
		{v, movegen.Status{End: movegen.MoveRule}, "draw (100 plies without a capture or a man move)"},
		{movegen.English, movegen.Status{End: movegen.MoveRule}, "draw (80 plies without a capture or a man move)"},
		{movegen.DamoneAllDamoni, movegen.Status{End: movegen.NoDamone, Winner: movegen.Black}, "black wins (white has lost every Damone)"},
		{v, movegen.Status{End: movegen.NoMove, Winner: movegen.White}, "white wins (black has no legal move)"},
	} {
		if got := resultText(c.v, c.s); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.v, c.s, got, c.want)
		}
	}
}

func TestPlayVariantsBoards(t *testing.T) {
	for _, c := range []struct{ variant, want string }{
		{"damone", "    BD  8\n"},
		{"damone", " 1  WD     W     w    29     1\n"},
		{"international", " 6  25    24    23    22    21     6\n"},
		{"russian", " 4   .     .     .     .     4\n"},
		{"turkish", " 1   .  .  .  .  .  .  .  .  1\n"},
	} {
		rc, out, errs := playSession(t, "moves\nquit\n", "--variant", c.variant, "--side", "black")
		if rc != 0 || errs != "" || !strings.Contains(out, c.want) || !strings.Contains(out, "Legal moves: ") {
			t.Errorf("%s: rc %d, stderr %q, no %q in\n%s", c.variant, rc, errs, c.want, out)
		}
	}
}

// FuzzPlayInput: whatever a person types, play never panics and ends at
// the end of input.
func FuzzPlayInput(f *testing.F) {
	for _, s := range []string{"22-18\nhint\nundo\nfen\n", "29x\n", "moves\nhelp\nquit\n", "\x00\xff\n22--18\n", "x\n\n\nundo\nundo\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 400 || strings.Count(script, "\n") > 12 {
			return // each line may cost an engine move
		}
		var out strings.Builder
		Run(Options{Variant: movegen.Italian, Start: movegen.Italian.Start(), MoveTime: time.Millisecond}, strings.NewReader(script), &out)
	})
}
