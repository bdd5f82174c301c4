package bench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// Limit is the thinking limit of every move of a match: one of a depth, a
// node count, a fixed time per move, or a clock (Base for the game plus
// Inc per move).
type Limit struct {
	Depth     int
	Nodes     uint64
	MoveTime  time.Duration
	Base, Inc time.Duration
	// Odds, when set (neither 0 nor 1), gives the first engine of a match
	// Odds times the limit: its nodes, its move time, or its clock's base
	// and increment (never a depth). A time-odds match says what more
	// time is worth: Odds 2 plays twice the time against once.
	Odds float64
}

// hasOdds reports whether l gives its first engine odds.
func (l Limit) hasOdds() bool { return l.Odds != 0 && l.Odds != 1 }

// Check says why l cannot be played (odds that are not a factor, or
// odds on a depth), or nil.
func (l Limit) Check() error {
	if !l.hasOdds() {
		return nil
	}
	if math.IsNaN(l.Odds) || math.IsInf(l.Odds, 0) || l.Odds <= 0 || l.Odds > 1000 {
		return fmt.Errorf("odds %v: want a factor above 0 and at most 1000", l.Odds)
	}
	if l.Depth > 0 {
		return errors.New("odds apply to nodes, a move time or a clock, not to a depth")
	}
	return nil
}

// ForEngine returns the limit engine i of a match (0: the first) plays
// under, without odds: the first engine's scaled by Odds, the second's
// as it is.
func (l Limit) ForEngine(i int) Limit {
	s := l
	s.Odds = 0
	if i != 0 || !l.hasOdds() {
		return s
	}
	if l.Nodes > 0 {
		s.Nodes = max(1, uint64(math.Round(float64(l.Nodes)*l.Odds)))
	}
	scale := func(d time.Duration) time.Duration { return time.Duration(math.Round(float64(d) * l.Odds)) }
	s.MoveTime, s.Base, s.Inc = scale(l.MoveTime), scale(l.Base), scale(l.Inc)
	return s
}

// level returns the Hub level line for a move with clock left on the
// mover's side.
func (l Limit) level(clock time.Duration) string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }
	switch {
	case l.Depth > 0:
		return "level depth=" + strconv.Itoa(l.Depth)
	case l.Nodes > 0:
		return "level nodes=" + strconv.FormatUint(l.Nodes, 10)
	case l.MoveTime > 0:
		return "level move-time=" + secs(l.MoveTime)
	}
	return "level time=" + secs(clock) + " inc=" + secs(l.Inc)
}

// String is the limit as one canonical word, what the Limit tag of a
// match's games says: "depth=D", "nodes=N", "movetime=S" or "tc=BASE+INC"
// (seconds, as short as they print).
func (l Limit) String() string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	switch {
	case l.Depth > 0:
		return "depth=" + strconv.Itoa(l.Depth)
	case l.Nodes > 0:
		return "nodes=" + strconv.FormatUint(l.Nodes, 10) + l.oddsWord()
	case l.MoveTime > 0:
		return "movetime=" + secs(l.MoveTime) + l.oddsWord()
	}
	return "tc=" + secs(l.Base) + "+" + secs(l.Inc) + l.oddsWord()
}

// oddsWord is what String adds for odds: " odds=F", or "".
func (l Limit) oddsWord() string {
	if !l.hasOdds() {
		return ""
	}
	return " odds=" + strconv.FormatFloat(l.Odds, 'f', -1, 64)
}

// wait returns how long to wait for an answer before calling the engine
// silent.
func (l Limit) wait(clock time.Duration) time.Duration {
	switch {
	case l.Depth > 0 || l.Nodes > 0:
		return 120 * time.Second
	case l.MoveTime > 0:
		return 5*l.MoveTime + 2*time.Second
	}
	return clock + 2*time.Second
}

// SPRT is a sequential probability ratio test: stop as soon as the
// result says engine1 is Elo1 stronger (accept) or only Elo0 (reject),
// with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// LLR returns the log-likelihood ratio of the result, and the two bounds.
// Once r has a finished pair of games (MatchResult.Pairs) it is the
// pentanomial normal approximation over the pairs, as a match of paired
// openings should be read: each pair is one observation, its score the
// mean of its two games, so the games of a pair that cancel (an opening
// won by whoever has the good side) count as the draw they are and not as
// two decided games. Without pairs (results counted game by game) it is
// the trinomial approximation over the games.
func (s SPRT) LLR(r MatchResult) (llr, lower, upper float64) {
	lower = math.Log(s.Beta / (1 - s.Alpha))
	upper = math.Log((1 - s.Beta) / s.Alpha)
	s0 := 1 / (1 + math.Pow(10, -s.Elo0/400))
	s1 := 1 / (1 + math.Pow(10, -s.Elo1/400))
	if n := r.PairCount(); n > 0 {
		// The same prior as below, in pairs: half a pair lost twice, one
		// pair even, half a pair won twice.
		c := [5]float64{0.5, 0, 1, 0, 0.5}
		for h, k := range r.Pairs {
			c[h] += float64(k)
		}
		m, variance := pairStats(c)
		return float64(n) * (s1 - s0) * (2*m - s0 - s1) / (2 * variance), lower, upper
	}
	if r.Games == 0 {
		return 0, lower, upper
	}
	// A small prior (half a win, half a loss and a draw) keeps the variance
	// positive when every game ends the same way.
	n := float64(r.Games) + 2
	w, d, l := (float64(r.Wins)+0.5)/n, (float64(r.Draws)+1)/n, (float64(r.Losses)+0.5)/n
	m := w + d/2
	variance := w*(1-m)*(1-m) + d*(0.5-m)*(0.5-m) + l*m*m
	if variance <= 0 {
		return 0, lower, upper
	}
	return float64(r.Games) * (s1 - s0) * (2*m - s0 - s1) / (2 * variance), lower, upper
}

// MatchConfig describes a match between two Hub engines.
type MatchConfig struct {
	Variant     *movegen.Variant
	Engines     [2]EngineSpec
	Games       int
	Limit       Limit
	Openings    []Opening
	Concurrency int
	PDN         io.Writer
	SPRT        *SPRT
	// MaxPlies adjudicates a game a draw once it has run this many plies
	// (from its opening position); 0 means MaxGamePlies.
	MaxPlies int
	// Progress, if set, is called after each game with its record and the
	// running result.
	Progress func(GameRecord, MatchResult)
	// Previous holds games of this match played before (read back from its
	// PDN to resume it). Match checks that each belongs to this match (the
	// variant, the match tags, the engines' names in their colours for its
	// Round, the opening of that round) and refuses them otherwise; it
	// counts them, in their order, into the result (calling Progress and the
	// SPRT test as if it had just played them, but writing nothing to PDN)
	// and plays only the missing game numbers.
	Previous []*pdn.Game
	// ResumeUntagged takes games of Previous that have none of the match
	// tags (written before there were any) as this match's without them;
	// otherwise such a game is refused with ErrUntagged.
	ResumeUntagged bool
}

// The match tags are written into every game of a match and say what
// the match is, beyond the variant and the opening of each game: the
// engines' command lines (SplitCommand's words, quoted back as needed)
// and the options set on each, the Limit and the MaxPlies. A game of
// Previous must have the same.
var matchTagNames = []string{"Engine1", "Engine1Options", "Engine2", "Engine2Options", "Limit", "MaxPlies"}

// ErrUntagged is the error of a previous game that has none of the match
// tags (see MatchConfig.ResumeUntagged).
var ErrUntagged = errors.New("the PDN predates the match tags")

// matchTags returns the match tags of cfg's games, in matchTagNames' order.
func (cfg *MatchConfig) matchTags() [][2]string {
	var tags [][2]string
	for i, e := range cfg.Engines {
		var opts []string
		for _, o := range e.Options {
			opts = append(opts, o[0]+"="+o[1])
		}
		n := strconv.Itoa(i + 1)
		tags = append(tags, [2]string{"Engine" + n, joinCommand(e.Command)}, [2]string{"Engine" + n + "Options", joinCommand(opts)})
	}
	maxPlies := cfg.MaxPlies
	if maxPlies <= 0 {
		maxPlies = MaxGamePlies
	}
	tags = append(tags, [2]string{"Limit", cfg.Limit.String()}, [2]string{"MaxPlies", strconv.Itoa(maxPlies)})
	if r := rulesTag(cfg.Variant); r != "" {
		tags = append(tags, [2]string{"Rules", r})
	}
	return tags
}

// rulesTag is the Rules tag of v's games: its rule set's name where that
// is not the variant's (Damone with the all-Damoni rule, whose PDN
// GameType is Damone's), else "" (no tag).
func rulesTag(v *movegen.Variant) string {
	if r := v.RulesName(); r != v.Name {
		return r
	}
	return ""
}

// checkMatchTags checks that g, round n, has the match tags tags, or (if
// untagged games are taken) none of them.
func checkMatchTags(cfg *MatchConfig, g *pdn.Game, n int, tags [][2]string) error {
	has := make(map[string]bool)
	for _, t := range g.Tags {
		has[t[0]] = true
	}
	untagged := true
	for _, name := range matchTagNames {
		untagged = untagged && !has[name]
	}
	if untagged {
		if cfg.ResumeUntagged {
			return nil
		}
		return fmt.Errorf("resume: round %d has none of the tags %s (%w): nothing says it was played with this match's engines, options and limit",
			n, strings.Join(matchTagNames, ", "), ErrUntagged)
	}
	for _, t := range tags {
		if !has[t[0]] {
			return fmt.Errorf("resume: round %d has no %s tag, this match %s %q", n, t[0], t[0], t[1])
		}
		if v := g.Tag(t[0]); v != t[1] {
			return fmt.Errorf("resume: round %d has %s %q, this match %q", n, t[0], v, t[1])
		}
	}
	return nil
}

// GameRecord is one finished game of a match.
type GameRecord struct {
	Number  int
	Opening string
	White   int // index of the engine playing White (0: engine1)
	Outcome int // from White's side
	Reason  string
	Plies   int
	Names   [2]string
	Game    *pdn.Game
}

// Match plays the match and returns the result from engine1's side. Each
// opening is played twice, colours reversed. The runner referees: it
// checks every move against the rules, adjudicates the end, and scores a
// crash, an illegal move, a silent engine or a lost clock as a loss.
func Match(cfg MatchConfig) (MatchResult, error) {
	if err := cfg.Limit.Check(); err != nil {
		return MatchResult{}, err
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{Name: "start", Pos: cfg.Variant.Start()}}
	}
	k := max(cfg.Concurrency, 1)
	jobs := make(chan int)
	var mu sync.Mutex
	var t tally
	var firstErr error
	stopped := false
	// count adds a finished game to the result and tells Progress; the
	// SPRT test may stop the match.
	count := func(rec GameRecord) {
		score := rec.Outcome
		if rec.White == 1 {
			score = -score
		}
		t.add(rec.Number, score)
		res := t.res
		if cfg.Progress != nil {
			cfg.Progress(rec, res)
		}
		if cfg.SPRT != nil {
			llr, lo, hi := cfg.SPRT.LLR(res)
			if llr <= lo || llr >= hi {
				stopped = true
			}
		}
	}
	pool := make([][2]*hubEngine, k) // each worker's engines
	done := make(map[int]bool)       // game numbers (from 0) played before
	if len(cfg.Previous) > 0 {
		// The names to check the games against are the engines' own: start
		// the first worker's now.
		for i := range pool[0] {
			e, err := startEngine(cfg.Engines[i], cfg.Variant)
			if err == nil {
				pool[0][i] = e
				continue
			}
			quitAll(pool[0])
			return t.res, err
		}
		recs, err := previousGames(&cfg, [2]string{pool[0][0].name, pool[0][1].name})
		if err != nil {
			quitAll(pool[0])
			return t.res, err
		}
		for _, rec := range recs {
			done[rec.Number-1] = true
			count(rec)
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < k; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			engines := pool[w]
			defer func() { quitAll(engines) }()
			for n := range jobs {
				rec, err := playMatchGame(&cfg, n, &engines)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					if cfg.PDN != nil {
						pdn.Write(cfg.PDN, rec.Game)
					}
					count(rec)
				}
				mu.Unlock()
			}
		}()
	}
	for n := 0; n < cfg.Games; n++ {
		if done[n] {
			continue
		}
		mu.Lock()
		stop := stopped || firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	return t.res, firstErr
}

// tally counts a match's finished games, in whatever order they finish,
// into a MatchResult, and each pair of them (an opening's two games,
// numbers 2k-1 and 2k) into its Pairs once both are in.
type tally struct {
	res MatchResult
	// half holds engine1's half points in the finished game of each pair
	// (by k) whose other game is still to come.
	half map[int]int
}

// add counts game number (from 1), which engine1 won (score 1), drew
// (0) or lost (-1).
func (t *tally) add(number, score int) {
	if t.half == nil {
		t.half = make(map[int]int)
	}
	t.res.Games++
	switch score {
	case 1:
		t.res.Wins++
	case -1:
		t.res.Losses++
	default:
		t.res.Draws++
	}
	k := (number - 1) / 2
	if h, ok := t.half[k]; ok {
		t.res.Pairs[h+score+1]++
		delete(t.half, k)
	} else {
		t.half[k] = score + 1
	}
}

func quitAll(engines [2]*hubEngine) {
	for _, e := range engines {
		if e != nil {
			e.quit()
		}
	}
}

// previousGames checks that cfg.Previous are games of this match, whose
// engines are named names, and returns their records; the error names the
// first game that is not.
func previousGames(cfg *MatchConfig, names [2]string) ([]GameRecord, error) {
	var recs []GameRecord
	seen := make(map[int]bool)
	tags := cfg.matchTags()
	for i, g := range cfg.Previous {
		n, err := strconv.Atoi(g.Tag("Round"))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("resume: game %d of the PDN has Round %q, not a game number of a match", i+1, g.Tag("Round"))
		}
		switch {
		case n > cfg.Games:
			return nil, fmt.Errorf("resume: round %d is beyond the %d games of this match", n, cfg.Games)
		case seen[n]:
			return nil, fmt.Errorf("resume: round %d is in the PDN twice", n)
		case g.Variant.Name != cfg.Variant.Name:
			return nil, fmt.Errorf("resume: round %d is %s, this match plays %s", n, g.Variant.Name, cfg.Variant.Name)
		case g.Tag("Rules") != rulesTag(cfg.Variant):
			// The match tags check the Rules tag a match writes; this
			// also refuses one that a default-rules match does not write.
			return nil, fmt.Errorf("resume: round %d has Rules %q, this match plays %s", n, g.Tag("Rules"), cfg.Variant.RulesName())
		}
		seen[n] = true
		if err := checkMatchTags(cfg, g, n, tags); err != nil {
			return nil, err
		}
		white := (n - 1) % 2
		if w, b := g.Tag("White"), g.Tag("Black"); w != names[white] || b != names[1-white] {
			return nil, fmt.Errorf("resume: round %d has White %q and Black %q, this match %q and %q", n, w, b, names[white], names[1-white])
		}
		op := cfg.Openings[((n-1)/2)%len(cfg.Openings)]
		if g.Tag("Opening") != op.Name || g.Start != op.Pos {
			v := cfg.Variant
			return nil, fmt.Errorf("resume: round %d starts from opening %q (%s), this match from %q (%s)",
				n, g.Tag("Opening"), v.FEN(&g.Start), op.Name, v.FEN(&op.Pos))
		}
		outcome, ok := map[string]int{pdn.WhiteWins: WhiteWins, pdn.BlackWins: BlackWins, pdn.DrawResult: Draw}[g.Result]
		if !ok {
			return nil, fmt.Errorf("resume: round %d has result %q", n, g.Result)
		}
		recs = append(recs, GameRecord{Number: n, Opening: op.Name, White: white, Outcome: outcome,
			Reason: g.Comment, Plies: len(g.Moves), Names: names, Game: g})
	}
	return recs, nil
}

// playMatchGame plays game n with the worker's engines, (re)starting any
// that is missing. An error means an engine could not be started at all.
func playMatchGame(cfg *MatchConfig, n int, engines *[2]*hubEngine) (GameRecord, error) {
	v := cfg.Variant
	for i := range engines {
		if engines[i] == nil {
			e, err := startEngine(cfg.Engines[i], v)
			if err != nil {
				return GameRecord{}, err
			}
			engines[i] = e
		}
		engines[i].send("new-game")
	}
	op := cfg.Openings[(n/2)%len(cfg.Openings)]
	rec := GameRecord{Number: n + 1, Opening: op.Name, White: n % 2}
	rec.Names = [2]string{engines[0].name, engines[1].name}
	sides := [2]int{rec.White, 1 - rec.White} // engine index playing White, Black
	g := &pdn.Game{Variant: v, Start: op.Pos}
	g.SetTag("Event", "damaengine match")
	g.SetTag("Round", strconv.Itoa(n+1))
	g.SetTag("White", rec.Names[sides[0]])
	g.SetTag("Black", rec.Names[sides[1]])
	g.SetTag("Opening", op.Name)
	for _, t := range cfg.matchTags() {
		g.SetTag(t[0], t[1])
	}
	rec.Game = g
	start := op.Pos
	startText := v.FEN(&start)
	if v.HasHubString() {
		startText = v.Hub(&start)
	}
	// Each colour's limit: the engine playing it may have odds.
	lims := [2]Limit{cfg.Limit.ForEngine(sides[0]), cfg.Limit.ForEngine(sides[1])}
	clocks := [2]time.Duration{lims[0].Base, lims[1].Base}
	game := newRecord(v, start)
	if cfg.MaxPlies > 0 {
		game.MaxPlies = cfg.MaxPlies
	}
	var moves []string
	end := func(out int, reason string) (GameRecord, error) {
		rec.Outcome, rec.Reason, rec.Plies = out, reason, len(moves)
		switch out {
		case WhiteWins:
			g.Result = pdn.WhiteWins
		case BlackWins:
			g.Result = pdn.BlackWins
		default:
			g.Result = pdn.DrawResult
		}
		g.Comment = reason
		return rec, nil
	}
	for {
		if s := game.Status(); s.Over() {
			return end(outcomeOf(s), s.String())
		}
		p := game.Position()
		side := p.Side
		e := engines[sides[side]]
		loses := func(why string) (GameRecord, error) {
			if side == movegen.White {
				return end(BlackWins, why)
			}
			return end(WhiteWins, why)
		}
		cmd := "pos pos=" + startText
		if len(moves) > 0 {
			cmd += ` moves="` + strings.Join(moves, " ") + `"`
		}
		e.send(cmd)
		// The engine is told the time left before the increment and may use
		// time + inc now (protocol.md); the clock gets the increment as the
		// move starts.
		e.send(lims[side].level(clocks[side]))
		if lims[side].Base > 0 || lims[side].Inc > 0 {
			clocks[side] += lims[side].Inc
		}
		e.send("go think")
		began := time.Now()
		line, err := e.expect("done", lims[side].wait(clocks[side]))
		took := time.Since(began) - e.paused // a paused machine's time is no one's
		if err != nil {
			engines[sides[side]].kill()
			engines[sides[side]] = nil
			if errors.Is(err, errTimeout) {
				// Where it went silent, to replay it: the moves are in the
				// PDN record; the engine's last line says how far it got.
				why := fmt.Sprintf("%s (%s) did not answer at ply %d (its last line: %q)", side, e.name, len(moves)+1, e.last)
				if e.paused > 0 {
					why += fmt.Sprintf(" in %.1fs of running time; the machine was paused %.1fs besides", lims[side].wait(clocks[side]).Seconds(), e.paused.Seconds())
				}
				return loses(why)
			}
			return loses(fmt.Sprintf("%s (%s) crashed", side, e.name))
		}
		text := field(line, "move")
		m, perr := v.ParseMove(&p, text)
		if perr != nil {
			return loses(fmt.Sprintf("%s (%s) played an illegal move %q", side, e.name, text))
		}
		if lims[side].Base > 0 || lims[side].Inc > 0 {
			if took > clocks[side] {
				return loses(fmt.Sprintf("%s (%s) lost on time (took %.3fs with %.3fs left)", side, e.name, took.Seconds(), clocks[side].Seconds()))
			}
			clocks[side] -= took
		}
		if err := game.Play(m); err != nil { // ParseMove returns legal moves only
			return rec, err
		}
		g.Moves = append(g.Moves, m)
		moves = append(moves, v.HubMove(m))
	}
}
