package bench

import (
	"os"
	"strconv"
	"testing"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

func TestOpenings(t *testing.T) {
	os, err := Openings(movegen.Italian)
	if err != nil {
		t.Fatal(err)
	}
	if len(os) != 2400 {
		t.Errorf("%d Italian openings, want 2400", len(os))
	}
	var ml movegen.MoveList
	for _, o := range os {
		if movegen.Italian.Generate(&o.Pos, &ml); ml.N == 0 {
			t.Errorf("opening %s has no move", o.Name)
		}
	}
}

func TestPlayGameEnds(t *testing.T) {
	v := movegen.Italian
	a := search.New(v, 16)
	lim := search.Limits{Nodes: 2000}
	p, err := v.ParseFEN("W:WK13,K14,K15:B1")
	if err != nil {
		t.Fatal(err)
	}
	out, plies := PlayGame(v, p, a, a, lim)
	if out != WhiteWins {
		t.Errorf("three kings against a lone man: outcome %d after %d plies", out, plies)
	}
	p, _ = v.ParseFEN("W:WK29:BK4") // both kings in double corners
	if out, plies := PlayGame(v, p, a, a, lim); out != Draw || plies > MaxGamePlies {
		t.Errorf("king against king: outcome %d after %d plies", out, plies)
	}
}

func TestEloFormula(t *testing.T) {
	r := MatchResult{Games: 100, Wins: 30, Losses: 20, Draws: 50}
	elo, bar := r.Elo()
	if elo < 34 || elo > 36 || bar < 30 || bar > 60 {
		t.Errorf("elo %.1f ± %.1f for 55%% over 100 games", elo, bar)
	}
}

// TestSelfPlayEval is the evaluation sanity match of docs/testing.md: the
// full Italian evaluation against material only, each opening played twice
// with colours reversed, a fixed node budget per move (so the result does
// not depend on the machine's speed). It runs only when DAMA_SELFPLAY names
// the number of openings:
//
//	DAMA_SELFPLAY=100 go test ./bench -run SelfPlayEval -v -timeout 60m
func TestSelfPlayEval(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DAMA_SELFPLAY"))
	if n <= 0 {
		t.Skip("set DAMA_SELFPLAY=<openings> to run the self-play match")
	}
	nodes := uint64(20000)
	if s, err := strconv.ParseUint(os.Getenv("DAMA_NODES"), 10, 64); err == nil && s > 0 {
		nodes = s
	}
	v := movegen.Italian
	all, err := Openings(v)
	if err != nil {
		t.Fatal(err)
	}
	// Spread the chosen openings over the whole set.
	var ops []Opening
	for i := 0; i < n && i < len(all); i++ {
		ops = append(ops, all[i*len(all)/n])
	}
	full := search.New(v, 18)
	simple := search.New(v, 18)
	simple.SetEval(eval.Material)
	r := SelfPlay(v, ops, full, simple, search.Limits{Nodes: nodes}, func(r MatchResult) {
		if r.Games%20 == 0 {
			t.Logf("after %d games: +%d -%d =%d", r.Games, r.Wins, r.Losses, r.Draws)
		}
	})
	elo, bar := r.Elo()
	t.Logf("full eval vs material: games=%d wins=%d losses=%d draws=%d score=%.3f elo=%.0f errorbar=%.0f (nodes/move %d)",
		r.Games, r.Wins, r.Losses, r.Draws, r.Score(), elo, bar, nodes)
	if r.Score() <= 0.5 {
		t.Errorf("the full evaluation does not beat material only")
	}
}

// TestSelfPlayPairs: SelfPlay counts each opening's two games as a pair,
// the pairs' half points adding up to the games' points.
func TestSelfPlayPairs(t *testing.T) {
	v := movegen.Italian
	ops, err := Openings(v)
	if err != nil {
		t.Fatal(err)
	}
	a, b := search.New(v, 16), search.New(v, 16)
	b.SetEval(eval.Material)
	r := SelfPlay(v, ops[:2], a, b, search.Limits{Nodes: 300}, nil)
	if r.Games != 4 || r.PairCount() != 2 {
		t.Fatalf("%d games, %d pairs; want 4 and 2", r.Games, r.PairCount())
	}
	halves := 0
	for h, k := range r.Pairs {
		halves += h * k
	}
	if want := 2*r.Wins + r.Draws; halves != want {
		t.Errorf("pairs %v hold %d half points, the games %d", r.Pairs, halves, want)
	}
}
