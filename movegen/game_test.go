package movegen

import (
	"fmt"
	"strings"
	"testing"
)

// at names the square at file f, rank r (0-based, rank 0 is White's first)
// in v's own notation.
func at(t *testing.T, v *Variant, f, r int) string {
	t.Helper()
	b := v.BitAt(f, r)
	if b < 0 {
		t.Fatalf("%s: no square at file %d rank %d", v.Name, f, r)
	}
	return v.SquareName(b)
}

// sq is a square by file and rank with the piece letter a FEN puts before
// it ("" for a man, "K", "D").
type sq struct {
	kind string
	f, r int
}

// fenOf writes a FEN with the side to move and each colour's pieces.
func fenOf(t *testing.T, v *Variant, side string, white, black []sq) string {
	t.Helper()
	list := func(ps []sq) string {
		var s []string
		for _, p := range ps {
			s = append(s, p.kind+at(t, v, p.f, p.r))
		}
		return strings.Join(s, ",")
	}
	return side + ":W" + list(white) + ":B" + list(black)
}

// gameCase is one variant's positions for the end rules, in file/rank
// coordinates so that one description serves each board.
type gameCase struct {
	v *Variant
	// kings: one king each, far apart; shuffle is four king moves (from,
	// to as file/rank) that bring the position back without a capture.
	king    string
	kings   [2]sq
	shuffle [4][2]sq
	// blocked: White to move, a man with no legal move.
	blocked [2][]sq
}

func gameCases() []gameCase {
	// h1 dark (Italian, Damone, Spanish) is the mirror of a1 dark.
	h1 := func(v *Variant, king string) gameCase {
		return gameCase{v: v, king: king,
			kings:   [2]sq{{king, 5, 0}, {king, 2, 7}},
			shuffle: [4][2]sq{{{"", 5, 0}, {"", 4, 1}}, {{"", 2, 7}, {"", 3, 6}}, {{"", 4, 1}, {"", 5, 0}}, {{"", 3, 6}, {"", 2, 7}}},
			blocked: [2][]sq{{{"", 0, 1}}, {{"", 1, 2}, {"", 2, 3}}},
		}
	}
	a1 := func(v *Variant, top int) gameCase {
		return gameCase{v: v, king: "K",
			kings:   [2]sq{{"K", 2, 0}, {"K", top - 2, top}},
			shuffle: [4][2]sq{{{"", 2, 0}, {"", 3, 1}}, {{"", top - 2, top}, {"", top - 3, top - 1}}, {{"", 3, 1}, {"", 2, 0}}, {{"", top - 3, top - 1}, {"", top - 2, top}}},
			blocked: [2][]sq{{{"", 0, 0}}, {{"", 1, 1}, {"", 2, 2}}},
		}
	}
	return []gameCase{
		h1(Italian, "K"), h1(Damone, "K"), h1(DamoneAllDamoni, "D"), h1(Spanish, "K"),
		a1(English, 7), a1(Russian, 7), a1(Brazilian, 7), a1(International, 9),
		{v: Turkish, king: "K",
			kings:   [2]sq{{"K", 2, 0}, {"K", 5, 7}},
			shuffle: [4][2]sq{{{"", 2, 0}, {"", 2, 1}}, {{"", 5, 7}, {"", 5, 6}}, {{"", 2, 1}, {"", 2, 0}}, {{"", 5, 6}, {"", 5, 7}}},
			blocked: [2][]sq{{{"", 0, 6}}, {{"", 0, 7}, {"", 1, 6}, {"", 2, 6}}},
		},
	}
}

func newTestGame(t *testing.T, v *Variant, fen string) *Game {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return NewGame(v, p)
}

func playText(t *testing.T, g *Game, from, to sq) {
	t.Helper()
	v, p := g.Variant(), g.Position()
	text := at(t, v, from.f, from.r) + "-" + at(t, v, to.f, to.r)
	m, err := v.ParseMove(&p, text)
	if err != nil {
		t.Fatalf("%s %s: %v", v.Name, v.FEN(&p), err)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
}

func name(v *Variant) string {
	if v.HasLossRule() {
		return v.Name + "-all-damoni"
	}
	return v.Name
}

// TestGameStatus triggers every end rule once per variant.
func TestGameStatus(t *testing.T) {
	for _, c := range gameCases() {
		v := c.v
		t.Run(name(v), func(t *testing.T) {
			kings := fenOf(t, v, "W", []sq{c.kings[0]}, []sq{c.kings[1]})

			// No piece, and a blocked man: the side to move loses.
			for _, fen := range []string{
				fenOf(t, v, "W", nil, []sq{c.kings[1]}),
				fenOf(t, v, "W", c.blocked[0], c.blocked[1]),
			} {
				g := newTestGame(t, v, fen)
				if s := g.Status(); s.End != NoMove || s.Winner != Black || s.Draw() || s.String() != "white has no legal move" {
					t.Errorf("%s: status %+v %q, want black wins, white has no legal move", fen, s, s)
				}
			}

			// Threefold repetition: the start position again after 4 and 8 plies.
			g := newTestGame(t, v, kings)
			for ply := 0; ply < 8; ply++ {
				if s := g.Status(); s.Over() {
					t.Fatalf("%s: over after %d plies: %v", kings, ply, s)
				}
				mv := c.shuffle[ply%4]
				playText(t, g, mv[0], mv[1])
			}
			if s := g.Status(); s.End != Repetition || !s.Draw() || s.String() != "threefold repetition" {
				t.Errorf("%s: after 8 shuffling plies status %v, want threefold repetition", kings, s)
			}
			if !g.Undo() || g.Status().Over() || g.Plies() != 7 {
				t.Errorf("after undo: status %v, plies %d", g.Status(), g.Plies())
			}

			// The move rule: DrawPlies plies without a capture or a man move.
			g = newTestGame(t, v, kings)
			g.rev = v.DrawPlies - 1
			if v.DrawPlies == 0 {
				g.rev = 10000 // Spanish: no move rule
			}
			if s := g.Status(); s.Over() {
				t.Errorf("%s: over with %d reversible plies: %v", kings, g.rev, s)
			}
			playText(t, g, c.shuffle[0][0], c.shuffle[0][1])
			want := MoveRule
			if v.DrawPlies == 0 {
				want = NotOver
			}
			if s := g.Status(); s.End != want {
				t.Errorf("%s: after %d reversible plies status %v, want %v", kings, g.Reversible(), s, want)
			}
		})
	}
}

// TestGameAllDamoni checks the Damone option: losing every Damone loses,
// and only with the option.
func TestGameAllDamoni(t *testing.T) {
	fen := "W:WK24:BD1,K9"
	for _, v := range []*Variant{Damone, DamoneAllDamoni} {
		g := newTestGame(t, v, fen)
		s := g.Status()
		if v.HasLossRule() != (s.End == NoDamone) || (s.Over() && (s.Winner != Black || s.String() != "white has no Damone left")) {
			t.Errorf("%s %s: status %+v %q", name(v), fen, s, s)
		}
	}
}

// TestGameRecord checks the record itself: illegal moves refused, keys and
// counts kept for a search, undo back to the start, the MaxPlies cap.
func TestGameRecord(t *testing.T) {
	v := Italian
	g := NewGame(v, v.Start())
	p := g.Position()
	var ml MoveList
	v.Generate(&p, &ml)
	if err := g.Play(Move{From: 1, To: 2}); err == nil || g.Plies() != 0 {
		t.Errorf("illegal move accepted: %v, %d plies", err, g.Plies())
	}
	g.MaxPlies = 2
	for i := 0; i < 2; i++ {
		if s := g.Status(); s.Over() {
			t.Fatalf("over after %d plies: %v", i, s)
		}
		p := g.Position()
		v.Generate(&p, &ml)
		if err := g.Play(ml.Moves[0]); err != nil {
			t.Fatal(err)
		}
		if g.Keys()[i] != p.Key || g.Before(i) != p || g.Moves()[i] != ml.Moves[0] {
			t.Errorf("ply %d: record does not hold the position and move played", i)
		}
	}
	if s := g.Status(); s.End != TooLong || !s.Draw() {
		t.Errorf("after MaxPlies: %v", s)
	}
	if g.Reversible() != 0 {
		t.Errorf("reversible %d after man moves", g.Reversible())
	}
	for g.Undo() {
	}
	if g.Position() != v.Start() || g.Plies() != 0 || len(g.Keys()) != 0 || g.Start() != v.Start() {
		t.Errorf("undo did not return to the start: %s", fmt.Sprint(g.Plies()))
	}
}

// TestGameTurkishSidewaysRepetition: a Turkish man may step sideways and
// back, so a position repeats across man moves and still counts.
func TestGameTurkishSidewaysRepetition(t *testing.T) {
	g := newTestGame(t, Turkish, "W:Wc3,Ka1:BKh8")
	shuffle := [4][2]sq{{{"", 2, 2}, {"", 3, 2}}, {{"", 7, 7}, {"", 7, 6}}, {{"", 3, 2}, {"", 2, 2}}, {{"", 7, 6}, {"", 7, 7}}}
	for ply := 0; ply < 8; ply++ {
		if s := g.Status(); s.Over() {
			t.Fatalf("over after %d plies: %v", ply, s)
		}
		playText(t, g, shuffle[ply%4][0], shuffle[ply%4][1])
	}
	if s := g.Status(); s.End != Repetition {
		t.Errorf("after 8 plies of sideways man moves status %v, want threefold repetition", s)
	}
}
