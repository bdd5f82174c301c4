package movegen

import (
	"math/rand/v2"
	"testing"
)

// HasMove answers as Count(p) > 0 does, HasCapture as the list of legal
// moves does, Jumpers holds every listed capture's origin and is empty
// when there is none, and Taken is the union of their captured pieces
// (for either side), on the positions of random games in every variant
// (played to their end, so positions without a move are among them) and
// on random boards.
func TestHasMoveEqualsCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	var ml, scratch MoveList
	for _, v := range Variants() {
		none := 0
		check := func(p *Position) {
			want := v.Count(p, &scratch) > 0
			if got := v.HasMove(p, &scratch); got != want {
				t.Fatalf("%s %s: HasMove %v, Count %d", v.Name, v.FEN(p), got, v.Count(p, &scratch))
			}
			if !want {
				none++
			}
			var cl MoveList
			v.Generate(p, &cl)
			if got, want := v.HasCapture(p), cl.N > 0 && cl.Moves[0].Captured != 0; got != want {
				t.Fatalf("%s %s: HasCapture %v, captures listed %v", v.Name, v.FEN(p), got, want)
			}
			// Jumpers of the side to move: empty exactly when there is no
			// capture, and holding every listed capture's origin; of the
			// other side, the same with the turn passed.
			from := uint64(0)
			if cl.N > 0 && cl.Moves[0].Captured != 0 {
				for _, m := range cl.Moves[:cl.N] {
					from |= 1 << m.From
				}
			}
			if j := v.Jumpers(p, p.Side); (j != 0) != (from != 0) || from&^j != 0 {
				t.Fatalf("%s %s: Jumpers %#x, captures from %#x", v.Name, v.FEN(p), j, from)
			}
			// Taken: the union of the listed captures' captured pieces,
			// for either side.
			for _, c := range []Color{White, Black} {
				q := *p
				q.Side = c
				var tl MoveList
				v.Generate(&q, &tl)
				want := uint64(0)
				if tl.N > 0 && tl.Moves[0].Captured != 0 {
					for _, m := range tl.Moves[:tl.N] {
						want |= m.Captured
					}
				}
				if got := v.Taken(p, c, v.Jumpers(p, c)); got != want {
					t.Fatalf("%s %s: Taken by %v %#x, the captures take %#x", v.Name, v.FEN(p), c, got, want)
				}
			}
			q := *p
			q.Side ^= 1
			if v.Jumpers(p, q.Side) != v.Jumpers(&q, q.Side) || (v.Jumpers(p, q.Side) != 0) != v.HasCapture(&q) {
				t.Fatalf("%s %s: Jumpers of the side not to move %#x, HasCapture with the turn passed %v", v.Name, v.FEN(p), v.Jumpers(p, q.Side), v.HasCapture(&q))
			}
		}
		for g := 0; g < 60; g++ {
			p := v.Start()
			for ply := 0; ply < 400; ply++ {
				check(&p)
				v.Generate(&p, &ml)
				if ml.N == 0 {
					break
				}
				p.Play(ml.Moves[rng.IntN(ml.N)])
			}
		}
		// Sparse random boards: few pieces, often blocked.
		board := v.Board()
		for i := 0; i < 3000; i++ {
			var q Position
			for n := rng.IntN(6) + 1; n > 0; n-- {
				b := rng.IntN(64)
				if board>>b&1 == 0 || (q.Pieces[0]|q.Pieces[1])>>b&1 != 0 {
					continue
				}
				c := Color(rng.IntN(2))
				if v.CrownRank(c)&(1<<b) != 0 || rng.IntN(3) == 0 {
					q.Kings |= 1 << b
				}
				q.Pieces[c] |= 1 << b
			}
			q.Side = Color(rng.IntN(2))
			if q.Pieces[q.Side] == 0 || v.HasLossRule() {
				continue
			}
			check(&q)
		}
		if none == 0 {
			t.Errorf("%s: no position without a move was checked", v.Name)
		}
	}
}

// KeyAfter(m) is the key Play(m) sets, for every move of the positions
// of random games in every variant (Damone's Damoni and promotions
// included).
func TestKeyAfter(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	var ml MoveList
	moves := 0
	for _, v := range Variants() {
		for g := 0; g < 40; g++ {
			p := v.Start()
			for ply := 0; ply < 300; ply++ {
				v.Generate(&p, &ml)
				if ml.N == 0 {
					break
				}
				for _, m := range ml.Slice() {
					c := p
					c.Play(m)
					if got := p.KeyAfter(m); got != c.Key {
						t.Fatalf("%s %s, %s: KeyAfter %#x, Play's key %#x", v.Name, v.FEN(&p), v.FormatMove(&p, m), got, c.Key)
					}
					moves++
				}
				p.Play(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
	if moves < 100000 {
		t.Errorf("only %d moves checked", moves)
	}
}
