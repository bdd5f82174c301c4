package movegen

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomGame plays random legal moves from the start and calls visit on
// every position and the move played from it.
func randomGame(v *Variant, rng *rand.Rand, plies int, visit func(p *Position, m Move)) {
	p := v.Start()
	var ml MoveList
	for i := 0; i < plies; i++ {
		v.Generate(&p, &ml)
		if ml.N == 0 {
			return
		}
		m := ml.Moves[rng.IntN(ml.N)]
		visit(&p, m)
		p.Play(m)
	}
}

func TestZobristIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 100
	if testing.Short() {
		games = 20
	}
	for _, v := range Variants() {
		for g := 0; g < games; g++ {
			randomGame(v, rng, 200, func(p *Position, m Move) {
				c := *p
				c.Play(m)
				if c.Key != c.ComputeKey() {
					t.Fatalf("%s: after %s from %s: incremental key %x, from scratch %x",
						v.Name, v.HubMove(m), v.FEN(p), c.Key, c.ComputeKey())
				}
			})
		}
	}
}

func TestTextRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, v := range Variants() {
		n := 0
		for g := 0; g < 60; g++ {
			randomGame(v, rng, 150, func(p *Position, m Move) {
				n++
				fen := v.FEN(p)
				q, err := v.ParseFEN(fen)
				if err != nil || q != *p {
					t.Fatalf("%s: FEN %s does not read back: %v\n%+v\n%+v", v.Name, fen, err, q, *p)
				}
				if again := v.FEN(&q); again != fen {
					t.Fatalf("%s: FEN %s written back as %s", v.Name, fen, again)
				}
				if v.HasHubString() {
					hub := v.Hub(p)
					if q, err := v.ParseHub(hub); err != nil || q != *p {
						t.Fatalf("%s: hub %s does not read back: %v", v.Name, hub, err)
					}
				}
				for _, text := range []string{v.FormatMove(p, m), v.HubMove(m)} {
					got, err := v.ParseMove(p, text)
					if err != nil || got != m {
						t.Fatalf("%s: %s: move %q reads back as %+v (%v), want %+v", v.Name, fen, text, got, err, m)
					}
				}
			})
		}
		if n < 2000 {
			t.Errorf("%s: only %d positions checked", v.Name, n)
		}
	}
}

func TestFENForms(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"W:W21-32:B1-12", "W:W21-32:B1-12"},
		{"B:B1-12:W21-32", "B:W21-32:B1-12"},
		{`[FEN "W:W21-32:B1-12."]`, "W:W21-32:B1-12"},
		{"W:WK21-K23,24:B1", "W:WK21,K22,K23,24:B1"},
		{"W:WK21-23:B1", "W:WK21,K22,K23:B1"},
		{"w:w 22 , 23:b", "W:W22,23:B"},
		{"B:W:BK7", "B:W:BK7"},
	} {
		p, err := Italian.ParseFEN(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := Italian.FEN(&p); got != c.out {
			t.Errorf("%s written as %s, want %s", c.in, got, c.out)
		}
	}
	if got := Italian.Hub(ptr(Italian.Start())); got != "W"+strings.Repeat("b", 12)+strings.Repeat("e", 8)+strings.Repeat("w", 12) {
		t.Errorf("start hub string %s", got)
	}
}

func ptr(p Position) *Position { return &p }

func TestBadText(t *testing.T) {
	for _, c := range []struct{ fen, mention string }{
		{"", "field"},
		{"X:W21:B1", `"X"`},
		{"W:W21-33:B1", `"33"`},
		{"W:W21,21:B1", "21"},
		{"W:W21:W22", "twice"},
		{"W:W21:B21", "21"},
		{"W:W1:B12", "square 1"},
		{"W:W21:B29", "square 29"},
		{"W:WK1-32:B", "pieces"},
		{"W:W21-32,20:B1", "13 white"},
		{"W:W25-21:B1", "backwards"},
		{"W:W21,:B1", "empty square"},
		{"W:Q21:B1", `"Q21"`},
		{"W:W21:B1:B2", "field"},
		{"W:WK:B1", "empty square"},
	} {
		if _, err := Italian.ParseFEN(c.fen); err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ParseFEN(%q) error %v, want one mentioning %s", c.fen, err, c.mention)
		}
	}
	for _, hub := range []string{"W", "Wbbbb", "X" + strings.Repeat("e", 32), "W" + strings.Repeat("e", 31) + "x", "W" + "w" + strings.Repeat("e", 31)} {
		if _, err := Italian.ParseHub(hub); err == nil {
			t.Errorf("ParseHub(%q) accepted", hub)
		}
	}
	start := Italian.Start()
	for _, c := range []struct{ move, mention string }{
		{"", "empty"},
		{"22", "at least"},
		{"22-", "missing"},
		{"22-33", `"33"`},
		{"22-17", "not legal"},
		{"a-b", `"a"`},
		{"22--18", "missing"},
		{"21x14", "not legal"},
	} {
		if _, err := Italian.ParseMove(&start, c.move); err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ParseMove(%q) error %v, want one mentioning %s", c.move, err, c.mention)
		}
	}
}

func TestParseMoveForms(t *testing.T) {
	p, err := Italian.ParseFEN("W:W29:B26,19,11,1")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"29x22x15x6", "29x6x11x19x26", "29x6x26x19x11", "29x6", "29-6", "29:22:15:6"} {
		m, err := Italian.ParseMove(&p, text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := Italian.HubMove(m); got != "29x6x11x19x26" {
			t.Errorf("%q read as %s", text, got)
		}
	}
	for _, text := range []string{"29x22x15", "29x6x11x19", "29x22x15x6x1"} {
		if _, err := Italian.ParseMove(&p, text); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
	// Two captures from the same square to the same square: from-to alone
	// is ambiguous, the captured set decides.
	q, err := Italian.ParseFEN("W:WK27:B6,7,14,15,22,23")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Italian.ParseMove(&q, "27x27x14x15x22x23"); err != nil || m.From != m.To {
		t.Errorf("cycle capture: %v %+v", err, m)
	}
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{"W:W21-32:B1-12", "B:WK2,18,21:B1,4,8,9,17", "W:WK21-K23,24:B1", `[FEN "W:W21:B1."]`, "W::", "W:W:B", "W:W1-99:B", "B:B1-12:W21-32"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Italian.ParseFEN(s)
		if err != nil {
			return
		}
		fen := Italian.FEN(&p)
		q, err := Italian.ParseFEN(fen)
		if err != nil || q != p {
			t.Fatalf("%q accepted as %s, which reads back as %v (%v)", s, fen, q, err)
		}
		if q, err := Italian.ParseHub(Italian.Hub(&p)); err != nil || q != p {
			t.Fatalf("%q: hub string does not round trip", s)
		}
		var ml MoveList
		Italian.Generate(&p, &ml)
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"22-19", "29x22x15x6", "29x6x11x19x26", "21x14", "x", "1-", "-1", "22:19", "99x1x2"} {
		f.Add("W:W29,22,21:B26,19,11,1,K18", s)
	}
	f.Add("W:WK27:B6,7,14,15,22,23", "27x27x14x15x22x23")
	f.Fuzz(func(t *testing.T, fen, s string) {
		p, err := Italian.ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := Italian.ParseMove(&p, s)
		if err != nil {
			return
		}
		var ml MoveList
		Italian.Generate(&p, &ml)
		legal := false
		for _, x := range ml.Slice() {
			legal = legal || x == m
		}
		if !legal {
			t.Fatalf("%s: %q parsed as illegal move %+v", fen, s, m)
		}
		for _, text := range []string{Italian.FormatMove(&p, m), Italian.HubMove(m)} {
			if back, err := Italian.ParseMove(&p, text); err != nil || back != m {
				t.Fatalf("%s: %q written %q does not read back (%v)", fen, s, text, err)
			}
		}
	})
}

// FuzzParsePositionVariants: for every variant, text accepted as a
// position (start, FEN or Hub string) writes back to FEN and Hub text that
// read back to the same position, and move generation does not panic.
func FuzzParsePositionVariants(f *testing.F) {
	for i, v := range Variants() {
		f.Add(uint8(i), v.StartFEN)
		p := v.Start()
		if v.HasHubString() {
			f.Add(uint8(i), v.Hub(&p))
		}
	}
	f.Add(uint8(3), "W:Wa1,c1:Bh8")
	f.Add(uint8(7), "W:Wa2,Kd4:Bh7,Kb8")
	f.Add(uint8(1), "W:WD32,K24:BD1")
	f.Fuzz(func(t *testing.T, vi uint8, s string) {
		vs := Variants()
		v := vs[int(vi)%len(vs)]
		p, err := v.ParsePosition(s)
		if err != nil {
			return
		}
		q, err := v.ParseFEN(v.FEN(&p))
		if err != nil || q != p {
			t.Fatalf("%s: %q accepted, FEN %s reads back as %v (%v)", v.Name, s, v.FEN(&p), q, err)
		}
		if v.HasHubString() {
			if q, err := v.ParseHub(v.Hub(&p)); err != nil || q != p {
				t.Fatalf("%s: %q: hub string does not round trip (%v)", v.Name, s, err)
			}
		}
		var ml MoveList
		v.Generate(&p, &ml)
		if n := v.Count(&p, &ml); n != ml.N {
			t.Fatalf("%s: %q: Count %d, Generate %d", v.Name, s, n, ml.N)
		}
	})
}

// FuzzParseMoveVariants: in positions reached by seeded random play in
// every variant, move text that parses names a legal move whose written
// forms read back to it.
func FuzzParseMoveVariants(f *testing.F) {
	for i := range Variants() {
		f.Add(uint8(i), uint16(7), "22-18")
		f.Add(uint8(i), uint16(40), "c3:e5")
		f.Add(uint8(i), uint16(3), "31x22x13")
	}
	f.Fuzz(func(t *testing.T, vi uint8, seed uint16, s string) {
		vs := Variants()
		v := vs[int(vi)%len(vs)]
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		p := v.Start()
		var ml MoveList
		for i := 0; i < int(seed%60); i++ {
			v.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[rng.IntN(ml.N)])
		}
		m, err := v.ParseMove(&p, s)
		if err != nil {
			return
		}
		v.Generate(&p, &ml)
		legal := false
		for _, x := range ml.Slice() {
			legal = legal || x == m
		}
		if !legal {
			t.Fatalf("%s %s: %q parsed as an illegal move", v.Name, v.FEN(&p), s)
		}
		for _, text := range []string{v.FormatMove(&p, m), v.HubMove(m)} {
			if back, err := v.ParseMove(&p, text); err != nil || back != m {
				t.Fatalf("%s %s: %q written %q does not read back (%v)", v.Name, v.FEN(&p), s, text, err)
			}
		}
	})
}
