package eval

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

var it = movegen.Italian

// randomGames returns the positions met while playing games of random legal
// moves from the start (fixed seed: the same positions on every run).
func randomGames(games, maxPlies int, seed uint64) []movegen.Position {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []movegen.Position
	var ml movegen.MoveList
	for g := 0; g < games; g++ {
		p := it.Start()
		for ply := 0; ply < maxPlies; ply++ {
			out = append(out, p)
			it.Generate(&p, &ml)
			if ml.N == 0 {
				break
			}
			p.Play(ml.Moves[r.IntN(ml.N)])
		}
	}
	return out
}

// randomPlacements returns positions with random pieces on random squares:
// up to 12 a side, any mix of men and kings, men never on the rank where
// they would be crowned, either side to move.
func randomPlacements(count int, seed uint64) []movegen.Position {
	r := rand.New(rand.NewPCG(seed, 0x91ace))
	crown := [2]uint64{movegen.Row8Top, movegen.Row8Bottom}
	out := make([]movegen.Position, 0, count)
	for len(out) < count {
		var p movegen.Position
		p.Side = movegen.Color(r.IntN(2))
		kingOdds := 1 + r.IntN(4) // some positions all men, some many kings
		for c := movegen.White; c <= movegen.Black; c++ {
			for n := r.IntN(13); n > 0; n-- {
				for {
					b := r.IntN(36)
					bit := uint64(1) << b
					if movegen.Board8&bit == 0 || p.Occupied()&bit != 0 {
						continue
					}
					king := r.IntN(kingOdds) == 0 && kingOdds > 1
					if !king && crown[c]&bit != 0 {
						continue
					}
					p.Pieces[c] |= bit
					if king {
						p.Kings |= bit
					}
					break
				}
			}
		}
		p.Key = p.ComputeKey()
		out = append(out, p)
	}
	return out
}

func mustFEN(t testing.TB, fen string) movegen.Position {
	t.Helper()
	p, err := it.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func checkSymmetry(t *testing.T, what string, ps []movegen.Position) {
	t.Helper()
	bad := 0
	for i := range ps {
		p := &ps[i]
		f := p.Flip8()
		w, fw := EvaluateWhite(it, p), EvaluateWhite(it, &f)
		e, fe := Evaluate(it, p), Evaluate(it, &f)
		m, fm := Material(it, p), Material(it, &f)
		want := w
		if p.Side == movegen.Black {
			want = -w
		}
		if fw != -w || fe != e || fm != m || e != want {
			bad++
			if bad <= 10 {
				t.Errorf("%s %d %s: EvaluateWhite %d, of flip %d; Evaluate %d, of flip %d; Material %d, of flip %d",
					what, i, it.FEN(p), w, fw, e, fe, m, fm)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d positions break symmetry", what, bad, len(ps))
	}
}

func TestSymmetryRandomGames(t *testing.T) {
	ps := randomGames(200, 200, 1)
	if len(ps) < 5000 {
		t.Fatalf("only %d positions from random games", len(ps))
	}
	kings := 0
	for i := range ps {
		if ps[i].Kings != 0 {
			kings++
		}
	}
	if kings < 500 {
		t.Errorf("only %d of %d positions hold a king: the test misses the king terms", kings, len(ps))
	}
	checkSymmetry(t, "game position", ps)
}

func TestSymmetryRandomPlacements(t *testing.T) {
	checkSymmetry(t, "placement", randomPlacements(20000, 2))
}

// TestStartScoresZero: the start position is its own colour mirror with
// the other side to move, so no evaluation may favour a colour there: the
// side to move scores the same whichever colour it is. Without a tempo
// term (the hand-written evaluation, a network without tempo weights)
// that score is 0; a network with tempo weights (eval/nettempo.go) may
// value having the move, by at most a quarter of a man.
func TestStartScoresZero(t *testing.T) {
	p := it.Start()
	w := EvaluateWhite(it, &p)
	e := Evaluate(it, &p)
	p.Side = movegen.Black
	eb, wb := Evaluate(it, &p), EvaluateWhite(it, &p)
	if e != eb || w != -wb || e != w {
		t.Errorf("start: White to move scores %d (White's view %d), Black to move %d (White's view %d): want the same for the side to move", e, w, eb, wb)
	}
	tempo := false
	if n := ActiveNet(it); n != nil && n.tw != nil {
		tempo = true
	}
	if !tempo && e != 0 || e < -25 || e > 25 {
		t.Errorf("Evaluate(start) = %d, want 0 (tempo weights %v: within ±25)", e, tempo)
	}
	HandWrittenOnly(it)
	defer ResetWeights(it)
	if h := Evaluate(it, &p); h != 0 {
		t.Errorf("hand-written Evaluate(start) = %d, want 0", h)
	}
	if m := Material(it, &p); m != 0 {
		t.Errorf("Material(start) = %d, want 0", m)
	}
}

func TestManUp(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want int // sign of Evaluate: +1 the side to move is ahead
	}{
		{"W:W21-32:B1-11", 1},
		{"B:W21-32:B1-11", -1},
		{"B:W21-31:B1-12", 1},
		{"W:W22-32:B1-12", -1},
		{"W:W21,22,23:B10,11", 1},
		{"B:W21,22,23:B10,11", -1},
		{"W:W18,K31:B3", 1},
	} {
		p := mustFEN(t, c.fen)
		e := Evaluate(it, &p)
		if e*c.want < Man/2 {
			t.Errorf("%s: Evaluate = %d, want %s than ±%d", c.fen, e, map[int]string{1: "more", -1: "less"}[c.want], Man/2)
		}
		if m := Material(it, &p); m*c.want < Man {
			t.Errorf("%s: Material = %d, want ±%d or more", c.fen, m, Man)
		}
	}
}

func TestKingWorthMoreThanMan(t *testing.T) {
	handWrittenOnly(t)
	if KingValue <= Man {
		t.Fatalf("KingValue %d <= Man %d", KingValue, Man)
	}
	for _, sq := range []string{"18", "23", "30", "1", "15"} {
		for _, side := range []string{"W", "B"} {
			king := mustFEN(t, side+":WK"+sq+":B4,12")
			msq := sq
			if sq == "1" { // a White man cannot stand on 1: compare with 5
				msq = "5"
			}
			man := mustFEN(t, side+":W"+msq+":B4,12")
			ek, em := EvaluateWhite(it, &king), EvaluateWhite(it, &man)
			if ek <= em+Man {
				t.Errorf("king on %s scores %d, man there %d: want the king clearly ahead", sq, ek, em)
			}
		}
	}
	// A king against a man is a win of material, not a level game.
	p := mustFEN(t, "W:WK18:B3")
	if e := Evaluate(it, &p); e < Man {
		t.Errorf("king against man: %d", e)
	}
}

func TestAdvancedManWorthMore(t *testing.T) {
	handWrittenOnly(t)
	// White's man a step from crowning (6 = c7) against one on its back
	// rank (30 = d1); the black man on 4 (g8) cannot stop it.
	for _, side := range []string{"W", "B"} {
		adv := mustFEN(t, side+":W6:B4")
		back := mustFEN(t, side+":W30:B4")
		ea, eb := EvaluateWhite(it, &adv), EvaluateWhite(it, &back)
		if ea <= eb+Man/10 {
			t.Errorf("%s to move: man on 6 scores %d, on 30 %d: want the advanced man clearly ahead", side, ea, eb)
		}
	}
	// The same holds rank by rank in a sparse endgame.
	prev := -1 << 30
	for _, sq := range []string{"30", "26", "22", "18", "14", "10", "6"} {
		p := mustFEN(t, "W:W"+sq+":B4,K32")
		e := EvaluateWhite(it, &p)
		if e <= prev {
			t.Errorf("endgame man on %s scores %d, not more than one rank lower (%d)", sq, e, prev)
		}
		prev = e
	}
}

func TestTradeDownWhenAhead(t *testing.T) {
	// A man up with fewer pieces left is a bigger advantage.
	big := mustFEN(t, "W:W21-26:B1-5")
	small := mustFEN(t, "W:W21,22:B1")
	if eb, es := Material(it, &big), Material(it, &small); eb != es {
		t.Fatalf("material %d and %d differ", eb, es)
	}
	if eb, es := EvaluateWhite(it, &big), EvaluateWhite(it, &small); es <= eb {
		t.Errorf("a man up: %d with 11 pieces, %d with 3: want more with fewer", eb, es)
	}
	if tb, ts := 100*itTradeK[11]/1024, 100*itTradeK[3]/1024; ts <= tb {
		t.Errorf("trade bonus of a man: %d with 11 pieces, %d with 3: want more with fewer", tb, ts)
	}
}

func TestTablesFit(t *testing.T) {
	for n := range itMen {
		for k := range itMen[n] {
			tab := &itMen[n][k]
			for b := 0; b < 36; b++ {
				if !sqValid(b) {
					continue
				}
				w := sum(&tab.w, 1<<b) - tab.bias
				bl := sum(&tab.b, 1<<rot(b)) - tab.bias
				if w != bl {
					t.Errorf("n=%d k=%d bit %d: White weight %d, Black's on bit %d %d", n, k, b, w, rot(b), bl)
				}
			}
		}
	}
	if bits.OnesCount64(itExpW) != 9 || itExpB != rotBits(itExpW) {
		t.Errorf("over-extension masks %#x %#x", itExpW, itExpB)
	}
}

func rotBits(b uint64) uint64 {
	var r uint64
	for ; b != 0; b &= b - 1 {
		r |= 1 << rot(bits.TrailingZeros64(b))
	}
	return r
}

func TestEvaluateAllocatesNothing(t *testing.T) {
	ps := randomGames(4, 120, 3)
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		for i := range ps {
			sink += Evaluate(it, &ps[i]) + EvaluateWhite(it, &ps[i]) + Material(it, &ps[i])
		}
	})
	if allocs != 0 {
		t.Errorf("Evaluate allocates %.1f times per run", allocs)
	}
	_ = sink
}

var benchSink int

func BenchmarkEvaluate(b *testing.B) {
	ps := randomGames(8, 160, 4)
	// Keep a spread: start, middlegames, endgames with kings.
	sel := make([]movegen.Position, 0, 64)
	for i := 0; i < len(ps) && len(sel) < 64; i += len(ps) / 64 {
		sel = append(sel, ps[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += Evaluate(it, &sel[i%len(sel)])
	}
	benchSink = s
}

func BenchmarkMaterial(b *testing.B) {
	ps := randomGames(8, 160, 4)
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += Material(it, &ps[i%len(ps)])
	}
	benchSink = s
}
