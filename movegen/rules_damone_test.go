package movegen

// Unit tests of the special rules of Italian Damone (rules.md §2), each in
// a position built so that the rule is the question. Every expected list
// was worked out by hand on the board of rules.md §1 (squares 1 = a8 …
// 32 = h1; for a square on ranks 8, 6, 4, 2 the steps are up-right -4,
// up-left -5, down-left +3, down-right +4; on ranks 7, 5, 3, 1 they are -3,
// -4, +4, +5) and is also checked against the reference generator of
// reference_damone_test.go.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// drfLegal returns the legal moves of fen under Damone written with
// FormatMove, sorted, and checks Count against them.
func drfLegal(t *testing.T, fen string) (Position, []string) {
	t.Helper()
	p, err := Damone.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	var ml MoveList
	Damone.Generate(&p, &ml)
	out := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		out = append(out, Damone.FormatMove(&p, m))
	}
	slices.Sort(out)
	var scratch MoveList
	if n := Damone.Count(&p, &scratch); n != len(out) {
		t.Errorf("%s: Count = %d, Generate lists %d", fen, n, len(out))
	}
	return p, out
}

// drfMatchWant checks a list of written moves against want, whose entries
// may give alternatives "a|b" (for a move reached by several paths, when
// either path may be written).
func drfMatchWant(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	used := make([]bool, len(got))
next:
	for _, w := range want {
		for _, alt := range strings.Split(w, "|") {
			for i, g := range got {
				if !used[i] && g == alt {
					used[i] = true
					continue next
				}
			}
		}
		return false
	}
	return true
}

// drfCheckReference checks want against the reference generator: as many
// moves as want, each entry the path of a different reference move.
func drfCheckReference(t *testing.T, fen string, want []string) {
	t.Helper()
	b := drfParse(t, fen)
	moves, paths := drfGenerate(&b)
	texts := make([][]string, len(moves)) // the path texts of each move
	for i, m := range moves {
		if m.Caps == 0 {
			texts[i] = []string{fmt.Sprintf("%d-%d", m.From, m.To)}
			continue
		}
		for j := range paths {
			if paths[j].move() == m {
				texts[i] = append(texts[i], paths[j].text())
			}
		}
	}
	var flat []string
	for _, ts := range texts {
		flat = append(flat, strings.Join(ts, "|"))
	}
	if len(moves) != len(want) {
		t.Errorf("%s: reference has %d moves %v, want %d %v", fen, len(moves), flat, len(want), want)
		return
	}
	used := make([]bool, len(moves))
next:
	for _, w := range want {
		for _, alt := range strings.Split(w, "|") {
			for i := range moves {
				if !used[i] && slices.Contains(texts[i], alt) {
					used[i] = true
					continue next
				}
			}
		}
		t.Errorf("%s: %q is no reference move (reference: %v)", fen, w, flat)
	}
	p, err := Damone.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	if d := drfDiff(&p); d != "" {
		t.Errorf("package and reference differ: %s", d)
	}
}

func TestDamoneRuleExamples(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string
	}{
		// The start position and the Pedina's three directions.
		{"start: 8 moves", "W:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17",
			[]string{"16-12", "20-15", "23-19", "24-28", "27-22", "30-26", "31-28", "32-28"}},
		{"white Pedina steps up-left, up-right, down-left, never down-right", "W:W18:BD1",
			[]string{"18-13", "18-14", "18-21"}},
		{"black Pedina steps down-right, up-right, down-left, never up-left", "B:WD32:B15",
			[]string{"15-12", "15-19", "15-20"}},
		{"white Pedina captures in the same three directions, never down-right", "W:W23:B19,20,27,28",
			[]string{"23x14", "23x16", "23x30"}},
		{"black Pedina captures in the same three directions, never up-left", "B:W5,6,13,14:B10",
			[]string{"10x17", "10x19", "10x3"}},
		{"a white Pedina on a8 is stuck (no backward step down-right)", "W:W1:BD32",
			[]string{}},
		{"a Pedina's chain: down-left, then up-left", "W:W23:B27,26",
			[]string{"23x30x21"}},

		// The rank rule.
		{"a Pedina cannot take a Dama", "W:W23,D32:BK19",
			[]string{"23-20", "23-27", "32-28"}},
		{"a Pedina cannot take a Damone", "W:W23:BD19",
			[]string{"23-20", "23-27"}},
		{"a Pedina takes a Pedina", "W:W23:B19",
			[]string{"23x14"}},
		{"a Pedina that must capture still cannot take a Dama", "W:W23:B19,K20",
			[]string{"23x14"}},
		{"a Pedina's chain stops before a Dama", "W:W23:B19,K10",
			[]string{"23x14"}},
		{"a Dama cannot take a Damone", "W:WK23:BD19",
			[]string{"23-20", "23-27", "23-28"}},
		{"a Dama takes a Dama", "W:WK23:BK19",
			[]string{"23x14"}},
		{"a Dama takes a Pedina", "W:WK23:B19",
			[]string{"23x14"}},
		{"a Damone takes a Damone", "W:WD23:BD19",
			[]string{"23x14"}},
		{"a Damone takes a Dama", "W:WD23:BK19",
			[]string{"23x14"}},
		{"a Damone takes a Pedina", "W:WD23:B19",
			[]string{"23x14"}},
		{"a Dama's chain stops before a Damone", "W:WK23:B19,D10",
			[]string{"23x14"}},
		{"a Dama's chain goes on over a Pedina", "W:WK23:B19,10",
			[]string{"23x14x5"}},
		{"a Damone's chain takes all three ranks", "W:WD23:B19,K10,D6",
			[]string{"23x14x5"}},
		{"black: a Dama cannot take a Damone, a Pedina not a Dama", "B:WD14,K18:BK10,13",
			[]string{"10-5", "10-6", "13-17"}},

		// Promotion squares: quiet moves and captures, and the capture stops.
		{"a white Pedina is promoted on 2 and 9, not on 1", "W:W5:BD32",
			[]string{"5-1", "5-2", "5-9"}},
		{"a white Pedina captures onto 9 and stops (as a Dama it could take 5)", "W:W18:B13,5",
			[]string{"18x9"}},
		{"a white Pedina captures onto 2 and stops (as a Dama it could take 5)", "W:W18:B14,6,5",
			[]string{"18x11x2"}},
		{"a black Pedina is promoted on 24", "B:WD1:B20",
			[]string{"20-16", "20-23", "20-24"}},
		{"a black Pedina captures onto 24 and stops (as a Dama it could take 28)", "B:W20,28:B15",
			[]string{"15x24"}},
		{"a black Pedina captures onto 31 and stops", "B:W27,23:B22",
			[]string{"22x31"}},
		{"a white Dama is promoted on 1", "W:WK5:BD32",
			[]string{"5-1", "5-10", "5-2", "5-9"}},
		{"a white Dama captures onto 1 and is promoted", "W:WK19:B14,5",
			[]string{"19x10x1"}},
		{"a black Dama captures onto 32 and is promoted", "B:W19,28:BK14",
			[]string{"14x23x32"}},

		// Capture priority.
		{"(i) most pieces: the Pedina's two over the Damone's one", "W:W23,D25:B19,10,21",
			[]string{"23x14x5"}},
		{"(i) a promoting Pedina stops, so a longer line elsewhere wins", "W:W18,K28:B13,5,23,15",
			[]string{"28x19x12"}},
		{"(ii) the Dama's capture over the Pedina's", "W:WK19,18:B14,15",
			[]string{"19x10", "19x12"}},
		{"(ii) the Damone's capture of a Pedina over the Dama's capture of a Dama", "W:WD20,K18:B15,K14",
			[]string{"20x11"}},
		{"(iii) most Damoni: the Damone over the Dama", "W:WD19:BD15,K23,K22",
			[]string{"19x12"}},
		{"(iii) most Damoni before most Dame: Damone+Pedina over two Dame", "W:WD19:BD15,7,K22,K21",
			[]string{"19x12x3"}},
		{"(iv) most Dame: the Dama over the Pedine", "W:WD19:B15,K23,22",
			[]string{"19x28"}},
		{"(iv) most Dame, capturing with a Dama", "W:WK19:B15,K23,22",
			[]string{"19x28"}},
		{"(iv) most Dame: two Dame over a Dama and a Pedina", "W:WK19:BK15,K7,22,K21",
			[]string{"19x12x3"}},
		{"free choice: no earliest-Dama rule as in Italian", "W:WD19:BK14,6,22,K21",
			[]string{"19x10x3", "19x26x17"}},
		{"free choice between equal captures of different pieces", "W:WK19:B15,K23,K22",
			[]string{"19x26", "19x28"}},
		{"a Damone's cycle: two paths, one move back to its origin", "W:WD19:BK14,6,15,K7",
			[]string{"19x12x3x10x19|19x10x3x12x19"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := drfLegal(t, c.fen)
			if !drfMatchWant(got, c.want) {
				t.Errorf("%s: legal moves %v, want %v", c.fen, got, c.want)
			}
			drfCheckReference(t, c.fen, c.want)
		})
	}
}

// TestDamonePromotionFlag checks Move.Promote (Pedina→Dama, Dama→Damone)
// and the rank of the mover after Play.
func TestDamonePromotionFlag(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		promote   bool
		rank      int // of the mover after the move
	}{
		{"W:W5:BD32", "5-2", true, drfDama},
		{"W:W5:BD32", "5-9", true, drfDama},
		{"W:W5:BD32", "5-1", false, drfPedina}, // a Pedina on a8 stays a Pedina
		{"W:W18:B13,5", "18x9", true, drfDama},
		{"W:W18:B14,6,5", "18x11x2", true, drfDama},
		{"B:WD1:B20", "20-24", true, drfDama},
		{"B:WD1:B20", "20-23", false, drfPedina},
		{"B:W27,23:B22", "22x31", true, drfDama},
		{"B:WD1:B27", "27-31", true, drfDama},
		{"B:WD1:B28", "28-32", false, drfPedina}, // a Pedina on h1 stays a Pedina
		{"W:WK5:BD32", "5-1", true, drfDamone},
		{"W:WK5:BD32", "5-2", false, drfDama}, // a Dama on 2 stays a Dama
		{"W:WK19:B14,5", "19x10x1", true, drfDamone},
		{"B:W1:BK28", "28-32", true, drfDamone},
		{"B:W1:BK28", "28-24", false, drfDama},
		{"B:W19,28:BK14", "14x23x32", true, drfDamone},
		{"W:WD5:BD32", "5-1", false, drfDamone}, // a Damone is never promoted
		{"B:WD1:BD28", "28-32", false, drfDamone},
	} {
		p, err := Damone.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Damone.ParseMove(&p, c.move)
		if err != nil {
			t.Errorf("%s %s: %v", c.fen, c.move, err)
			continue
		}
		if m.Promote != c.promote {
			t.Errorf("%s %s: Promote = %v, want %v", c.fen, c.move, m.Promote, c.promote)
		}
		q := p
		q.Play(m)
		b := drfFromPosition(&q)
		if v := b.at(Damone.SquareNumber(int(m.To))); v == drfEmpty || drfRankOf(v) != c.rank {
			t.Errorf("%s %s: mover is %d after the move (%s), want a %s", c.fen, c.move, v, b.fen(), drfRankName[c.rank])
		}
		if q.Key != q.ComputeKey() {
			t.Errorf("%s %s: incremental key differs from ComputeKey", c.fen, c.move)
		}
		// The reference agrees.
		rb := drfParse(t, c.fen)
		rm, _ := drfGenerate(&rb)
		if !slices.Contains(rm, drfOfMove(m)) {
			t.Errorf("%s %s: %v is not a reference move (%v)", c.fen, c.move, drfOfMove(m), rm)
		}
	}
}

// TestDamoneFEN checks PDN FEN with D before a Damone and K before a Dama.
func TestDamoneFEN(t *testing.T) {
	const rules = "W:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17"
	if Damone.StartFEN != rules {
		t.Errorf("StartFEN %q, rules.md says %q", Damone.StartFEN, rules)
	}
	p, err := Damone.ParseFEN(rules)
	if err != nil {
		t.Fatal(err)
	}
	if p != Damone.Start() {
		t.Errorf("ParseFEN(rules.md start) differs from Start()")
	}
	// Written out ascending, D and K prefixes, and read back.
	const canonical = "W:W16,20,23,K24,27,30,K31,D32:BD1,K2,3,6,K9,10,13,17"
	if got := Damone.FEN(&p); got != canonical {
		t.Errorf("FEN(start) = %q, want %q", got, canonical)
	}
	bit := func(n int) uint64 { return 1 << Damone.Bit(n) }
	if p.Super != bit(1)|bit(32) || p.Kings != bit(1)|bit(32)|bit(2)|bit(9)|bit(24)|bit(31) {
		t.Errorf("start: Super %#x, Kings %#x", p.Super, p.Kings)
	}
	for _, fen := range []string{
		canonical,
		"B:WD5,K6,7:BD27,K28,26",
		"W:WD1,D2,D3,K4:B29,30,K31,D32", // White Damoni on Black's side, Black Pedine on White's
		"W:W5-8,D21:BK12,D9,10",
		"B:WD29-31:BD1",
		"W:WD9,K2:B",
		`[FEN "B:WK10,D14:BD18,K22,23"]`,
	} {
		q, err := Damone.ParseFEN(fen)
		if err != nil {
			t.Errorf("%s: %v", fen, err)
			continue
		}
		out := Damone.FEN(&q)
		r, err := Damone.ParseFEN(out)
		if err != nil || r != q {
			t.Errorf("%s: written as %s, which reads back as %v (%v)", fen, out, Damone.FEN(&r), err)
		}
		if again := Damone.FEN(&r); again != out {
			t.Errorf("%s: written as %s, then as %s", fen, out, again)
		}
		// The reference reads the written FEN (single squares only) to the same board.
		if !strings.Contains(out, "-") {
			if rb := drfParse(t, out); rb != drfFromPosition(&q) {
				t.Errorf("%s: reference reads %s as %s", fen, out, rb.fen())
			}
		}
	}
	// Which rank each prefix gives.
	q, err := Damone.ParseFEN("B:WD29-31:BD1")
	if err != nil {
		t.Fatal(err)
	}
	if q.Super&bit(30) == 0 || q.Kings&bit(30) == 0 {
		t.Errorf("D29-31: square 30 is not a Damone")
	}
	q, err = Damone.ParseFEN("W:WK14,15:B3")
	if err != nil {
		t.Fatal(err)
	}
	if q.Kings&bit(14) == 0 || q.Super&bit(14) != 0 || q.Kings&bit(15) != 0 {
		t.Errorf("K14,15: Kings %#x Super %#x", q.Kings, q.Super)
	}
	// Positions that cannot occur are refused.
	for _, bad := range []string{
		"W:W2:BD1",     // a white Pedina on 2 would already be a Dama
		"W:W9:BD1",     // ... on 9 too
		"W:WD32:B24",   // a black Pedina on 24
		"W:WD32:B31",   // ... on 31
		"W:WK1:BD32",   // a white Dama on 1 would already be a Damone
		"B:WD1:BK32",   // a black Dama on 32
		"W:WD1,D1:B32", // a square twice
		"W:WX5:B32",    // an unknown prefix
		"W:W1-13:BD32", // 13 white pieces
	} {
		if _, err := Damone.ParseFEN(bad); err == nil {
			t.Errorf("ParseFEN(%q) accepted an impossible position", bad)
		}
	}
	// A D prefix means nothing in plain Italian.
	if _, err := Italian.ParseFEN("W:WD32:B1"); err == nil {
		t.Errorf("Italian.ParseFEN accepted a Damone")
	}
}

// TestDamoneHubRefused: a Hub position string has no letter for a Damone,
// so Damone positions never travel as Hub strings.
func TestDamoneHubRefused(t *testing.T) {
	for _, v := range []*Variant{Damone, DamoneAllDamoni} {
		if v.HasHubString() {
			t.Errorf("%s: HasHubString = true", v.Name)
		}
		for _, s := range []string{
			"W" + strings.Repeat("e", 32),
			"Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
			"WBBeeeeeeeeeeeeeeeeeeeeeeeeeeeeww",
			"short",
			"",
		} {
			if _, err := v.ParseHub(s); err == nil {
				t.Errorf("%s: ParseHub(%q) accepted", v.Name, s)
			}
			if strings.Contains(s, ":") {
				continue
			}
			if s != "" && !strings.EqualFold(s, "start") {
				if _, err := v.ParsePosition(s); err == nil {
					t.Errorf("%s: ParsePosition(%q) accepted a Hub string", v.Name, s)
				}
			}
		}
		if p, err := v.ParsePosition("start"); err != nil || p != v.Start() {
			t.Errorf("%s: ParsePosition(start): %v", v.Name, err)
		}
		if p, err := v.ParsePosition(v.StartFEN); err != nil || p != v.Start() {
			t.Errorf("%s: ParsePosition(StartFEN): %v", v.Name, err)
		}
	}
	// The same string is a fine Italian Hub position.
	if _, err := Italian.ParseHub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"); err != nil {
		t.Errorf("Italian.ParseHub: %v", err)
	}
}
