package eval_test

import (
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// TestMatchTurkishDamone is the self-play sanity check of the Turkish and
// Damone evaluations: each plays the generic evaluation (which these
// variants used before) from the variant's standard openings, every
// opening twice with colours reversed, a fixed node budget per move (so the
// result does not depend on the machine's speed), fresh tables each game.
// The three variants (Turkish, Damone, Damone with the all-Damoni rule)
// play in parallel. It runs only when DAMA_EVAL_MATCH is set, and fails if
// a dedicated evaluation scores 50% or less:
//
//	DAMA_EVAL_MATCH=1 go test ./eval -run Match -v -timeout 30m
//
// DAMA_EVAL_GAMES (default 40, rounded up to even) and DAMA_EVAL_NODES
// (default 10000) change the match length and the node budget.
func TestMatchTurkishDamone(t *testing.T) {
	if os.Getenv("DAMA_EVAL_MATCH") == "" {
		t.Skip("set DAMA_EVAL_MATCH=1 to play the evaluation match")
	}
	games := 40
	if g, err := strconv.Atoi(os.Getenv("DAMA_EVAL_GAMES")); err == nil && g > 0 {
		games = g
	}
	nodes := uint64(10000)
	if n, err := strconv.ParseUint(os.Getenv("DAMA_EVAL_NODES"), 10, 64); err == nil && n > 0 {
		nodes = n
	}
	variants := []struct {
		label string
		v     *movegen.Variant
	}{
		{"turkish", movegen.Turkish},
		{"damone", movegen.Damone},
		{"damone-all-damoni", movegen.DamoneAllDamoni},
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	results := make([]bench.MatchResult, len(variants))
	errs := make([]error, len(variants))
	for i, c := range variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			all, err := bench.Openings(c.v)
			if err != nil {
				errs[i] = err
				return
			}
			n := (games + 1) / 2
			var ops []bench.Opening
			for j := 0; j < n && j < len(all); j++ {
				ops = append(ops, all[j*len(all)/n]) // spread over the whole set
			}
			full := search.New(c.v, 18)
			generic := search.New(c.v, 18)
			generic.SetEval(eval.GenericEvaluate)
			results[i] = bench.SelfPlay(c.v, ops, full, generic, search.Limits{Nodes: nodes}, func(r bench.MatchResult) {
				if r.Games%10 == 0 {
					mu.Lock()
					t.Logf("%s after %d games: +%d -%d =%d", c.label, r.Games, r.Wins, r.Losses, r.Draws)
					mu.Unlock()
				}
			})
		}()
	}
	wg.Wait()
	for i, c := range variants {
		if errs[i] != nil {
			t.Errorf("%s: %v", c.label, errs[i])
			continue
		}
		r := results[i]
		elo, bar := r.Elo()
		t.Logf("%s: own eval vs generic: games=%d wins=%d losses=%d draws=%d score=%.3f elo=%+.0f±%.0f (nodes/move %d)",
			c.label, r.Games, r.Wins, r.Losses, r.Draws, r.Score(), elo, bar, nodes)
		if r.Score() <= 0.5 {
			t.Errorf("%s: the dedicated evaluation scores %.3f against the generic one, want more than 0.5", c.label, r.Score())
		}
	}
}
