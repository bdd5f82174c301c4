package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
)

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// runMatch implements "damaengine match": two Hub engines play a match
// refereed by our rules; progress goes to stderr and the last line of
// stdout is "match games=N wins=W losses=L draws=D score=S elo=E
// errorbar=B" from engine1's side.
func runMatch(args []string, stdout, stderr io.Writer) int {
	c := newCommand("match", `damaengine match --engine1 "CMD ARGS" --engine2 "CMD ARGS" (--depth D | --nodes N | --movetime S | --tc BASE+INC) ...`, stdout, stderr)
	e1 := c.String("engine1", "", "first engine command line")
	e2 := c.String("engine2", "", "second engine command line")
	variant := c.variantFlag()
	games := c.Int("games", 2, "number of games (each opening is played twice, colours reversed)")
	depth := c.Int("depth", 0, "limit: depth per move")
	nodes := c.Uint64("nodes", 0, "limit: nodes per move")
	movetime := c.Float64("movetime", 0, "limit: seconds per move")
	tc := c.String("tc", "", "limit: clock BASE+INC in seconds, e.g. 10+0.1")
	openings := c.String("openings", "", "opening file (JSON set, or one FEN or move sequence per line); default: the embedded set")
	concurrency := c.Int("concurrency", 1, "games played at once")
	pdnFile := c.String("pdn", "", "write the games to this PDN file")
	sprt := c.String("sprt", "", "stop early when decided: elo0,elo1")
	var options listFlag
	c.Var(&options, "engine-option", "NAME=VALUE set on both engines (repeatable)")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "damaengine match: "+format+"\n", a...)
		return 2
	}
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	v, err := movegen.Lookup(*variant)
	if err != nil {
		return fail("%v", err)
	}
	cfg := bench.MatchConfig{Variant: v, Games: *games, Concurrency: *concurrency}
	for i, c := range []string{*e1, *e2} {
		words, err := bench.SplitCommand(c)
		if err != nil {
			return fail("--engine%d: %v", i+1, err)
		}
		cfg.Engines[i].Command = words
	}
	for _, o := range options {
		name, value, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return fail("--engine-option %q: want NAME=VALUE", o)
		}
		for i := range cfg.Engines {
			cfg.Engines[i].Options = append(cfg.Engines[i].Options, [2]string{name, value})
		}
	}
	limits := 0
	if *depth > 0 {
		cfg.Limit.Depth = *depth
		limits++
	}
	if *nodes > 0 {
		cfg.Limit.Nodes = *nodes
		limits++
	}
	if *movetime > 0 {
		cfg.Limit.MoveTime = time.Duration(*movetime * float64(time.Second))
		limits++
	}
	if *tc != "" {
		base, inc, ok := strings.Cut(*tc, "+")
		b, err1 := strconv.ParseFloat(base, 64)
		var in float64
		var err2 error
		if ok {
			in, err2 = strconv.ParseFloat(inc, 64)
		}
		if err1 != nil || err2 != nil || b <= 0 || in < 0 {
			return fail("--tc %q: want BASE+INC in seconds, e.g. 10+0.1", *tc)
		}
		cfg.Limit.Base = time.Duration(b * float64(time.Second))
		cfg.Limit.Inc = time.Duration(in * float64(time.Second))
		limits++
	}
	if limits != 1 {
		return fail("give exactly one limit: --depth, --nodes, --movetime or --tc")
	}
	if *games < 1 || *concurrency < 1 {
		return fail("--games and --concurrency must be at least 1")
	}
	if *openings != "" {
		cfg.Openings, err = bench.LoadOpenings(v, *openings)
	} else {
		cfg.Openings, err = bench.Openings(v)
	}
	if err != nil {
		return fail("openings: %v", err)
	}
	if *sprt != "" {
		a, b, ok := strings.Cut(*sprt, ",")
		e0, err1 := strconv.ParseFloat(a, 64)
		e1, err2 := strconv.ParseFloat(b, 64)
		if !ok || err1 != nil || err2 != nil || e0 >= e1 {
			return fail("--sprt %q: want elo0,elo1 with elo0 < elo1", *sprt)
		}
		cfg.SPRT = &bench.SPRT{Elo0: e0, Elo1: e1, Alpha: 0.05, Beta: 0.05}
	}
	if *pdnFile != "" {
		f, err := os.Create(*pdnFile)
		if err != nil {
			return fail("--pdn: %v", err)
		}
		defer f.Close()
		cfg.PDN = f
	}
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
		fmt.Fprintln(stderr, line)
	}
	res, err := bench.Match(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "damaengine match: %v\n", err)
		if res.Games == 0 {
			return 1
		}
	}
	elo, bar := res.Elo()
	if math.IsInf(bar, 0) || math.IsNaN(bar) {
		bar = 0
	}
	fmt.Fprintf(stdout, "match games=%d wins=%d losses=%d draws=%d score=%.3f elo=%.1f errorbar=%.1f\n",
		res.Games, res.Wins, res.Losses, res.Draws, res.Score(), elo, bar)
	if err != nil {
		return 1
	}
	return 0
}
