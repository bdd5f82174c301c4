package movegen

// Unit tests of Turkish draughts (rules.md §3) with explicit legal-move
// lists, each checked against the package generator and against the
// reference generator of reference_turkish_test.go, and round trips of the
// Turkish text forms (algebraic and numeric squares).

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tkLegal returns the legal moves of fen written with FormatMove, sorted,
// and checks Count against them.
func tkLegal(t *testing.T, fen string) []string {
	t.Helper()
	p, err := Turkish.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	var ml MoveList
	Turkish.Generate(&p, &ml)
	out := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		out = append(out, Turkish.FormatMove(&p, m))
	}
	slices.Sort(out)
	if n := Turkish.Count(&p, &ml); n != len(out) {
		t.Errorf("%s: Count = %d, Generate lists %d", fen, n, len(out))
	}
	return out
}

// tkCheckWithReference checks a list of written moves against the
// reference: every string must be a legal path of the reference (a path of
// one of its moves, for captures) and the strings must name each reference
// move exactly once.
func tkCheckWithReference(t *testing.T, fen string, want []string) {
	t.Helper()
	b := tkParse(t, fen)
	res := tkGenerate(&b, tkOptions{})
	named := map[tkMove]string{}
	for _, s := range want {
		var m tkMove
		found := false
		if strings.Contains(s, "x") {
			for i := range res.best {
				if res.best[i].text() == s {
					m, found = res.best[i].move(), true
					break
				}
			}
		} else {
			for _, r := range res.moves {
				if r.Caps == 0 && tkName(r.From)+"-"+tkName(r.To) == s {
					m, found = r, true
				}
			}
		}
		if !found {
			t.Errorf("%s: %s is not a legal move of the reference (reference: %v)", fen, s, res.moves)
			continue
		}
		if other, dup := named[m]; dup {
			t.Errorf("%s: %s and %s are the same move %v", fen, other, s, m)
		}
		named[m] = s
	}
	for _, m := range res.moves {
		if _, ok := named[m]; !ok {
			t.Errorf("%s: reference move %v is not in the list %v", fen, m, want)
		}
	}
}

func TestTurkishRuleExamples(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string
	}{
		{"start: the eight men of rank 3 step forward", "W:W9-24:B41-56",
			[]string{"a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"}},
		{"black start reply", "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,f3,g3,h3,e4:B41-56",
			[]string{"a6-a5", "b6-b5", "c6-c5", "d6-d5", "e6-e5", "f6-f5", "g6-g5", "h6-h5"}},
		{"a man steps forward or sideways, never backward", "W:Wd4:Bd3,h7",
			[]string{"d4-c4", "d4-d5", "d4-e4"}},
		{"a man captures sideways, never backward", "W:Wd4:Bc4,d3",
			[]string{"d4xb4"}},
		{"a black man steps down or sideways", "B:We5,a1:Be4",
			[]string{"e4-d4", "e4-e3", "e4-f4"}},
		{"a black man captures sideways, never backward (up)", "B:Wd4,e5:Be4",
			[]string{"e4xc4"}},
		{"a king slides along rank and file", "W:WKd4:Ba8",
			[]string{"d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7", "d4-d8",
				"d4-e4", "d4-f4", "d4-g4", "d4-h4"}},
		// c4xf4 (e4) could only go on by jumping back over the emptied e4 and
		// the empty origin to take b4: a 180° turn. Likewise c4xa4 (b4).
		{"a king may not turn back 180°", "W:WKc4:Bb4,e4",
			[]string{"c4xa4", "c4xf4", "c4xg4", "c4xh4"}},
		// 90° turns are allowed: c4xg4 (e4), then up over g6. Turning back
		// would give c4xa4 (b4) then right over e4 to g4 and up over g6: three
		// pieces, illegal.
		{"a king turns 90° but not 180°", "W:WKc4:Bb4,e4,g6",
			[]string{"c4xg4xg7", "c4xg4xg8"}},
		// Up over c7 to c8 (the far rank), then on as a man: sideways over
		// d8 to e8. A king on e8 could take g8 from afar; the man cannot.
		{"a man reaches the far rank mid-capture and goes on as a man", "W:Wc6:Bc7,d8,g8",
			[]string{"c6xc8xe8"}},
		{"a black man reaches rank 1 mid-capture and goes on as a man", "B:Wa1,c1,d2,f1:Bd3",
			[]string{"d3xd1xb1"}},
		// Crowning is no priority: c6xc8 (one piece) loses to c6xe6xg6 (two).
		{"the maximum beats crowning", "W:Wc6:Bc7,d6,f6",
			[]string{"c6xe6xg6"}},
		// Up over c3 to c5, right over e5 to g5, down over g4 to g3, then left
		// along rank 3 over the square c3 emptied by the first jump to take
		// b3. With captured pieces blocking, c3 would stop the last jump.
		{"a king re-crosses a square emptied by the same capture", "W:WKc1:Bb3,c3,e5,g4",
			[]string{"c1xc5xg5xg3xa3"}},
		// The last jump, over e3, may land on c3, captured by the first jump:
		// one of the four moves ends on a captured square.
		{"a king lands on a square emptied by the same capture", "W:WKc1:Bc3,e3,e5,g4",
			[]string{"c1xc5xg5xg3xa3", "c1xc5xg5xg3xb3", "c1xc5xg5xg3xc3", "c1xc5xg5xg3xd3"}},
		// Over c2 the king may land on d2-h2, but only from e2 does it take
		// e4: the maximum rule forces the landing square.
		{"the maximum rule chooses the landing square", "W:WKa2:Bc2,e4",
			[]string{"a2xe2xe5", "a2xe2xe6", "a2xe2xe7", "a2xe2xe8"}},
		// Over b5 the king lands on c5 or d5 and takes e5 from either: six
		// paths, three moves (FormatMove writes the first path, via c5).
		{"several paths, one move", "W:WKa5:Bb5,e5",
			[]string{"a5xc5xf5", "a5xc5xg5", "a5xc5xh5"}},
		// Two men against one king: the most pieces, a king counts as one.
		{"kings count as one piece", "W:Wc4,Ka1:Bc5,c7,Ke1",
			[]string{"c4xc6xc8"}},
		// One man or one king: equal, a free choice.
		{"a king is worth one man", "W:Wc4,Ka1:Bc5,Ke1",
			[]string{"a1xf1", "a1xg1", "a1xh1", "c4xc6"}},
		{"equal maxima are a free choice", "W:Wc4,f4:Bc5,f5",
			[]string{"c4xc6", "f4xf6"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tkLegal(t, c.fen)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: legal moves %v, want %v", c.fen, got, want)
			}
			tkCheckWithReference(t, c.fen, want)
			// The same position seen from the other side.
			b := tkParse(t, c.fen)
			rb := tkRotate(&b)
			rp := tkToPosition(&rb)
			res := tkGenerate(&rb, tkOptions{})
			if d := tkDiff(&rp, &res); d != "" {
				t.Errorf("rotated: %s", d)
			}
			if len(res.moves) != len(want) {
				t.Errorf("rotated %s: %d moves, want %d", rb.fen(), len(res.moves), len(want))
			}
		})
	}
}

// TestTurkishRuleChanges checks that the examples above depend on the rules
// they illustrate: the reference under a changed rule gives other moves.
func TestTurkishRuleChanges(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		opt       tkOptions
		want      string // the reference's moves under the changed rule
	}{
		{"turning back allowed", "W:WKc4:Bb4,e4", tkOptions{turnBack: true},
			"[c4xa4{b4,e4} c4xf4{b4,e4} c4xg4{b4,e4} c4xh4{b4,e4}]"},
		{"turning back allowed", "W:WKc4:Bb4,e4,g6", tkOptions{turnBack: true},
			"[c4xg7{b4,e4,g6} c4xg8{b4,e4,g6}]"},
		{"captured pieces blocking", "W:WKc1:Bb3,c3,e5,g4", tkOptions{blocking: true},
			"[c1xg1{c3,g4,e5} c1xg2{c3,g4,e5} c1xg3{c3,g4,e5}]"},
		{"captured pieces blocking", "W:WKc1:Bc3,e3,e5,g4", tkOptions{blocking: true},
			"[c1xd3{c3,e3,g4,e5}]"},
	} {
		b := tkParse(t, c.fen)
		res := tkGenerate(&b, c.opt)
		var got []string
		for _, m := range res.moves {
			got = append(got, m.String())
		}
		if s := "[" + strings.Join(got, " ") + "]"; s != c.want {
			t.Errorf("%s, %s: reference gives %s, want %s", c.fen, c.name, s, c.want)
		}
	}
}

// TestTurkishPromotionAndPlay checks the Promote flag and what Play does
// with it, and a king ending on a square it captured.
func TestTurkishPromotionAndPlay(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		promote   bool
		after     string // FEN after the move
	}{
		{"W:Wc6:Bc7,d8,g8", "c6xc8xe8", true, "B:WKe8:Bg8"},
		{"B:Wa1,c1,d2,f1:Bd3", "d3xd1xb1", true, "W:Wa1,f1:BKb1"},
		{"W:Wc6:Bc7,d6,f6", "c6xe6xg6", false, "B:Wg6:Bc7"},
		{"W:Wc4,Ka1:Bc5,c7,Ke1", "c4xc6xc8", true, "B:WKa1,Kc8:BKe1"},
		{"W:Wd7:Ba6", "d7-d8", true, "B:WKd8:Ba6"},
		{"B:WKh8:Be2", "e2-e1", true, "W:WKh8:BKe1"},
		{"W:Wd7:Ba6", "d7-e7", false, "B:We7:Ba6"},
		{"W:WKd7:Ba6", "d7-d8", false, "B:WKd8:Ba6"},
		{"W:WKc1:Bc3,e3,e5,g4", "c1xc5xg5xg3xc3", false, "B:WKc3:B"},
		{"W:WKa5:Bb5,e5", "a5xd5xg5", false, "B:WKg5:B"},
	} {
		p, err := Turkish.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Turkish.ParseMove(&p, c.move)
		if err != nil {
			t.Errorf("%s %s: %v", c.fen, c.move, err)
			continue
		}
		if m.Promote != c.promote {
			t.Errorf("%s %s: Promote = %v, want %v", c.fen, c.move, m.Promote, c.promote)
		}
		p.Play(m)
		if got := Turkish.FEN(&p); got != c.after {
			t.Errorf("%s %s: position after is %s, want %s", c.fen, c.move, got, c.after)
		}
		if p.Key != p.ComputeKey() {
			t.Errorf("%s %s: incremental key %x, ComputeKey %x", c.fen, c.move, p.Key, p.ComputeKey())
		}
	}
	// The move that ends on a captured square: To is in Captured.
	p, err := Turkish.ParseFEN("W:WKc1:Bc3,e3,e5,g4")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Turkish.ParseMove(&p, "c1xc5xg5xg3xc3")
	if err != nil {
		t.Fatal(err)
	}
	if m.Captured&(1<<m.To) == 0 {
		t.Errorf("c1xc5xg5xg3xc3: To (%s) is not among the captured squares", Turkish.SquareName(int(m.To)))
	}
}

// tkNumeric rewrites a move written with algebraic squares in square
// numbers (1 = a1 … 64 = h8), keeping the separators.
func tkNumeric(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); {
		if s[i] >= 'a' && s[i] <= 'h' {
			f, r := int(s[i]-'a'), int(s[i+1]-'1')
			sb.WriteString(strconv.Itoa(tkNum(f, r)))
			i += 2
			continue
		}
		sb.WriteByte(s[i])
		i++
	}
	return sb.String()
}

func TestTurkishText(t *testing.T) {
	// FEN: algebraic and numeric forms of the same positions.
	for _, c := range []struct{ in, out string }{
		{"W:Wa2,b2:Bh7", "W:Wa2,b2:Bh7"},
		{"W:W9,10:B56", "W:Wa2,b2:Bh7"},
		{"W:W9-24:B41-56", "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"},
		{"B:WK28:BK37,49", "B:WKd4:BKe5,a7"},
		{"B:WKd4:BKE5,a7", "B:WKd4:BKe5,a7"},
		{"W:WK1,8:BK57,64", "W:WKa1,h1:BKa8,h8"},
		{"W:WK1,K8:BK57,K64", "W:WKa1,Kh1:BKa8,Kh8"},
		{"W:Wa1,h1:Ba8,h8", "W:Wa1,h1:Ba8,h8"},
		{"B:B41-43:WK1-3", "B:WKa1,Kb1,Kc1:Ba6,b6,c6"},
		{`[FEN "W:Wc4:Bc5."]`, "W:Wc4:Bc5"},
	} {
		p, err := Turkish.ParseFEN(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := Turkish.FEN(&p); got != c.out {
			t.Errorf("%s written as %s, want %s", c.in, got, c.out)
		}
		if q, err := Turkish.ParseFEN(c.out); err != nil || q != p {
			t.Errorf("%s does not read back (%v)", c.out, err)
		}
		if q, err := Turkish.ParseHub(Turkish.Hub(&p)); err != nil || q != p {
			t.Errorf("%s: hub string %s does not read back (%v)", c.in, Turkish.Hub(&p), err)
		}
	}
	if s := Turkish.Start(); Turkish.FEN(&s) != "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7" {
		t.Errorf("start FEN %s", Turkish.FEN(&s))
	}
	for _, bad := range []string{
		"W:Wa8:B",       // a white man on its crowning rank
		"W:W57:B",       // the same, numeric
		"B:W:Bh1",       // a black man on its crowning rank
		"W:Wa2-h2:B",    // ranges take numbers
		"W:W65:B",       // no square 65
		"W:Wi1:B",       // no file i
		"W:Wa0:B",       // no rank 0
		"W:Wa2,9:B",     // a2 twice
		"W:W9-25:B",     // 17 pieces
		"W:WKa2:Ba2",    // one square, two pieces
		"W:Wa2:Bb7:Bc7", // three fields
	} {
		if _, err := Turkish.ParseFEN(bad); err == nil {
			t.Errorf("ParseFEN(%q) accepted", bad)
		}
	}

	// Moves in every form, algebraic and numeric.
	for _, c := range []struct {
		fen  string
		hub  string   // Turkish.HubMove of the move
		path string   // FormatMove of the move
		alts []string // other texts naming the same move
	}{
		{"W:W9-24:B41-56", "17-25", "a3-a4", []string{"17-25", "a3-25"}},
		{"W:WKd4:Ba8", "28-4", "d4-d1", []string{"28-4", "d4-4"}},
		{"W:Wc6:Bc7,d8,g8", "43x61x51x60", "c6xc8xe8", []string{"43x59x61", "c6xe8", "43x61", "c6xe8xc7xd8", "c6:c8:e8"}},
		{"W:WKc1:Bc3,e3,e5,g4", "3x19x19x21x31x37", "c1xc5xg5xg3xc3",
			[]string{"3x35x39x23x19", "c1xc3xc3xe3xg4xe5", "c1xc3xe5xc3xg4xe3", "3x19x37x31x21x19", "c1xc3"}},
		{"W:WKa5:Bb5,e5", "33x39x34x37", "a5xc5xg5", []string{"a5xd5xg5", "33x36x39", "33x35x39", "a5xg5", "33x39"}},
		{"W:WKc4:Bb4,e4", "27x25x26", "c4xa4", []string{"27x25", "c4xa4xb4"}},
	} {
		p, err := Turkish.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Turkish.ParseMove(&p, c.path)
		if err != nil {
			t.Errorf("%s: %s: %v", c.fen, c.path, err)
			continue
		}
		if got := Turkish.HubMove(m); got != c.hub {
			t.Errorf("%s: %s: HubMove %s, want %s", c.fen, c.path, got, c.hub)
		}
		if got := Turkish.FormatMove(&p, m); got != c.path {
			t.Errorf("%s: %s: FormatMove %s", c.fen, c.path, got)
		}
		for _, s := range append([]string{c.hub, tkNumeric(c.path)}, c.alts...) {
			if got, err := Turkish.ParseMove(&p, s); err != nil || got != m {
				t.Errorf("%s: %q reads as %s (%v), want %s", c.fen, s, Turkish.HubMove(got), err, c.hub)
			}
		}
	}
	for _, c := range []struct{ fen, move string }{
		{"W:W9-24:B41-56", "a2-a3"},   // occupied
		{"W:W9-24:B41-56", "a3-b4"},   // diagonal
		{"W:W9-24:B41-56", "a3-a5"},   // a man steps one square
		{"W:WKc4:Bb4,e4", "c4xf4xa4"}, // a 180° turn
		{"W:WKc4:Bb4,e4", "c4-c5"},    // the capture is compulsory
		{"W:WKa2:Bc2,e4", "a2xd2"},    // not the maximum
		{"W:Wd4:Bd3,h7", "d4xd2"},     // backward
		{"W:Wc6:Bc7,d8,g8", "c6xc8xe8xh8"},
	} {
		p, err := Turkish.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := Turkish.ParseMove(&p, c.move); err == nil {
			t.Errorf("%s: %q accepted as %s", c.fen, c.move, Turkish.HubMove(m))
		}
	}

	// Every move of random games and king-rich placements: FormatMove, its
	// numeric form and HubMove read back as the same move.
	rng := rand.New(rand.NewPCG(77, 78))
	n := 0
	check := func(p *Position) {
		var ml MoveList
		Turkish.Generate(p, &ml)
		for _, m := range ml.Slice() {
			n++
			path := Turkish.FormatMove(p, m)
			for _, s := range []string{path, tkNumeric(path), Turkish.HubMove(m)} {
				if got, err := Turkish.ParseMove(p, s); err != nil || got != m {
					t.Fatalf("%s: %q reads back as %s (%v), want %s", Turkish.FEN(p), s, Turkish.HubMove(got), err, Turkish.HubMove(m))
				}
			}
		}
		fen := Turkish.FEN(p)
		if q, err := Turkish.ParseFEN(fen); err != nil || q != *p {
			t.Fatalf("%s does not read back (%v)", fen, err)
		}
		if q, err := Turkish.ParseFEN(tkNumericFEN(fen)); err != nil || q != *p {
			t.Fatalf("%s in numbers %s does not read back (%v)", fen, tkNumericFEN(fen), err)
		}
		if q, err := Turkish.ParseHub(Turkish.Hub(p)); err != nil || q != *p {
			t.Fatalf("%s: hub string does not read back (%v)", fen, err)
		}
	}
	games, placements := 40, 3000
	if testing.Short() {
		games, placements = 10, 500
	}
	for g := 0; g < games; g++ {
		randomGame(Turkish, rng, 200, func(p *Position, _ Move) { check(p) })
	}
	for i := 0; i < placements; i++ {
		b := tkLatticeBoard(rng)
		if i%2 == 1 {
			b = tkCrownBoard(rng)
		}
		p := tkToPosition(&b)
		check(&p)
	}
	if n < 10000 {
		t.Errorf("only %d moves checked", n)
	}
}

// tkNumericFEN rewrites the algebraic squares of a FEN as numbers.
func tkNumericFEN(fen string) string {
	f := strings.Split(fen, ":")
	for i := 1; i < len(f); i++ {
		items := strings.Split(f[i][1:], ",")
		for j, it := range items {
			if it == "" {
				continue
			}
			k := ""
			if it[0] == 'K' {
				k, it = "K", it[1:]
			}
			items[j] = k + tkNumeric(it)
		}
		f[i] = f[i][:1] + strings.Join(items, ",")
	}
	return strings.Join(f, ":")
}
