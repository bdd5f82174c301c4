package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/bench"
)

// runMatch implements "damaengine match": two Hub engines play a match
// refereed by our rules; progress goes to stderr and the last line of
// stdout is "match games=N wins=W losses=L draws=D score=S elo=E
// errorbar=B" from engine1's side.
func runMatch(c *command, args []string) int {
	engines := c.engineFlags()
	variant := c.variantFlag()
	games := c.Int("games", 2, "number of games (each opening is played twice, colours reversed)")
	limit := c.limitFlags()
	openings := c.String("openings", "", "opening file (JSON set, or one FEN or move sequence per line); default: the embedded set")
	concurrency := c.Int("concurrency", 1, "games played at once")
	pdnFile := c.pdnFlag("write the games to this PDN file", false)
	sprt := c.String("sprt", "", "stop early when decided: elo0,elo1")
	maxPlies := c.Int("max-plies", bench.MaxGamePlies, "adjudicate a game a draw after this many plies")
	v, rc, ok := c.parseVariant(args, variant)
	if !ok {
		return rc
	}
	cfg := bench.MatchConfig{Variant: v, Games: *games, Concurrency: *concurrency}
	var err error
	if cfg.Engines, err = engines.engines(); err != nil {
		return c.fail(2, "%v", err)
	}
	if cfg.Limit, err = limit.limit(); err != nil {
		return c.fail(2, "%v", err)
	}
	if *games < 1 || *concurrency < 1 || *maxPlies < 1 {
		return c.fail(2, "--games, --concurrency and --max-plies must be at least 1")
	}
	cfg.MaxPlies = *maxPlies
	if *openings != "" {
		cfg.Openings, err = bench.LoadOpenings(v, *openings)
	} else {
		cfg.Openings, err = bench.Openings(v)
	}
	if err != nil {
		return c.fail(2, "openings: %v", err)
	}
	if *sprt != "" {
		a, b, ok := strings.Cut(*sprt, ",")
		e0, err1 := strconv.ParseFloat(a, 64)
		e1, err2 := strconv.ParseFloat(b, 64)
		if !ok || err1 != nil || err2 != nil || e0 >= e1 {
			return c.fail(2, "--sprt %q: want elo0,elo1 with elo0 < elo1", *sprt)
		}
		cfg.SPRT = &bench.SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05}
	}
	pdnOut, closePDN, err := pdnFile.open()
	if err != nil {
		return c.fail(2, "%v", err)
	}
	defer closePDN()
	cfg.PDN = pdnOut
	total := *games
	cfg.Progress = func(g bench.GameRecord, r bench.MatchResult) {
		white, black := g.Names[g.White], g.Names[1-g.White]
		result := map[int]string{bench.WhiteWins: "2-0", bench.BlackWins: "0-2", bench.Draw: "1-1"}[g.Outcome]
		line := fmt.Sprintf("game %d/%d (%s): %s - %s %s (%s) | +%d -%d =%d score %.3f",
			r.Games, total, g.Opening, white, black, result, g.Reason, r.Wins, r.Losses, r.Draws, r.Score())
		if cfg.SPRT != nil {
			llr, lo, hi := cfg.SPRT.LLR(r)
			line += fmt.Sprintf(" llr %.2f [%.2f, %.2f]", llr, lo, hi)
		}
		fmt.Fprintln(c.stderr, line)
	}
	res, err := bench.Match(cfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "damaengine match: %v\n", err)
		if res.Games == 0 {
			return 1
		}
	}
	elo, bar := res.Elo()
	if math.IsInf(bar, 0) || math.IsNaN(bar) {
		bar = 0
	}
	fmt.Fprintf(c.stdout, "match games=%d wins=%d losses=%d draws=%d score=%.3f elo=%.1f errorbar=%.1f\n",
		res.Games, res.Wins, res.Losses, res.Draws, res.Score(), elo, bar)
	if err != nil {
		return 1
	}
	return 0
}
