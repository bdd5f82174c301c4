package movegen

import (
	"slices"
	"strings"
	"testing"
)

// legalMoves returns the legal moves of fen written with FormatMove, sorted.
func legalMoves(t *testing.T, v *Variant, fen string) []string {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	var ml MoveList
	v.Generate(&p, &ml)
	out := make([]string, 0, ml.N)
	for _, m := range ml.Slice() {
		out = append(out, v.FormatMove(&p, m))
	}
	slices.Sort(out)
	if n := v.Count(&p, &ml); n != len(out) {
		t.Errorf("%s: Count = %d, Generate lists %d", fen, n, len(out))
	}
	return out
}

// TestItalianRuleExamples plays every seed example of rules.md §1, each
// in a position built so that the example is the question.
func TestItalianRuleExamples(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string
	}{
		{"seven first moves", "W:W21-32:B1-12",
			[]string{"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}},
		{"full path 29x22x15x6 captures 26, 19 and 11", "W:W29:B26,19,11,1",
			[]string{"29x22x15x6"}},
		{"a man cannot take a king: 22x13 illegal", "W:W22,32:BK18",
			[]string{"22-19", "32-28"}},
		{"rule 1, most pieces: 21x14x5 over 24x15", "W:W21,24:B18,10,20",
			[]string{"21x14x5"}},
		{"rule 2, king beats man: 12x19 over 22x13", "W:WK12,22:B15,18",
			[]string{"12x19"}},
		{"rule 3, most kings: 14x23 over 14x5", "W:WK14:B10,K19",
			[]string{"14x23"}},
		{"rule 4, king met first: 14x7x16 over 14x21x30", "W:WK14:BK11,12,18,K26",
			[]string{"14x7x16"}},
		{"rule 4 reading, second king decides", "W:WK14:BK11,12,K18,K26,3",
			[]string{"14x21x30"}},
		{"crowning stops the capture: 11x2, not 11x2x9", "W:W11:B5,6",
			[]string{"11x2"}},
		{"men move forward only", "W:W18:B1",
			[]string{"18-13", "18-14"}},
		{"men capture forward only", "W:W18:B22,1",
			[]string{"18-13", "18-14"}},
		{"kings step one square in four directions", "W:WK18:B1",
			[]string{"18-13", "18-14", "18-21", "18-22"}},
		{"equal captures are a free choice", "W:W22,23:B18,19,1",
			[]string{"22x13", "22x15", "23x14"}},
		{"black men go down the board", "B:W32:B11",
			[]string{"11-14", "11-15"}},
		{"a black man crowns on 29-32", "B:WK1:B27",
			[]string{"27-30", "27-31"}},
		{"a king's capture may end where it began", "W:WK27:B6,7,14,15,22,23",
			[]string{"27x20x11x18x27"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := legalMoves(t, Italian, c.fen)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: legal moves %v, want %v", c.fen, got, want)
			}
		})
	}
}

// TestPromotionFlag checks the crowning flag of the generated moves.
func TestPromotionFlag(t *testing.T) {
	for _, c := range []struct {
		fen, move string
		promote   bool
	}{
		{"W:W5:B20", "5-1", true},
		{"W:W11:B5,6", "11x2", true},
		{"W:WK5:B20", "5-1", false},
		{"B:WK1:B27", "27-31", true},
		{"W:W22:B3", "22-18", false},
	} {
		p, err := Italian.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Italian.ParseMove(&p, c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if m.Promote != c.promote {
			t.Errorf("%s %s: Promote = %v, want %v", c.fen, c.move, m.Promote, c.promote)
		}
		p.Play(m)
		if got := p.Kings&(1<<m.To) != 0; got != (c.promote || strings.Contains(c.fen, ":WK")) {
			t.Errorf("%s %s: mover is king after move = %v", c.fen, c.move, got)
		}
	}
}
