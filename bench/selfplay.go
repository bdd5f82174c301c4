package bench

import (
	"math"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Outcome of a game from White's point of view.
const (
	WhiteWins = 1
	Draw      = 0
	BlackWins = -1
)

// MaxGamePlies ends a game as a draw when it runs this long.
const MaxGamePlies = 400

// PlayGame plays one game from start between two engines, each move under
// lim, refereed by the rules (Referee). It returns the outcome and the
// number of plies played.
func PlayGame(v *movegen.Variant, start movegen.Position, white, black *search.Engine, lim search.Limits) (int, int) {
	return Referee(v, start, func(g *movegen.Game) movegen.Move {
		eng := white
		if g.Position().Side == movegen.Black {
			eng = black
		}
		res := eng.Search(search.NewControl(false), search.GameOf(g), lim, nil)
		if !res.HasMove {
			panic("bench: engine returned no move")
		}
		return res.Move
	})
}

// MatchResult counts a match from the first engine's side.
type MatchResult struct {
	Games, Wins, Losses, Draws int
	// Pairs counts the finished pairs of games, an opening played with
	// each colour (a match's games 2k-1 and 2k), by the first engine's
	// points in the two: Pairs[h] is the pairs in which it scored h half
	// points (0: lost both, 2: two draws or a win and a loss, 4: won
	// both). The five counts are the pentanomial the SPRT and PairElo
	// use: from openings that favour one side, a pair's two games pull
	// opposite ways, and scoring the pair as one draw is what the
	// per-game counts cannot see.
	Pairs [5]int
}

// PairCount returns the number of finished pairs in r.Pairs.
func (r MatchResult) PairCount() int {
	n := 0
	for _, c := range r.Pairs {
		n += c
	}
	return n
}

// pairStats returns the mean and the variance of a pair's score (its two
// games' points over two: 0, 1/4, 1/2, 3/4 or 1) over counts c, which may
// hold a prior's fractions.
func pairStats(c [5]float64) (mean, variance float64) {
	n := 0.0
	for h, k := range c {
		n += k
		mean += k * float64(h) / 4
	}
	if n == 0 {
		return 0.5, 0
	}
	mean /= n
	for h, k := range c {
		d := float64(h)/4 - mean
		variance += k * d * d
	}
	return mean, variance / n
}

// PairElo returns the Elo difference implied by the finished pairs' score
// and its 95% error bar from the variance of a pair's score (infinite
// with fewer than two pairs, 0 when every pair scored the same). From the embedded
// openings it is about Elo's; from less even ones the bar is the
// narrower and the truer of the two.
func (r MatchResult) PairElo() (elo, errorBar float64) {
	n := r.PairCount()
	if n < 2 {
		return 0, math.Inf(1)
	}
	var c [5]float64
	for h, k := range r.Pairs {
		c[h] = float64(k)
	}
	m, variance := pairStats(c)
	sd := math.Sqrt(variance / float64(n))
	return eloOf(m), (eloOf(m+1.96*sd) - eloOf(m-1.96*sd)) / 2
}

// eloOf is the Elo difference of a score fraction x (clamped off 0 and 1).
func eloOf(x float64) float64 {
	x = math.Min(math.Max(x, 1e-6), 1-1e-6)
	return -400 * math.Log10(1/x-1)
}

// Score returns the first engine's score fraction.
func (r MatchResult) Score() float64 {
	if r.Games == 0 {
		return 0.5
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
}

// Elo returns the Elo difference implied by the score and its 95% error
// bar (from the per-game score variance; the bar is infinite with fewer
// than two games, 0 when every game ended the same way).
func (r MatchResult) Elo() (elo, errorBar float64) {
	n := float64(r.Games)
	if r.Games < 2 {
		return 0, math.Inf(1)
	}
	s := r.Score()
	w, d, l := float64(r.Wins)/n, float64(r.Draws)/n, float64(r.Losses)/n
	variance := w*(1-s)*(1-s) + d*(0.5-s)*(0.5-s) + l*(0-s)*(0-s)
	sd := math.Sqrt(variance / n)
	return eloOf(s), (eloOf(s+1.96*sd) - eloOf(s-1.96*sd)) / 2
}

// SelfPlay plays each opening twice, colours reversed, between engines a
// and b (fresh tables each game) and returns the result from a's side.
// progress, if not nil, is called after each game.
func SelfPlay(v *movegen.Variant, openings []Opening, a, b *search.Engine, lim search.Limits, progress func(MatchResult)) MatchResult {
	var t tally
	for i, o := range openings {
		for round := 0; round < 2; round++ {
			a.NewGame()
			b.NewGame()
			white, black, sign := a, b, 1
			if round == 1 {
				white, black, sign = b, a, -1
			}
			out, _ := PlayGame(v, o.Pos, white, black, lim)
			t.add(2*i+round+1, out*sign)
			if progress != nil {
				progress(t.res)
			}
		}
	}
	return t.res
}
