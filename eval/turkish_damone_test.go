package eval

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// Tests of the Turkish (turkish.go) and Italian Damone (damone.go)
// evaluations: colour symmetry on random games and placements, start
// positions, material, the Turkish king's reach and en-prise detection
// against a square-by-square reference, the Damone Pedina distances, the
// all-Damoni rule, dispatch, allocations and benchmarks. The self-play
// match against the generic evaluation is match_test.go (DAMA_EVAL_MATCH).

// tdVariants are the variants with the evaluations under test, by label
// (Damone and DamoneAllDamoni share the name "damone").
var tdVariants = []struct {
	label string
	v     *movegen.Variant
}{
	{"turkish", movegen.Turkish},
	{"damone", movegen.Damone},
	{"damone-all-damoni", movegen.DamoneAllDamoni},
}

// withDamoni returns ps with one more Damone for each side on a random
// empty square, so that the all-Damoni rule's own terms (and not only its
// "no Damone: lost" score) are exercised.
func withDamoni(ps []movegen.Position, seed uint64) []movegen.Position {
	r := rand.New(rand.NewPCG(seed, 0xda))
	out := make([]movegen.Position, 0, len(ps))
	for _, p := range ps {
		for c := movegen.White; c <= movegen.Black; c++ {
			free := movegen.Board8 &^ p.Occupied()
			if free == 0 {
				break
			}
			for k := r.IntN(bits.OnesCount64(free)); k > 0; k-- {
				free &= free - 1
			}
			bit := free & -free
			p.Pieces[c] |= bit
			p.Kings |= bit
			p.Super |= bit
		}
		p.Key = p.ComputeKey()
		out = append(out, p)
	}
	return out
}

func TestTurkishDamoneSymmetry(t *testing.T) {
	for _, c := range tdVariants {
		t.Run(c.label, func(t *testing.T) {
			v := c.v
			games := gamesOf(v, 200, 300, 21)
			kings := 0
			for i := range games {
				if games[i].Kings != 0 {
					kings++
				}
			}
			if len(games) < 5000 || kings < 500 {
				t.Errorf("%d positions from random games, %d with a king: want 5000 and 500", len(games), kings)
			}
			checkSymmetryV(t, v, "game position", games)
			places := placementsOf(v, 20000, 22)
			checkSymmetryV(t, v, "placement", places)
			if v.Name == "damone" {
				checkSymmetryV(t, v, "placement with Damoni", withDamoni(places[:10000], 23))
			}
		})
	}
}

// TestTurkishMirror: Turkish rules are the same mirrored left to right, and
// so must the evaluation be (the men's terms rely on it: turkish.go).
func TestTurkishMirror(t *testing.T) {
	handWrittenOnly(t) // the hand-written terms; the learned square tables are fitted square by square
	v := movegen.Turkish
	mirror := func(x uint64) uint64 { // file f ↔ 7-f: reverse each byte
		return bits.ReverseBytes64(bits.Reverse64(x))
	}
	ps := append(gamesOf(v, 50, 300, 24), placementsOf(v, 5000, 25)...)
	for i := range ps {
		p := &ps[i]
		q := movegen.Position{Pieces: [2]uint64{mirror(p.Pieces[0]), mirror(p.Pieces[1])}, Kings: mirror(p.Kings), Side: p.Side}
		if a, b := EvaluateWhite(v, p), EvaluateWhite(v, &q); a != b {
			t.Fatalf("%s scores %d, mirrored %s %d", v.FEN(p), a, v.FEN(&q), b)
		}
	}
}

func TestTurkishDamoneStartScoresZero(t *testing.T) {
	handWrittenOnly(t) // hand-written properties; Turkish's learned tempo term scores the side to move
	for _, c := range tdVariants {
		p := c.v.Start()
		for _, side := range []movegen.Color{movegen.White, movegen.Black} {
			p.Side = side
			if w, e, m := EvaluateWhite(c.v, &p), Evaluate(c.v, &p), Material(c.v, &p); w != 0 || e != 0 || m != 0 {
				t.Errorf("%s start, %s to move: EvaluateWhite %d, Evaluate %d, Material %d; want 0", c.label, side, w, e, m)
			}
		}
	}
}

// TestTurkishDamoneDispatch: each variant reaches its own evaluation; a
// Variant value with the name but not the board falls back to the generic
// one.
func TestTurkishDamoneDispatch(t *testing.T) {
	handWrittenOnly(t) // the hand-written functions, not the learned correction (Damone's)
	for _, p := range placementsOf(movegen.Turkish, 200, 26) {
		if EvaluateWhite(movegen.Turkish, &p) != turkishWhite(&p) || Material(movegen.Turkish, &p)*sideSign(p.Side) != materialWhite(&p, TurkishKingValue, TurkishKingValue) {
			t.Fatalf("Turkish does not dispatch to turkishWhite")
		}
	}
	for _, p := range withDamoni(placementsOf(movegen.Damone, 200, 27), 28) {
		if EvaluateWhite(movegen.Damone, &p) != damoneWhite(&p, false) ||
			EvaluateWhite(movegen.DamoneAllDamoni, &p) != damoneWhite(&p, true) ||
			Material(movegen.Damone, &p)*sideSign(p.Side) != materialWhite(&p, DamaValue, DamoneValue) {
			t.Fatalf("Damone does not dispatch to damoneWhite")
		}
	}
	p := movegen.Position{Pieces: [2]uint64{0xFF00, 0xFF << 48}, Kings: 1 << 8}
	for _, name := range []string{"turkish", "damone"} {
		odd := &movegen.Variant{Name: name}
		if w := EvaluateWhite(odd, &p); w != genericMaterial(&p) {
			t.Errorf("boardless %s: %d, want the generic material %d", name, w, genericMaterial(&p))
		}
	}
}

// TestTurkishMaterial: the king value is in the justified range, the
// material count is right, and a man or a king up is clearly ahead.
func TestTurkishMaterial(t *testing.T) {
	handWrittenOnly(t) // hand-written properties; Turkish's learned tempo term scores the side to move
	v := movegen.Turkish
	if TurkishKingValue < 250 || TurkishKingValue > 350 {
		t.Errorf("TurkishKingValue %d, want 250-350", TurkishKingValue)
	}
	for _, c := range []struct {
		fen  string
		mat  int // Material for the side to move
		sign int // sign of Evaluate
	}{
		{"W:Wa2,b2,c2:Ba7,b7", Man, 1},
		{"B:Wa2,b2,c2:Ba7,b7", -Man, -1},
		{"W:Wa2,Kd4:Ba7,b7,c7", TurkishKingValue - 2*Man, 1},
		{"B:WKa1:Ba7,b7,c7,d7,e7", 5*Man - TurkishKingValue, 1},
		{"W:Wc3,d3,e3:Bc6,d6,e6", 0, 0},
	} {
		p := mustFENv(t, v, c.fen)
		if m := Material(v, &p); m != c.mat {
			t.Errorf("%s: Material %d, want %d", c.fen, m, c.mat)
		}
		e := Evaluate(v, &p)
		switch {
		case c.sign > 0 && e < Man/2, c.sign < 0 && e > -Man/2, c.sign == 0 && e != 0:
			t.Errorf("%s: Evaluate %d, want sign %d", c.fen, e, c.sign)
		}
	}
	// A king is worth clearly more than a man on any square.
	for b := 8; b < 64; b++ {
		king := movegen.Position{Pieces: [2]uint64{1 << b, 1<<0 | 1<<7}, Kings: 1 << b}
		man := movegen.Position{Pieces: [2]uint64{1 << b, 1<<0 | 1<<7}}
		if ek, em := EvaluateWhite(v, &king), EvaluateWhite(v, &man); ek < em+Man {
			t.Errorf("king on %s scores %d, a man %d", v.SquareName(b), ek, em)
		}
	}
}

// TestTurkishAdvancement: a lone man scores more rank by rank up the
// board; a man blocked head-on by an enemy man gains no advancement; a man
// that cannot move pays; a man with a free path earns the bonus only when
// nothing stands in its way.
func TestTurkishAdvancement(t *testing.T) {
	handWrittenOnly(t) // hand-written properties; Turkish's learned tempo term scores the side to move
	v := movegen.Turkish
	prev := -1 << 30
	for r := 2; r <= 7; r++ {
		p := mustFENv(t, v, "W:Wd"+string(rune('0'+r))+":Ba8")
		e := EvaluateWhite(v, &p)
		if e <= prev {
			t.Errorf("man on d%d scores %d, not more than a rank lower (%d)", r, e, prev)
		}
		prev = e
	}
	// The middlegame rewards advancement too, less steeply.
	full := "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,%s:Bb6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7,a6"
	low, high := mustFENv(t, v, fmt.Sprintf(full, "d3")), mustFENv(t, v, fmt.Sprintf(full, "d4"))
	if el, eh := EvaluateWhite(v, &low), EvaluateWhite(v, &high); eh <= el {
		t.Errorf("middlegame: man on d4 scores %d, on d3 %d", eh, el)
	}

	// Blocked head-on: a man on d5 earns less facing an enemy man on d6
	// than with the enemy a square further (not ahead of a free path in
	// either case).
	sq := func(name string) uint64 { return 1 << bitOf(t, v, name) }
	men := func(own, opp uint64) int { return turkishMen(own, opp, opp, ^(own | opp), 4, false) }
	if b, f := men(sq("d5"), sq("d6")), men(sq("d5"), sq("d7")); b >= f {
		t.Errorf("man on d5 blocked by d6 scores %d, facing d7 %d", b, f)
	}

	// A man that cannot move: a1 boxed in by its own men on a2 and b1,
	// against the same men with b1 moved to c1.
	if b, f := men(sq("a1")|sq("a2")|sq("b1"), 0), men(sq("a1")|sq("a2")|sq("c1"), 0); b != f-tkImmobile[4] {
		t.Errorf("boxed-in man: %d, free: %d, want a difference of %d", b, f, tkImmobile[4])
	}

	// Free path for a man on d5: enemy pieces on files c-e above rank 5
	// take it away, pieces beside or behind it, or two files away, do not.
	for _, c := range []struct {
		black string
		free  bool
	}{
		{"d6", false}, {"d8", false}, {"c6", false}, {"e7", false}, {"e8", false},
		{"e5", true}, {"c5", true}, {"f7", true}, {"b8", true}, {"d4", true}, {"a2", true},
	} {
		if got := tkFree(sq("d5"), sq(c.black)) != 0; got != c.free {
			t.Errorf("man on d5, enemy on %s: free path %v, want %v", c.black, got, c.free)
		}
	}
	// The bonus is worth more near promotion, half once the enemy has a
	// king somewhere.
	if a, b := men(sq("d7"), sq("a2")), men(sq("d4"), sq("a2")); a <= b+tkPassed[1]-tkPassed[4] {
		t.Errorf("free man on d7 scores %d, on d4 %d", a, b)
	}
	if a, b := turkishMen(sq("d6"), 0, sq("a1"), ^(sq("d6")|sq("a1")), 4, true), men(sq("d6"), sq("a1")); b-a != tkPassed[2]-tkPassed[2]/2 {
		t.Errorf("free man against a king: %d, against a man %d", a, b)
	}
}

func bitOf(t testing.TB, v *movegen.Variant, name string) int {
	t.Helper()
	p := mustFENv(t, v, "W:WK"+name+":B")
	if p.Pieces[movegen.White] == 0 {
		t.Fatalf("no square %s", name)
	}
	return bits.TrailingZeros64(p.Pieces[movegen.White])
}

// TestTurkishFreeMatchesReference compares tkFree with the square by
// square definition on random placements, for both colours (Black's on the
// upside-down board, as turkishWhite uses it).
func TestTurkishFreeMatchesReference(t *testing.T) {
	v := movegen.Turkish
	for _, p := range placementsOf(v, 5000, 36) {
		for c := movegen.White; c <= movegen.Black; c++ {
			men, opp := p.Men(c), p.Pieces[c^1]
			got := tkFree(men, opp)
			if c == movegen.Black {
				got = bits.ReverseBytes64(tkFree(bits.ReverseBytes64(men), bits.ReverseBytes64(opp)))
			}
			var want uint64
			for m := men; m != 0; m &= m - 1 {
				f, r := v.Coord(bits.TrailingZeros64(m))
				free := true
				for o := opp; o != 0; o &= o - 1 {
					of, or := v.Coord(bits.TrailingZeros64(o))
					ahead := or > r
					if c == movegen.Black {
						ahead = or < r
					}
					if ahead && abs(of-f) <= 1 {
						free = false
					}
				}
				if free {
					want |= m & -m
				}
			}
			if got != want {
				t.Fatalf("%s, %s men: free %v, want %v", v.FEN(&p), c, names(v, got), names(v, want))
			}
		}
	}
}

// tkReachNaive is the square-by-square reference of tkKingReach: for each
// king and each of the four directions, the empty squares it slides over
// (ray), and the first piece met, if it is a target with an empty square
// just beyond it (hit).
func tkReachNaive(kings, empty, targets uint64) (ray, hit uint64) {
	at := func(f, r int) uint64 { return uint64(1) << ((7-r)*8 + f) }
	for k := kings; k != 0; k &= k - 1 {
		b := bits.TrailingZeros64(k)
		f0, r0 := b%8, 7-b/8
		for _, d := range [4][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}} {
			f, r := f0+d[0], r0+d[1]
			for f >= 0 && f < 8 && r >= 0 && r < 8 && empty&at(f, r) != 0 {
				ray |= at(f, r)
				f, r = f+d[0], r+d[1]
			}
			if f < 0 || f > 7 || r < 0 || r > 7 || targets&at(f, r) == 0 {
				continue
			}
			bf, br := f+d[0], r+d[1]
			if bf >= 0 && bf < 8 && br >= 0 && br < 8 && empty&at(bf, br) != 0 {
				hit |= at(f, r)
			}
		}
	}
	return ray, hit
}

func TestTurkishKingReachMatchesReference(t *testing.T) {
	v := movegen.Turkish
	ps := append(placementsOf(v, 20000, 29), gamesOf(v, 50, 300, 30)...)
	for i := range ps {
		p := &ps[i]
		empty := ^p.Occupied()
		for c := movegen.White; c <= movegen.Black; c++ {
			k, targets := p.KingsOf(c), p.Pieces[c^1]
			if k == 0 {
				continue
			}
			ray, hit := tkKingReach(k, empty, targets)
			wr, wh := tkReachNaive(k, empty, targets)
			if ray != wr || hit != wh {
				t.Fatalf("%s, %s kings: ray %#x hit %#x, want %#x %#x", v.FEN(p), c, ray, hit, wr, wh)
			}
		}
	}
}

// TestTurkishEnPrise checks the en-prise squares of explicit positions:
// which pieces of each colour an enemy king could capture right now.
func TestTurkishEnPrise(t *testing.T) {
	handWrittenOnly(t) // hand-written properties; Turkish's learned tempo term scores the side to move
	v := movegen.Turkish
	for _, c := range []struct {
		fen        string
		white, blk []string // en-prise pieces of White and of Black
	}{
		// The brief's example: the kings face each other on the d-file;
		// d3 is empty behind White's king, nothing is beyond d8.
		{"W:Wa2,Kd4:Bh7,Kd8", []string{"d4"}, nil},
		// A piece behind closes the square beyond.
		{"W:Wd3,Kd4:Bh7,Kd8", nil, nil},
		// Long range along a file; the edge leaves no square beyond.
		{"W:Wa7,b2:BKa1,h8", []string{"a7"}, nil},
		{"W:WKa8,b2:BKa1,h8", nil, nil},
		{"W:Wa1,b3:BKa8,h8", nil, nil},
		// Along a rank, both ways; an own piece in between shields.
		{"W:Wc4,f4:BKh4,a8", []string{"f4"}, nil},
		{"W:Wc4,f4:BKa4,h8", []string{"c4"}, nil},
		{"W:Wc4:BKh4,e4", nil, nil},
		// No wrap round the edge from one rank to the next.
		{"W:Wh6,a1:BKa5,c8", nil, nil},
		{"W:Wa3,b1:BKh4,c8", nil, nil},
		{"W:Wh5,a1:BKa5,c8", nil, nil}, // g5 … b5 empty: h5 is on the rank, but nothing beyond
		{"W:Wg5,a1:BKa5,c8", []string{"g5"}, nil},
		// Both sides at once; a king hit by two kings counts once; a king
		// on the edge (h4) has nothing beyond it.
		{"W:WKd4,e2:BKd8,Kh4,b4", []string{"d4"}, []string{"b4"}},
		// Men are not the attackers here: only kings capture from afar.
		{"W:Wd4:Bd5,Ka8", nil, nil},
	} {
		p := mustFENv(t, v, c.fen)
		empty := ^p.Occupied()
		var hitW, hitB uint64
		if k := p.KingsOf(movegen.Black); k != 0 {
			_, hitW = tkKingReach(k, empty, p.Pieces[movegen.White])
		}
		if k := p.KingsOf(movegen.White); k != 0 {
			_, hitB = tkKingReach(k, empty, p.Pieces[movegen.Black])
		}
		want := func(sqs []string) (m uint64) {
			for _, s := range sqs {
				q := mustFENv(t, v, "W:W"+s+":B")
				m |= q.Pieces[movegen.White]
			}
			return m
		}
		if hitW != want(c.white) || hitB != want(c.blk) {
			t.Errorf("%s: en prise White %v Black %v, want %v %v", c.fen, names(v, hitW), names(v, hitB), c.white, c.blk)
		}
	}

	// The evaluation pays for it, more when the enemy king is to move.
	wToMove := mustFENv(t, v, "W:Wa2,Kd4:Bh7,Kd8")
	bToMove := mustFENv(t, v, "B:Wa2,Kd4:Bh7,Kd8")
	safe := mustFENv(t, v, "W:Wa2,Kd4:Bh7,Ke8") // the Black king off the d-file
	ew, eb, es := EvaluateWhite(v, &wToMove), EvaluateWhite(v, &bToMove), EvaluateWhite(v, &safe)
	if ew >= es-tkThreatKing/2 {
		t.Errorf("threatened king, White to move: %d; unthreatened: %d", ew, es)
	}
	if eb >= ew-Man/2 {
		t.Errorf("king en prise with Black to move scores %d, with White to move %d: want far less", eb, ew)
	}
	// Two pieces hit at once (a4 by the king on a1, d7 by the one on d1)
	// cost more than the two threats apart.
	double := mustFENv(t, v, "W:Wa4,d7:BKd1,Ka1,h8")
	_, hit := tkKingReach(double.KingsOf(movegen.Black), ^double.Occupied(), double.Pieces[movegen.White])
	if hit != double.Pieces[movegen.White] {
		t.Errorf("double threat: en prise %v", names(v, hit))
	}
	if c1, c2 := tkEnPriseCost(hit, double.Kings, true), 2*tkThreatMan; c1 <= c2 {
		t.Errorf("double threat costs %d, two single ones %d", c1, c2)
	}
}

func names(v *movegen.Variant, m uint64) []string {
	var out []string
	for ; m != 0; m &= m - 1 {
		out = append(out, v.SquareName(bits.TrailingZeros64(m)))
	}
	return out
}

// TestTurkishTradeDown: a man up with fewer pieces left is worth more.
func TestTurkishTradeDown(t *testing.T) {
	v := movegen.Turkish
	big := mustFENv(t, v, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3:Ba7,b7,c7,d7,e7,f7,g7,h7")
	small := mustFENv(t, v, "W:Wa2,h2:Bh7")
	if mb, ms := Material(v, &big), Material(v, &small); mb != ms {
		t.Fatalf("material %d and %d differ", mb, ms)
	}
	if tb, ts := Man*tkTradeK[17]/1024, Man*tkTradeK[3]/1024; ts <= tb || tb <= 0 {
		t.Errorf("trade bonus of a man: %d with 17 pieces, %d with 3", tb, ts)
	}
}

// TestDamoneMaterial: values in the justified ranges, in rank order, and
// counted right.
func TestDamoneMaterial(t *testing.T) {
	v := movegen.Damone
	if !(Man < DamaValue && DamaValue < DamoneValue) || DamaValue < 250 || DamaValue > 300 || DamoneValue < 400 || DamoneValue > 500 {
		t.Errorf("Pedina %d, Dama %d, Damone %d: want 100 < 250-300 < 400-500", Man, DamaValue, DamoneValue)
	}
	for _, c := range []struct {
		fen string
		mat int // Material for the side to move
	}{
		{"W:WD32,K24,20:BD1,K2", Man},
		{"B:WD32,K24,20:BD1,K2", -Man},
		{"W:WD32,K24,K31:BD1,K2,3,6", 2*DamaValue - DamaValue - 2*Man},
		{"W:WD32,D28:BD1,K2,K9", DamoneValue - 2*DamaValue},
	} {
		p := mustFENv(t, v, c.fen)
		if m := Material(v, &p); m != c.mat {
			t.Errorf("%s: Material %d, want %d", c.fen, m, c.mat)
		}
		if m := Material(movegen.DamoneAllDamoni, &p); m != c.mat {
			t.Errorf("all-Damoni %s: Material %d, want %d", c.fen, m, c.mat)
		}
		if e := Evaluate(v, &p); (e > 0) != (c.mat > 0) || e == 0 {
			t.Errorf("%s: Evaluate %d, want the sign of %d", c.fen, e, c.mat)
		}
	}
	// On each square, a Damone scores more than a Dama, a Dama more than a
	// Pedina (not on the Pedina's promotion squares, where none stands):
	// by a man in the hand-written evaluation; with the learned weights at
	// all (fitted on self-play, they value a Damone near the Pedine's
	// promotion squares only 0.6-0.7 men above a Dama).
	damoneOrder(t, v, 1)
	handWrittenOnly(t)
	damoneOrder(t, v, Man)
}

// damoneOrder checks that on each square a Damone scores more than a Dama
// by more than margin, and a Dama more than a Pedina.
func damoneOrder(t *testing.T, v *movegen.Variant, margin int) {
	t.Helper()
	for b := 0; b < 36; b++ {
		if !sqValid(b) || v.CrownRank(movegen.White)>>b&1 != 0 || b == 0 || b == 2 || b == 35 {
			continue
		}
		black := uint64(1)<<35 | 1<<2 // the Black Damone on h1 (32), a Pedina on e8 (3)
		for _, side := range []movegen.Color{movegen.White, movegen.Black} {
			ped := movegen.Position{Pieces: [2]uint64{1<<b | 1<<0, black}, Kings: 1<<0 | 1<<35, Super: 1<<0 | 1<<35, Side: side}
			dama, damone := ped, ped
			dama.Kings |= 1 << b
			damone.Kings |= 1 << b
			damone.Super |= 1 << b
			ep, ed, es := EvaluateWhite(v, &ped), EvaluateWhite(v, &dama), EvaluateWhite(v, &damone)
			if !(ep+margin < ed && ed+margin < es) {
				t.Errorf("margin %d, on %s: Pedina %d, Dama %d, Damone %d", margin, v.SquareName(b), ep, ed, es)
			}
		}
	}
}

// TestDamonePedinaAdvances checks the Pedina's distances to its promotion
// squares and that a lone Pedina scores more as it walks towards c8.
func TestDamonePedinaAdvances(t *testing.T) {
	v := movegen.Damone
	for _, c := range []struct{ sq, d int }{
		{2, 0}, {9, 0}, {5, 1}, {6, 1}, {13, 1}, {14, 3}, {24, 5}, {20, 4}, {16, 5}, {30, 5}, {1, -1},
	} {
		if got := dmPedDist[v.Bit(c.sq)]; got != c.d {
			t.Errorf("Pedina on %d: %d steps to promotion, want %d", c.sq, got, c.d)
		}
	}
	// Every square but a8 (from which a White Pedina cannot move at all)
	// reaches a promotion square.
	for b := 0; b < 36; b++ {
		if sqValid(b) && b != 0 && dmPedDist[b] < 0 {
			t.Errorf("no way to promotion from bit %d", b)
		}
	}
	// h3 g4 f5 e6 d7 (24 20 15 11 6), up-left to c8, in an endgame
	// against Black's Damone at home and a Pedina. The tables hold these
	// four-piece positions: every one a draw but the last with White to
	// move (a win). So the learned evaluation, which has seen such
	// endings labelled by the tables, need only score the last above the
	// first; the hand-written one, whose advancement table this is about,
	// must score every step above the one before.
	walk := func() (first, last int) {
		prev := -1 << 30
		for i, sq := range []int{24, 20, 15, 11, 6} {
			for _, side := range []string{"W", "B"} {
				p := mustFENv(t, v, fmt.Sprintf("%s:WD29,%d:BD32,17", side, sq))
				e := EvaluateWhite(v, &p)
				if i == 0 && side == "W" {
					first = e
				}
				if sq == 6 && side == "W" {
					last = e
				}
				if e <= prev && !UsesLearned(v) {
					t.Errorf("Pedina on %d (%s to move) scores %d, not more than a step back (%d)", sq, side, e, prev)
				}
				if side == "B" {
					prev = e
				}
			}
		}
		return first, last
	}
	if first, last := walk(); last <= first {
		t.Errorf("learned: the Pedina on 6 scores %d, on 24 %d", last, first)
	}
	handWrittenOnly(t)
	walk()
}

// TestDamoneDamaToDamone: a safe Dama scores more near a8, where it becomes
// a Damone; one an enemy Dama could take now loses that bonus.
func TestDamoneDamaToDamone(t *testing.T) {
	v := movegen.Damone
	far := mustFENv(t, v, "W:WD32,K27:BD28,K26")
	near := mustFENv(t, v, "W:WD32,K5:BD28,K26")
	if ef, en := EvaluateWhite(v, &far), EvaluateWhite(v, &near); en <= ef {
		t.Errorf("Dama on 5 (next to a8) scores %d, on 27 %d", en, ef)
	}
	d5 := uint64(1) << v.Bit(5)
	var empty uint64 = movegen.Board8 &^ (d5 | 1<<v.Bit(10))
	if dmHit(d5, 1<<v.Bit(10), empty) != d5 { // Dama on 10 takes 5, landing on 1
		t.Errorf("Dama on 5 next to an enemy Dama on 10 (1 empty) is not seen as attacked")
	}
	if dmHit(d5, 1<<v.Bit(10), empty&^(1<<v.Bit(1))) != 0 {
		t.Errorf("Dama on 5 with 1 occupied is seen as attacked")
	}
}

// TestDamoneAllDamoni: a side without a Damone has lost; a lone Damone the
// enemy Damone can reach pays, most when it could be taken now.
func TestDamoneAllDamoni(t *testing.T) {
	handWrittenOnly(t) // the hand-written rule term; only Damone without the rule has learned weights
	v, plain := movegen.DamoneAllDamoni, movegen.Damone
	for _, c := range []struct {
		fen  string
		want int // EvaluateWhite
	}{
		{"W:WK24,20,16:BD1", -DamoneLost},
		{"B:WK24,20,16:BD1", -DamoneLost},
		{"W:WD32:BK2,K9,3,6", DamoneLost},
		{"W:WK24:BK2", -DamoneLost},
		{"B:WK24:BK2", DamoneLost},
	} {
		p := mustFENv(t, v, c.fen)
		if w := EvaluateWhite(v, &p); w != c.want {
			t.Errorf("%s: EvaluateWhite %d, want %d", c.fen, w, c.want)
		}
		if v.Lost(&p) && Evaluate(v, &p) != -DamoneLost {
			t.Errorf("%s: lost, but Evaluate %d", c.fen, Evaluate(v, &p))
		}
		if w := EvaluateWhite(plain, &p); w == c.want {
			t.Errorf("%s: plain Damone scores it %d too", c.fen, w)
		}
	}
	// One Damone against two: the lone one pays under the rule only.
	lone := mustFENv(t, v, "W:WD32,K24,20:BD1,D5,K2")
	if d := EvaluateWhite(plain, &lone) - EvaluateWhite(v, &lone); d != dmLone {
		t.Errorf("lone Damone against two: the rule costs %d, want %d", d, dmLone)
	}
	// White's lone Damone on 19 (e4) next to Black's on 15 (f5), 22 (d3)
	// behind it empty: Black's Damone could take it (and win) now; Black's
	// is safe, a Pedina on 12 (g6) behind it. The rule costs White the
	// lone Damone's dmLone plus, with Black to move, dmLoneHit, with White
	// to move dmLoneThreat (Black pays dmLone too).
	hit := mustFENv(t, v, "B:WD19,K24:BD15,K2,12")
	threat := mustFENv(t, v, "W:WD19,K24:BD15,K2,12")
	eh, et := EvaluateWhite(v, &hit), EvaluateWhite(v, &threat)
	if d := EvaluateWhite(plain, &hit) - eh; d != dmLoneHit {
		t.Errorf("lone Damone en prise, Black to move: the rule costs %d, want %d", d, dmLoneHit)
	}
	if d := EvaluateWhite(plain, &threat) - et; d != dmLoneThreat {
		t.Errorf("lone Damone threatened, White to move: the rule costs %d, want %d", d, dmLoneThreat)
	}
}

func TestTurkishDamoneAllocatesNothing(t *testing.T) {
	for _, c := range tdVariants {
		ps := append(gamesOf(c.v, 4, 200, 31), placementsOf(c.v, 100, 32)...)
		if c.v.Name == "damone" {
			ps = append(ps, withDamoni(ps, 33)...)
		}
		var sink int
		allocs := testing.AllocsPerRun(100, func() {
			for i := range ps {
				sink += Evaluate(c.v, &ps[i]) + EvaluateWhite(c.v, &ps[i]) + Material(c.v, &ps[i])
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Evaluate allocates %.1f times per run", c.label, allocs)
		}
		_ = sink
	}
}

// BenchmarkEvaluateTurkishDamone times Evaluate on a spread of positions
// from random games (start, middlegames, endgames with kings); the
// all-Damoni positions get a Damone each so that the rule's terms run.
func BenchmarkEvaluateTurkishDamone(b *testing.B) {
	for _, c := range tdVariants {
		b.Run(c.label, func(b *testing.B) {
			sel := benchPositions(c.v)
			if c.v.HasLossRule() {
				sel = withDamoni(sel, 34)
			}
			b.ReportAllocs()
			s := 0
			for i := 0; b.Loop(); i++ {
				s += Evaluate(c.v, &sel[i%len(sel)])
			}
			benchSink = s
		})
	}
}

// BenchmarkEvaluateTurkishKings times the Turkish evaluation on positions
// where both sides have kings (the fills run).
func BenchmarkEvaluateTurkishKings(b *testing.B) {
	v := movegen.Turkish
	var sel []movegen.Position
	for _, p := range placementsOf(v, 4000, 35) {
		if p.KingsOf(movegen.White) != 0 && p.KingsOf(movegen.Black) != 0 && len(sel) < 64 {
			sel = append(sel, p)
		}
	}
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += Evaluate(v, &sel[i%len(sel)])
	}
	benchSink = s
}

// TestTurkishThreatFeatures: the learned correction's threat features
// count the side to move's pieces an enemy man (forward or sideways, the
// square beyond empty) or an enemy king (from afar) could capture now.
func TestTurkishThreatFeatures(t *testing.T) {
	v := movegen.Turkish
	for _, c := range []struct {
		fen  string
		want [2]int
	}{
		{"W:Wd4:Bd5", [2]int{0, -1}},                // Black's man captures down
		{"W:Wd4,d3:Bd5", [2]int{-1, -1}},            // the square beyond is taken
		{"W:Wd4:Be4", [2]int{0, -1}},                // sideways
		{"W:Wd4:Bd3", [2]int{-1, -1}},               // a man does not capture backwards
		{"W:Wd4:BKd8", [2]int{0, -1}},               // a king from afar
		{"W:WKd4,e4,a7:BKa8,Kd8,Ke8", [2]int{1, 3}}, // two men and a king
		{"B:Wd4:Bd5", [2]int{0, -1}},                // Black to move: its own pieces
		{"B:Wd4:Bd5,d6", [2]int{-1, -1}},
		{"B:Wf5:Be5", [2]int{0, -1}}, // White's man takes sideways
	} {
		p := mustFENv(t, v, c.fen)
		if got := tkThreatFeatures(&p); got != c.want {
			t.Errorf("%s: threat features %v, want %v", c.fen, got, c.want)
		}
	}
}
