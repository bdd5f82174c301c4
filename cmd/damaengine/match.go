package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// runMatch implements "damaengine match": two Hub engines play a match
// refereed by our rules; progress goes to stderr and the last line of
// stdout is "match games=N wins=W losses=L draws=D score=S elo=E
// errorbar=B pairs=P0/P1/P2/P3/P4 pair-elo=E2 pair-errorbar=B2" from
// engine1's side: the pairs are the finished openings (both colours) by
// engine1's half points in them, and E2 ± B2 the Elo they give (the
// SPRT's measure; bench.MatchResult.Pairs). --resume counts the games its --pdn
// file already holds and plays the rest (resumePDN, bench.MatchConfig.Previous),
// once their match tags say they were played as this run plays (or have
// none, with --resume-untagged).
func runMatch(c *command, args []string) int {
	engines := c.engineFlags()
	variant := c.rulesFlag()
	games := c.Int("games", 2, "number of games (each opening is played twice, colours reversed)")
	limit := c.limitFlags()
	openings := c.String("openings", "", "opening file (JSON set, or one FEN or move sequence per line); default: the embedded set")
	concurrency := c.Int("concurrency", 1, "games played at once")
	pdnFile := c.pdnFlag("write the games to this PDN file (an existing one is overwritten, unless --resume)", false)
	resume := c.Bool("resume", false, "the --pdn file holds games of this match already: count them and play only the missing ones, appending them (a game cut off at the end of the file is dropped; a game whose tags say other engines, options, limit or max plies is refused)")
	resumeUntagged := c.Bool("resume-untagged", false, "with --resume, take games without the match tags (written by a build before them) as this match's: nothing checks their engines, options, limit and max plies")
	sprt := c.String("sprt", "", "stop early when decided: elo0,elo1")
	maxPlies := c.Int("max-plies", bench.MaxGamePlies, "adjudicate a game a draw after this many plies")
	odds := c.Float64("odds", 0, "time odds: engine1 gets this many times the limit (its nodes, move time or clock; not with --depth), e.g. 2 for what twice the time is worth")
	v, rc, ok := c.parseRules(args, variant)
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
	if *odds != 0 {
		cfg.Limit.Odds = *odds
		if err := cfg.Limit.Check(); err != nil {
			return c.fail(2, "--odds: %v", err)
		}
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
	var pdnOut io.Writer
	closePDN := func() error { return nil }
	if *resumeUntagged && !*resume {
		return c.fail(2, "--resume-untagged goes with --resume")
	}
	cfg.ResumeUntagged = *resumeUntagged
	if *resume {
		if *pdnFile.path == "" {
			return c.fail(2, "--resume needs --pdn FILE, the file of the match to resume")
		}
		var dropped int
		cfg.Previous, pdnOut, closePDN, dropped, err = resumePDN(*pdnFile.path, v)
		if err != nil {
			return c.fail(2, "--resume: %v", err)
		}
		if dropped > 0 {
			fmt.Fprintf(c.stderr, "damaengine match: --resume: dropping the unfinished game at the end of %s (%d bytes)\n", *pdnFile.path, dropped)
		}
	} else if pdnOut, closePDN, err = pdnFile.open(); err != nil {
		return c.fail(2, "%v", err)
	}
	defer closePDN()
	cfg.PDN = pdnOut
	total := *games
	cfg.Progress = func(g bench.GameRecord, r bench.MatchResult) {
		white, black := g.Names[g.White], g.Names[1-g.White]
		result := map[int]string{bench.WhiteWins: "2-0", bench.BlackWins: "0-2", bench.Draw: "1-1"}[g.Outcome]
		p := r.Pairs
		line := fmt.Sprintf("game %d/%d (%s): %s - %s %s (%s) | +%d -%d =%d score %.3f pairs %d/%d/%d/%d/%d",
			r.Games, total, g.Opening, white, black, result, g.Reason, r.Wins, r.Losses, r.Draws, r.Score(), p[0], p[1], p[2], p[3], p[4])
		if cfg.SPRT != nil {
			llr, lo, hi := cfg.SPRT.LLR(r)
			line += fmt.Sprintf(" llr %.2f [%.2f, %.2f]", llr, lo, hi)
		}
		fmt.Fprintln(c.stderr, line)
	}
	res, err := bench.Match(cfg)
	if rw, ok := pdnOut.(*resumeWriter); ok && rw.err != nil && err == nil {
		// Match does not look at what writing the PDN returns
		err = fmt.Errorf("--pdn %s: %v", *pdnFile.path, rw.err)
	}
	if errors.Is(err, bench.ErrUntagged) {
		err = fmt.Errorf("%v; --resume-untagged takes such games as this match's (played with the same engines, options, limit and max plies)", err)
	}
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
	pelo, pbar := res.PairElo()
	if math.IsInf(pbar, 0) || math.IsNaN(pbar) {
		pbar = 0
	}
	p := res.Pairs
	fmt.Fprintf(c.stdout, "match games=%d wins=%d losses=%d draws=%d score=%.3f elo=%.1f errorbar=%.1f pairs=%d/%d/%d/%d/%d pair-elo=%.1f pair-errorbar=%.1f\n",
		res.Games, res.Wins, res.Losses, res.Draws, res.Score(), elo, bar, p[0], p[1], p[2], p[3], p[4], pelo, pbar)
	if err != nil {
		return 1
	}
	return 0
}

// resumePDN reads the games of a match from its PDN file (none if there is
// no file) and opens the file for the rest: what follows the last complete
// game (pdn.Complete: a game cut off as it was written), dropped bytes of
// it, is cut from the file before the first new game is written to it, so
// nothing is changed unless a game is played (Match refuses games of
// another match before it plays one).
func resumePDN(path string, v *movegen.Variant) (prev []*pdn.Game, w io.Writer, close func() error, dropped int, err error) {
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, 0, err
	}
	text := string(b)
	keep := pdn.Complete(text)
	if strings.TrimSpace(text[keep:]) != "" {
		dropped = len(text) - keep
	}
	if prev, err = pdn.Read(strings.NewReader(text[:keep]), v); err != nil {
		return nil, nil, nil, 0, fmt.Errorf("%s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	return prev, &resumeWriter{f: f, keep: int64(keep)}, f.Close, dropped, nil
}

// resumeWriter writes to a PDN file after its first keep bytes, cutting
// the rest off at the first write; err is the first error.
type resumeWriter struct {
	f       *os.File
	keep    int64
	started bool
	err     error
}

func (r *resumeWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.started {
		r.started = true
		if r.err = r.f.Truncate(r.keep); r.err == nil {
			_, r.err = r.f.Seek(r.keep, io.SeekStart)
		}
		if r.err == nil && r.keep > 0 { // the blank line after the last kept result
			_, r.err = io.WriteString(r.f, "\n\n")
		}
		if r.err != nil {
			return 0, r.err
		}
	}
	n, err := r.f.Write(p)
	r.err = err
	return n, err
}
