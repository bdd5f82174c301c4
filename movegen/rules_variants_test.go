package movegen

// Explicit legal-move lists for the special rules of English (rules.md §4),
// International (§5), Brazilian (§6), Russian (§7) and Spanish (§8)
// draughts, and the FEN and move notation of those variants.
//
// Every expected list below was worked out by hand from rules.md (the
// reasoning is in the comments, with the squares' names) and is also
// checked against the reference generator of reference_variants_test.go.

import (
	"slices"
	"strconv"
	"testing"
)

// vrRulesOf returns the reference rules of a package variant.
func vrRulesOf(t *testing.T, v *Variant) *vrRules {
	t.Helper()
	for _, rl := range vrAll {
		if rl.v == v {
			return rl
		}
	}
	t.Fatalf("no reference rules for %s", v.Name)
	return nil
}

// vrCase is a position and its complete list of legal moves, written
// with FormatMove. promote gives the expected Promote flag of some moves.
type vrCase struct {
	name    string
	fen     string
	want    []string
	promote map[string]bool
}

// vrLegalMoves returns the legal moves of fen written with FormatMove,
// sorted, and the moves by name. It checks Count and the reference
// generator on the way.
func vrLegalMoves(t *testing.T, v *Variant, fen string) ([]string, map[string]Move, Position) {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	var ml MoveList
	v.Generate(&p, &ml)
	names := make([]string, 0, ml.N)
	byName := map[string]Move{}
	for _, m := range ml.Slice() {
		s := v.FormatMove(&p, m)
		names = append(names, s)
		byName[s] = m
	}
	slices.Sort(names)
	if n := v.Count(&p, &ml); n != len(names) {
		t.Errorf("%s %s: Count = %d, Generate lists %d", v.Name, fen, n, len(names))
	}
	rl := vrRulesOf(t, v)
	b := vrFromPosition(rl, &p)
	res := vrGenerate(rl, &b)
	if d := vrDiff(rl, &p, &res); d != "" {
		t.Errorf("package and reference differ: %s", d)
	}
	return names, byName, p
}

func vrRunCases(t *testing.T, v *Variant, cases []vrCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, byName, p := vrLegalMoves(t, v, c.fen)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: legal moves %v, want %v", v.Name, c.fen, got, want)
			}
			for name, promote := range c.promote {
				m, ok := byName[name]
				if !ok {
					t.Errorf("%s %s: no move %s", v.Name, c.fen, name)
					continue
				}
				if m.Promote != promote {
					t.Errorf("%s %s: %s has Promote = %v, want %v", v.Name, c.fen, name, m.Promote, promote)
				}
				q := p
				q.Play(m)
				wasKing := p.Kings&(1<<m.From) != 0
				if isKing := q.Kings&(1<<m.To) != 0; isKing != (promote || wasKing) {
					t.Errorf("%s %s: after %s the mover is a king: %v", v.Name, c.fen, name, isKing)
				}
			}
		})
	}
}

// English numbering (rules.md §4), seen from White:
//
//	rank 8:  b8=1  d8=2  f8=3  h8=4
//	rank 7:  a7=5  c7=6  e7=7  g7=8
//	rank 6:  b6=9  d6=10 f6=11 h6=12
//	rank 5:  a5=13 c5=14 e5=15 g5=16
//	rank 4:  b4=17 d4=18 f4=19 h4=20
//	rank 3:  a3=21 c3=22 e3=23 g3=24
//	rank 2:  b2=25 d2=26 f2=27 h2=28
//	rank 1:  a1=29 c1=30 e1=31 g1=32
func TestVariantEnglishRules(t *testing.T) {
	vrRunCases(t, English, []vrCase{
		// Black moves first; its men on b6 d6 f6 h6 (9-12) step down.
		{name: "black moves first from the start", fen: English.StartFEN,
			want: []string{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}},
		// 21 (a3) takes b4 (17) to c5 (14) and stops; 22 (c3) takes b4 to
		// a5 (13), or d4 (18) to e5 (15) and must go on over f6 (11) to g7
		// (8). Free choice: the one-piece captures stay legal beside the
		// two-piece one; 22x15 alone is not a move (the capture goes on).
		{name: "free choice between a 1-piece and a 2-piece capture", fen: "W:W21,22:B11,17,18",
			want: []string{"21x14", "22x13", "22x15x8"}},
		// 11 (f6) takes e7 (7) and lands on d8 (2), the king row: the move
		// ends there even though a king on d8 could go on over c7 (6).
		{name: "a man crowned by a capture stops", fen: "W:W11:B6,7",
			want: []string{"11x2"}, promote: map[string]bool{"11x2": true}},
		// The same for Black: 22 (c3) takes d2 (26) to e1 (31), crowned;
		// a king on e1 could take f2 (27) next.
		{name: "a black man crowned by a capture stops", fen: "B:W26,27:B22",
			want: []string{"22x31"}, promote: map[string]bool{"22x31": true}},
		// Men capture forward only: 18 (d4) cannot take 22 (c3) behind it.
		{name: "men capture forward only", fen: "W:W18:B22,1",
			want: []string{"18-14", "18-15"}},
		// Kings step one square in the four directions, no flying.
		{name: "kings move one square", fen: "W:WK18:B1",
			want: []string{"18-14", "18-15", "18-22", "18-23"}},
		// A king jumps short, in any direction: 18 (d4) over c3 (22) to b2
		// (25); f6 (11) is two squares away and out of reach.
		{name: "kings capture backward with a short jump", fen: "W:WK18:B22,11",
			want: []string{"18x25"}},
		// Men may take kings in English draughts (unlike Italian).
		{name: "men capture kings", fen: "W:W22:BK18",
			want: []string{"22x15"}},
		// A man reaching the king row by a quiet move is crowned.
		{name: "quiet crowning", fen: "W:W6:B20",
			want: []string{"6-1", "6-2"}, promote: map[string]bool{"6-1": true, "6-2": true}},
	})
}

// Russian and Brazilian squares are algebraic (numeric 1 = a1, 2 = c1 …
// 32 = h8); Russian captures are written with ':', Brazilian with 'x'.
func TestVariantRussianRules(t *testing.T) {
	vrRunCases(t, Russian, []vrCase{
		{name: "white moves first from the start", fen: Russian.StartFEN,
			want: []string{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}},
		// d6 takes e7 and reaches f8: crowned at once, it goes on as a
		// flying king: f8 over g7 to h6 (the e7 line is blocked by the
		// taken piece), then h6 along h6-g5-f4-e3-d2-c1 over e3, landing on
		// d2 or c1 (neither goes on, so both are legal). As a man it would
		// have stopped on h6 (compare Brazilian below).
		{name: "a man crowned mid-capture continues as a king", fen: "W:Wd6:Be7,g7,e3",
			want:    []string{"d6:f8:h6:d2", "d6:f8:h6:c1"},
			promote: map[string]bool{"d6:f8:h6:d2": true, "d6:f8:h6:c1": true}},
		// The same for Black: e3 takes d2 and reaches c1, crowned at once;
		// the king goes on along c1-b2-a3 over b2 to a3; nothing more.
		{name: "a black man crowned mid-capture continues", fen: "B:Wd2,b2:Be3",
			want:    []string{"e3:c1:a3"},
			promote: map[string]bool{"e3:c1:a3": true}},
		// Free choice: a5 takes b6 to c7 (one piece), c3 takes d4 and f6
		// (c3:e5:g7). Both are legal; c3:e5 alone is not (it must go on).
		{name: "free choice: the shorter capture is legal", fen: "W:Wa5,c3:Bb6,d4,f6",
			want: []string{"a5:c7", "c3:e5:g7"}},
		// The king on a1 takes c3 and may land on d4 … h8, but from e5 it
		// can go on (over f4, to g3 or h2): it must land on e5. Stopping on
		// d4, f6, g7 or h8 is not legal even under free choice.
		{name: "a king must land where the capture continues", fen: "W:WKa1:Bc3,f4",
			want: []string{"a1:e5:g3", "a1:e5:h2"}},
		// Men capture backward: c5 takes b4 to a3.
		{name: "men capture backward", fen: "W:Wc5:Bb4,h8",
			want: []string{"c5:a3"}},
		// A flying king with no capture slides any distance: d4 reaches
		// c5 b6 a7, e5 f6 g7 h8, c3 b2 a1, e3 f2 g1.
		{name: "flying king quiet moves", fen: "W:WKd4:Bh6",
			want: []string{"d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6", "d4-g1", "d4-g7", "d4-h8"}},
	})
}

func TestVariantBrazilianRules(t *testing.T) {
	vrRunCases(t, Brazilian, []vrCase{
		{name: "white moves first from the start", fen: Brazilian.StartFEN,
			want: []string{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}},
		// Maximum capture: c3xe5xg7 (two pieces) is compulsory; a5xc7
		// (one piece), legal in Russian, is not.
		{name: "maximum capture", fen: "W:Wa5,c3:Bb6,d4,f6",
			want: []string{"c3xe5xg7"}},
		// d6 takes e7 to f8, passes the far rank and goes on as a man,
		// backward over g7 to h6; it stays a man (a king would go on over
		// e3, as in Russian). Stopping on f8 (crowned) takes fewer pieces.
		{name: "a man passing the far rank stays a man", fen: "W:Wd6:Be7,g7,e3",
			want: []string{"d6xf8xh6"}, promote: map[string]bool{"d6xf8xh6": false}},
		// A man whose capture ends on the far rank is crowned.
		{name: "a man ending on the far rank is crowned", fen: "W:Wd6:Be7,e3",
			want: []string{"d6xf8"}, promote: map[string]bool{"d6xf8": true}},
		// Kings count as one: the king on b6 and the man on g5 are one
		// piece each, so both captures are legal (no Spanish kings rule).
		// c5xa7 takes b6; h4xf6 takes g5.
		{name: "kings count as one piece", fen: "W:Wc5,h4:BKb6,g5",
			want: []string{"c5xa7", "h4xf6"}},
		// The king on a1 takes c3; only from e5 can it go on (over f4):
		// under the maximum rule it must land there.
		{name: "king landing forced by the maximum rule", fen: "W:WKa1:Bc3,f4",
			want: []string{"a1xe5xg3", "a1xe5xh2"}},
	})
}

// Spanish numbering (rules.md §8), from White's bottom right:
//
//	rank 8:  g8=29 e8=30 c8=31 a8=32
//	rank 7:  h7=25 f7=26 d7=27 b7=28
//	rank 6:  g6=21 e6=22 c6=23 a6=24
//	rank 5:  h5=17 f5=18 d5=19 b5=20
//	rank 4:  g4=13 e4=14 c4=15 a4=16
//	rank 3:  h3=9  f3=10 d3=11 b3=12
//	rank 2:  g2=5  e2=6  c2=7  a2=8
//	rank 1:  h1=1  f1=2  d1=3  b1=4
func TestVariantSpanishRules(t *testing.T) {
	vrRunCases(t, Spanish, []vrCase{
		{name: "white moves first from the start", fen: Spanish.StartFEN,
			want: []string{"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}},
		// Three two-piece captures and a one-piece one:
		//   9 (h3) over g4 (13) to f5 (18), then over e6 (22) to d7 (27) or
		//   over g6 (21) to h7 (25): two men each;
		//   12 (b3) over the king on c4 (15) to d5 (19), then over e6 (22)
		//   to f7 (26): a king and a man;
		//   7 (c2) over the king on d3 (11) to e4 (14): one king.
		// Most pieces first (7x14 out, though it takes a king), then most
		// kings: only 12x19x26.
		{name: "most pieces, then most kings", fen: "W:W7,9,12:BK11,13,K15,21,22",
			want: []string{"12x19x26"}},
		// With the kings on 11 and 15 made men, the three two-piece
		// captures are equal in pieces and kings: free choice.
		{name: "equal pieces and kings: free choice", fen: "W:W7,9,12:B11,13,15,21,22",
			want: []string{"9x18x25", "9x18x27", "12x19x26"}},
		// Men capture forward only: 14 (e4) cannot take 11 (d3) behind it.
		{name: "men cannot capture backward", fen: "W:W14:B11",
			want: []string{"14-18", "14-19"}},
		// And black men only downward: 19 (d5) cannot take 22 (e6).
		{name: "black men cannot capture backward", fen: "B:W22:B19",
			want: []string{"19-14", "19-15"}},
		// A flying king slides any distance: from e4 (14) along the four
		// diagonals f5 g6 h7, d5 c6 b7 a8, f3 g2 h1, d3 c2 b1.
		{name: "flying king quiet moves", fen: "W:WK14:B24",
			want: []string{"14-18", "14-21", "14-25", "14-19", "14-23", "14-28", "14-32",
				"14-10", "14-5", "14-1", "14-11", "14-7", "14-4"}},
		// A flying king captures at a distance and chooses its landing:
		// from h1 (1) along g2 f3 e4 over the man on d5 (19), landing on c6
		// (23), b7 (28) or a8 (32).
		{name: "flying king capture with landing choice", fen: "W:WK1:B19",
			want: []string{"1x23", "1x28", "1x32"}},
		// Most kings also applies between a king's and a man's capture:
		// the king on h1 can take the man on f3 (10) landing e4, d5, c6,
		// b7, a8; the man on b3 (12) takes the king on c4 (15). Equal
		// counts, the capture of the king wins.
		{name: "most kings between a king's and a man's capture", fen: "W:WK1,12:B10,K15",
			want: []string{"12x19"}},
	})
}

// International numbering (rules.md §5): rank 10 b10=1 … j10=5, rank 9
// a9=6 … i9=10, and so on down to rank 1 a1=46 … i1=50.
func TestVariantInternationalRules(t *testing.T) {
	vrRunCases(t, International, []vrCase{
		{name: "white moves first from the start", fen: International.StartFEN,
			want: []string{"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}},
		// Maximum capture: 33 (f4) over e5 (28) to d6 (22), over c7 (17) to
		// b8 (11): two pieces. 36 (a3) over b4 (31) to c5 (27): one.
		{name: "maximum capture", fen: "W:W33,36:B17,28,31",
			want: []string{"33x22x11"}},
		// Kings count as one: two men beat one king.
		{name: "two men beat one king", fen: "W:W33,36:B17,28,K31",
			want: []string{"33x22x11"}},
		// Equal counts are a free choice, kings or not: 32 (d4) takes the
		// king on e5 (28), 34 (h4) the man on g5 (29), both landing on f6
		// (23), where neither can go on (beyond the other piece stands a
		// white man).
		{name: "equal counts: free choice, kings count as one", fen: "W:W32,34:BK28,29",
			want: []string{"32x23", "34x23"}},
		// A man captures backward: 28 (e5) over f4 (33) to g3 (39), over
		// h2 (44) to i1 (50): two pieces, backward, beat 28x17 (over d6
		// 22, forward, one piece).
		{name: "a man captures backward", fen: "W:W28:B22,33,44",
			want: []string{"28x39x50"}, promote: map[string]bool{"28x39x50": false}},
		// A man passing the far rank stays a man: 12 (d8) over e9 (8) to
		// f10 (3), then back over g9 (9) to h8 (14). 12x3 (crowned) takes
		// fewer pieces and is illegal.
		{name: "a man passing the far rank stays a man", fen: "W:W12:B8,9",
			want: []string{"12x3x14"}, promote: map[string]bool{"12x3x14": false}},
		{name: "a man ending on the far rank is crowned", fen: "W:W12:B8",
			want: []string{"12x3"}, promote: map[string]bool{"12x3": true}},
		// Flying king landing choices: the king on a1 (46) takes c3 (37)
		// and may land anywhere beyond on the long diagonal: d4 (32), e5
		// (28), f6 (23), g7 (19), h8 (14), i9 (10), j10 (5).
		{name: "flying king landing choices", fen: "W:WK46:B37",
			want: []string{"46x32", "46x28", "46x23", "46x19", "46x14", "46x10", "46x5"}},
		// With a man on g3 (39), only e5 (28) lets the capture go on
		// (e5-f4-g3-h2-i1): the maximum rule makes the king land there,
		// then it chooses between h2 (44) and i1 (50).
		{name: "flying king landing forced by the maximum rule", fen: "W:WK46:B37,39",
			want: []string{"46x28x44", "46x28x50"}},
		// The Woldouby position (testdata/perft-start.json): six quiet moves.
		{name: "Woldouby", fen: "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
			want: []string{"25-20", "27-22", "28-22", "33-29", "34-29", "37-31"}},
		// After 33-29, the black man on 24 (h6) captures five, landing
		// twice on 33 (f4): 24 over 29 to 33, over 28 to 22, over 27 to 31,
		// over 37 to 42, over 38 back to 33 — a square already landed on
		// may be landed on again; only the taken pieces are blocked.
		{name: "Woldouby: a man lands twice on one square", fen: "B:W25,27,28,29,30,32,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
			want: []string{"24x33x22x31x42x33"}},
		// Black men capture backward (upward) too: 23 (f6) over 18 (e7)
		// to 12 (d8).
		{name: "a black man captures backward", fen: "B:W18:B23",
			want: []string{"23x12"}},
	})
}

// TestVariantNotation checks FEN and move notation of the algebraic and
// numbered variants.
func TestVariantNotation(t *testing.T) {
	// Russian and Brazilian FEN is algebraic; the numeric form is read too.
	for _, v := range []*Variant{Russian, Brazilian} {
		for _, c := range []struct{ fen, numeric string }{
			{"W:Wa1,c1:Bh8", "W:W1,2:B32"},
			{"B:WKa1,e3:Bc5,Kh8", "B:WK1,11:B18,K32"},
		} {
			p, err := v.ParseFEN(c.fen)
			if err != nil {
				t.Fatalf("%s %s: %v", v.Name, c.fen, err)
			}
			if got := v.FEN(&p); got != c.fen {
				t.Errorf("%s: FEN(ParseFEN(%q)) = %q", v.Name, c.fen, got)
			}
			q, err := v.ParseFEN(c.numeric)
			if err != nil || q != p {
				t.Errorf("%s: numeric %q reads as %s, %v; want %s", v.Name, c.numeric, v.FEN(&q), err, c.fen)
			}
		}
		if _, err := v.ParseFEN("W:Wh8:Ba1"); err == nil {
			t.Errorf("%s: men on their own crowning rank accepted", v.Name)
		}
		// The start position written in FEN.
		s := v.Start()
		if got := v.FEN(&s); got != v.StartFEN {
			t.Errorf("%s: start FEN %q, want %q", v.Name, got, v.StartFEN)
		}
	}

	// Moves: quiet "c3-d4" in both; captures "c3:e5" in Russian and
	// "c3xe5" in Brazilian; each reads back, in every accepted form.
	for _, c := range []struct {
		v          *Variant
		fen        string
		text, hub  string
		alsoParses []string
	}{
		{Russian, Russian.StartFEN, "c3-d4", "10-14", []string{"10-14"}},
		{Brazilian, Brazilian.StartFEN, "c3-d4", "10-14", []string{"10-14"}},
		{Russian, "W:Wc3:Bd4", "c3:e5", "10x19x14", []string{"c3xe5", "10x19", "10x19x14", "c3:e5:d4"}},
		{Brazilian, "W:Wc3:Bd4", "c3xe5", "10x19x14", []string{"c3:e5", "10x19", "10x19x14"}},
		{Russian, "W:WKa1:Bc3,f4", "a1:e5:g3", "1x12x10x15", []string{"a1xe5xg3", "1x12x10x15", "1x12", "1:19:12"}},
		{English, English.StartFEN, "9-13", "9-13", nil},
		{English, "W:W21,22:B11,17,18", "22x15x8", "22x8x11x18", []string{"22x8", "22x8x18x11"}},
		{Spanish, Spanish.StartFEN, "9-13", "9-13", nil},
		{International, "B:W25,27,28,29,30,32,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
			"24x33x22x31x42x33", "24x33x27x28x29x37x38", []string{"24x33"}},
	} {
		p, err := c.v.ParseFEN(c.fen)
		if err != nil {
			t.Fatalf("%s %s: %v", c.v.Name, c.fen, err)
		}
		m, err := c.v.ParseMove(&p, c.text)
		if err != nil {
			t.Errorf("%s %s: ParseMove(%q): %v", c.v.Name, c.fen, c.text, err)
			continue
		}
		if got := c.v.FormatMove(&p, m); got != c.text {
			t.Errorf("%s %s: FormatMove = %q, want %q", c.v.Name, c.fen, got, c.text)
		}
		if got := c.v.HubMove(m); got != c.hub {
			t.Errorf("%s %s: HubMove(%s) = %q, want %q", c.v.Name, c.fen, c.text, got, c.hub)
		}
		for _, alt := range c.alsoParses {
			if m2, err := c.v.ParseMove(&p, alt); err != nil || m2 != m {
				t.Errorf("%s %s: ParseMove(%q) = %+v, %v; want %s", c.v.Name, c.fen, alt, m2, err, c.text)
			}
		}
	}

	// English numbering: 1 = b8, 5 = a7, 29 = a1, 32 = g1; the start
	// position round-trips with ranges.
	for n, sq := range map[int][2]int{1: {1, 7}, 4: {7, 7}, 5: {0, 6}, 29: {0, 0}, 32: {6, 0}} {
		if f, r := English.Coord(English.Bit(n)); f != sq[0] || r != sq[1] {
			t.Errorf("english square %d at file %d rank %d, want %d %d", n, f, r, sq[0], sq[1])
		}
		if got := English.SquareName(English.Bit(n)); got != strconv.Itoa(n) {
			t.Errorf("english square %d named %q", n, got)
		}
	}
	for _, v := range []*Variant{English, Spanish, International} {
		s := v.Start()
		if got := v.FEN(&s); got != v.StartFEN {
			t.Errorf("%s: start FEN %q, want %q", v.Name, got, v.StartFEN)
		}
		if q, err := v.ParseFEN(v.StartFEN); err != nil || q != s {
			t.Errorf("%s: ParseFEN(start) = %s, %v", v.Name, v.FEN(&q), err)
		}
	}
	// Spanish: 1 = h1, 32 = a8; International: 1 = b10, 46 = a1, 50 = i1.
	for _, c := range []struct {
		v    *Variant
		n    int
		f, r int
	}{{Spanish, 1, 7, 0}, {Spanish, 4, 1, 0}, {Spanish, 5, 6, 1}, {Spanish, 32, 0, 7},
		{International, 1, 1, 9}, {International, 6, 0, 8}, {International, 46, 0, 0}, {International, 50, 8, 0}} {
		if f, r := c.v.Coord(c.v.Bit(c.n)); f != c.f || r != c.r {
			t.Errorf("%s square %d at %s, want %s", c.v.Name, c.n, vrAlg(f, r), vrAlg(c.f, c.r))
		}
	}
}
