package pdn

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// randomGame plays up to n random legal moves from start.
func randomGame(v *movegen.Variant, start movegen.Position, rng *rand.Rand, n int) *Game {
	g := &Game{Variant: v, Start: start, Result: DrawResult}
	g.SetTag("Event", "test")
	g.SetTag("White", `the "first" engine`)
	p := start
	var ml movegen.MoveList
	for i := 0; i < n; i++ {
		v.Generate(&p, &ml)
		if ml.N == 0 {
			break
		}
		m := ml.Moves[rng.IntN(ml.N)]
		g.Moves = append(g.Moves, m)
		p.Play(m)
	}
	return g
}

func TestRoundTripEveryVariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, v := range movegen.Variants() {
		var sb strings.Builder
		var games []*Game
		for i := 0; i < 20; i++ {
			start := v.Start()
			if i%5 == 4 { // a non-standard start travels as a FEN tag
				var ml movegen.MoveList
				v.Generate(&start, &ml)
				start.Play(ml.Moves[0])
			}
			g := randomGame(v, start, rng, 120)
			if i == 3 {
				g.Comment = "black played an illegal move"
				g.Result = WhiteWins
			}
			games = append(games, g)
			if err := Write(&sb, g); err != nil {
				t.Fatal(err)
			}
		}
		back, err := Read(strings.NewReader(sb.String()), movegen.Italian)
		if err != nil {
			t.Fatalf("%s: %v\n%s", v.Name, err, sb.String())
		}
		if len(back) != len(games) {
			t.Fatalf("%s: read %d games, wrote %d", v.Name, len(back), len(games))
		}
		for i, g := range games {
			b := back[i]
			if b.Variant != g.Variant && !(b.Variant.Name == g.Variant.Name) {
				t.Errorf("%s game %d: variant %s", v.Name, i, b.Variant.Name)
			}
			if b.Start != g.Start || len(b.Moves) != len(g.Moves) || b.Result != g.Result || b.Comment != g.Comment {
				t.Errorf("%s game %d differs after reading back", v.Name, i)
				continue
			}
			for j := range g.Moves {
				if b.Moves[j] != g.Moves[j] {
					t.Errorf("%s game %d move %d differs", v.Name, i, j+1)
					break
				}
			}
			if b.Tag("White") != `the "first" engine` {
				t.Errorf("tag read back as %q", b.Tag("White"))
			}
		}
	}
}

// Tag values with the characters PDN quoting is about (a '"', a '\\', a
// ']' that would end a tag read naively, a '{' or ';' that would start a
// comment) read back as they were written, and the games after them are
// read whole.
func TestTagValuesRoundTrip(t *testing.T) {
	v := movegen.Italian
	values := []string{
		`./damaengine hub --name="a b"`,
		`C:\engines\`,
		`\"`,
		`\\"x\`,
		`opt=[1] ]`,
		`{not a comment} ; nor this`,
		`"`,
		``,
	}
	var sb strings.Builder
	for i, val := range values {
		g := &Game{Variant: v, Start: v.Start(), Result: DrawResult}
		g.SetTag("Round", string(rune('1'+i)))
		g.SetTag("Engine1", val)
		g.SetTag("Limit", "nodes=300")
		g.Moves = randomGame(v, v.Start(), rand.New(rand.NewPCG(1, uint64(i))), 6).Moves
		if err := Write(&sb, g); err != nil {
			t.Fatal(err)
		}
	}
	games, err := Read(strings.NewReader(sb.String()), v)
	if err != nil || len(games) != len(values) {
		t.Fatalf("%d games, %v:\n%s", len(games), err, sb.String())
	}
	for i, g := range games {
		if g.Tag("Engine1") != values[i] || g.Tag("Limit") != "nodes=300" || g.Tag("Round") != string(rune('1'+i)) || len(g.Moves) != 6 {
			t.Errorf("game %d: Engine1 %q (wrote %q), Limit %q, Round %q, %d moves", i+1, g.Tag("Engine1"), values[i], g.Tag("Limit"), g.Tag("Round"), len(g.Moves))
		}
	}
	// a tag cut in its quoted value is not read as a whole one
	text := sb.String()
	cut := text[:strings.Index(text, "opt=[1]")+7]
	if keep := Complete(cut); !strings.Contains(cut[keep:], "opt=[1]") {
		t.Errorf("Complete keeps the cut tag: %q", cut[keep:])
	}
	if _, err := Read(strings.NewReader(cut), v); err == nil {
		t.Error("a tag cut after the ']' inside its value read without error")
	}
}

func TestReadErrors(t *testing.T) {
	for _, text := range []string{
		"[GameType \"22\"]\n1. 22-19 11-14 2. 99-1 *",
		"[FEN \"W:W21-40:B1\"] 1. 22-19 *",
		"[Event \"x\" 1. 22-19",
		"{never closed",
		"1. 22-17 *",
	} {
		if _, err := Read(strings.NewReader(text), movegen.Italian); err == nil {
			t.Errorf("%q read without error", text)
		}
	}
	games, err := Read(strings.NewReader("1. 22-18 11-15 2. 21-17 1-1\n"), movegen.Italian)
	if err != nil || len(games) != 1 || len(games[0].Moves) != 3 {
		t.Errorf("plain game: %v %d", err, len(games))
	}
}

func FuzzRead(f *testing.F) {
	f.Add("[GameType \"22\"]\n[FEN \"W:W21-32:B1-12\"]\n1. 22-19 11-14 2. 19x10 1-1")
	f.Add("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *")
	f.Add("{comment} 1. 22-18 ; rest\n 2-0")
	f.Fuzz(func(t *testing.T, s string) {
		games, err := Read(strings.NewReader(s), movegen.Italian)
		if err != nil {
			return
		}
		for _, g := range games {
			var sb strings.Builder
			if err := Write(&sb, g); err != nil {
				t.Fatal(err)
			}
			back, err := Read(strings.NewReader(sb.String()), g.Variant)
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves) {
				t.Fatalf("game does not read back: %v\n%s", err, sb.String())
			}
		}
	})
}

// A file cut anywhere while games were being written reads back as the
// games written completely before the cut (with their result and the
// line end after it), and never fails.
func TestCompleteCutAnywhere(t *testing.T) {
	v := movegen.International
	rng := rand.New(rand.NewPCG(3, 4))
	var sb strings.Builder
	var ends []int // the text length once game i is written
	var games []*Game
	for i := 0; i < 3; i++ {
		g := randomGame(v, v.Start(), rng, 30+i)
		g.Result = []string{WhiteWins, DrawResult, BlackWins}[i]
		g.Comment = "white has no legal move"
		g.SetTag("Round", string(rune('1'+i)))
		g.SetTag("Engine1", `x --o="[a] b" \`)
		if err := Write(&sb, g); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, sb.Len())
		games = append(games, g)
	}
	text := sb.String()
	for cut := 0; cut <= len(text); cut++ {
		keep := Complete(text[:cut])
		got, err := Read(strings.NewReader(text[:keep]), v)
		if err != nil {
			t.Fatalf("cut at %d, keep %d: %v", cut, keep, err)
		}
		want := 0
		for _, e := range ends {
			if cut >= e-1 { // the result and one line end
				want++
			}
		}
		if len(got) != want {
			t.Fatalf("cut at %d: %d games, want %d", cut, len(got), want)
		}
		for i, g := range got {
			w := games[i]
			if g.Result != w.Result || g.Comment != w.Comment || len(g.Moves) != len(w.Moves) || g.Tag("Round") != w.Tag("Round") || g.Tag("Engine1") != w.Tag("Engine1") {
				t.Fatalf("cut at %d, game %d: %s %q %d moves", cut, i+1, g.Result, g.Comment, len(g.Moves))
			}
		}
	}
}
