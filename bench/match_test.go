package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/protocol"
)

// TestMain lets the test binary play a Hub engine for the match tests:
// DAMA_FAKE_ENGINE=good runs the real protocol, record:PATH the same
// keeping every line it is sent in PATH; illegal, silent and crash are
// broken engines.
func TestMain(m *testing.M) {
	kind := os.Getenv("DAMA_FAKE_ENGINE")
	path, record := strings.CutPrefix(kind, "record:")
	switch {
	case kind == "":
		os.Exit(m.Run())
	case kind == "good":
		protocol.NewHub(os.Stdin, os.Stdout, protocol.Options{Log: zerolog.Nop()}).Run()
	case record:
		recordEngine(path)
	default:
		fakeEngine(kind)
	}
	os.Exit(0)
}

// fakeEngine speaks just enough Hub to get through the handshake, then
// misbehaves on go.
func fakeEngine(kind string) {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch f := strings.Fields(sc.Text() + " x"); f[0] {
		case "hub":
			fmt.Println("id name=" + kind)
			fmt.Println("wait")
		case "init":
			fmt.Println("ready")
		case "go":
			switch kind {
			case "illegal":
				fmt.Println("done move=1-2")
			case "crash":
				os.Exit(3)
			case "silent":
			}
		case "quit":
			return
		}
	}
}

// recordEngine is the good engine keeping every line it is sent in the
// file path.
func recordEngine(path string) {
	r, w := io.Pipe()
	go func() {
		f, err := os.Create(path)
		if err != nil {
			w.CloseWithError(err)
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Fprintln(f, sc.Text())
			fmt.Fprintln(w, sc.Text())
		}
		w.Close()
	}()
	protocol.NewHub(r, os.Stdout, protocol.Options{Log: zerolog.Nop()}).Run()
}

func engineSpec(kind string) EngineSpec {
	return EngineSpec{Command: []string{"env", "DAMA_FAKE_ENGINE=" + kind, os.Args[0]}}
}

func TestMatchGoodEngines(t *testing.T) {
	v := movegen.Italian
	ops, err := Openings(v)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	var progress []string
	cfg := MatchConfig{
		Variant:     v,
		Engines:     [2]EngineSpec{engineSpec("good"), engineSpec("good")},
		Games:       4,
		Limit:       Limit{MoveTime: 10 * time.Millisecond},
		Openings:    ops[:2],
		Concurrency: 2,
		PDN:         &sb,
		Progress:    func(g GameRecord, r MatchResult) { progress = append(progress, g.Reason) },
	}
	cfg.Engines[0].Options = [][2]string{{"tt-size", "16"}}
	cfg.Engines[1].Options = [][2]string{{"tt-size", "16"}}
	res, err := Match(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 4 || res.Wins+res.Losses+res.Draws != 4 || len(progress) != 4 {
		t.Fatalf("result %+v, progress %v", res, progress)
	}
	games, err := pdn.Read(strings.NewReader(sb.String()), v)
	if err != nil {
		t.Fatalf("PDN does not read back: %v\n%s", err, sb.String())
	}
	if len(games) != 4 {
		t.Fatalf("%d games in the PDN", len(games))
	}
	for _, g := range games {
		if g.Result == pdn.Unfinished || len(g.Moves) < 10 || g.Variant != v {
			t.Errorf("game %s: %s after %d moves", g.Tag("Round"), g.Result, len(g.Moves))
		}
		want := "env DAMA_FAKE_ENGINE=good " + joinCommand(os.Args[:1])
		if g.Tag("Engine1") != want || g.Tag("Engine2") != want || g.Tag("Engine1Options") != "tt-size=16" ||
			g.Tag("Engine2Options") != "tt-size=16" || g.Tag("Limit") != "movetime=0.01" || g.Tag("MaxPlies") != "400" {
			t.Errorf("game %s: match tags %q", g.Tag("Round"), g.Tags)
		}
	}
}

// MaxPlies adjudicates every game a draw at that length.
func TestMatchMaxPlies(t *testing.T) {
	var recs []GameRecord
	res, err := Match(MatchConfig{
		Variant:  movegen.Italian,
		Engines:  [2]EngineSpec{engineSpec("good"), engineSpec("good")},
		Games:    2,
		Limit:    Limit{Nodes: 500},
		MaxPlies: 6,
		Progress: func(g GameRecord, r MatchResult) { recs = append(recs, g) },
	})
	if err != nil || res.Games != 2 || res.Draws != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, g := range recs {
		if g.Plies != 6 || g.Reason != "game too long" {
			t.Errorf("game %d: %d plies, %q", g.Number, g.Plies, g.Reason)
		}
	}
}

func TestMatchTimeControl(t *testing.T) {
	v := movegen.Italian
	var reasons []string
	res, err := Match(MatchConfig{
		Variant: v,
		Engines: [2]EngineSpec{engineSpec("good"), engineSpec("good")},
		Games:   2,
		// A clock the engines spend for a long game, cut at 30 plies: most
		// of the 4 s is still there at the end, far more than the
		// scheduling delays of a machine shared with the other test
		// packages (a 2 s clock played out over whole games lost on time at
		// a load of 8), and the test takes seconds, not a minute.
		Limit:    Limit{Base: 4 * time.Second, Inc: 100 * time.Millisecond},
		MaxPlies: 30,
		Progress: func(g GameRecord, r MatchResult) { reasons = append(reasons, g.Reason) },
	})
	if err != nil || res.Games != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, r := range reasons {
		if strings.Contains(r, "time") || strings.Contains(r, "answer") {
			t.Errorf("a game ended with %q", r)
		}
	}
}

// Broken engines lose by rule; the runner neither hangs nor crashes.
func TestMatchBrokenEngines(t *testing.T) {
	v := movegen.Italian
	for _, kind := range []string{"illegal", "crash", "silent"} {
		t.Run(kind, func(t *testing.T) {
			var sb strings.Builder
			var reasons []string
			start := time.Now()
			res, err := Match(MatchConfig{
				Variant:  v,
				Engines:  [2]EngineSpec{engineSpec("good"), engineSpec(kind)},
				Games:    2,
				Limit:    Limit{MoveTime: 50 * time.Millisecond},
				PDN:      &sb,
				Progress: func(g GameRecord, r MatchResult) { reasons = append(reasons, g.Reason) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Wins != 2 || res.Games != 2 {
				t.Errorf("good engine against %s: %+v (%v)", kind, res, reasons)
			}
			want := map[string]string{"illegal": "illegal move", "crash": "crashed", "silent": "did not answer"}[kind]
			for _, r := range reasons {
				if !strings.Contains(r, want) {
					t.Errorf("reason %q, want it to say %q", r, want)
				}
			}
			if kind == "silent" {
				for _, r := range reasons {
					if !strings.Contains(r, "did not answer at ply ") || !strings.Contains(r, `(its last line: "ready")`) {
						t.Errorf("reason %q does not say where the engine went silent", r)
					}
				}
			}
			if !strings.Contains(sb.String(), want) {
				t.Errorf("the PDN does not say %q:\n%s", want, sb.String())
			}
			if d := time.Since(start); d > 40*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestSPRTStopsEarly(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	llr, lo, hi := s.LLR(MatchResult{Games: 400, Wins: 300, Losses: 20, Draws: 80})
	if llr < hi {
		t.Errorf("a crushing result: llr %.2f, bounds [%.2f, %.2f]", llr, lo, hi)
	}
	llr, _, _ = s.LLR(MatchResult{Games: 400, Wins: 20, Losses: 300, Draws: 80})
	if llr > lo {
		t.Errorf("a crushing loss: llr %.2f", llr)
	}
	var played int
	res, err := Match(MatchConfig{
		Variant:  movegen.Italian,
		Engines:  [2]EngineSpec{engineSpec("good"), engineSpec("illegal")},
		Games:    100,
		Limit:    Limit{MoveTime: 5 * time.Millisecond},
		SPRT:     &SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05},
		Progress: func(GameRecord, MatchResult) { played++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games >= 100 || res.Games == 0 {
		t.Errorf("SPRT did not stop early: %d games", res.Games)
	}
	// every game won by engine1: each finished opening a pair won twice
	if res.Pairs != [5]int{4: res.Games / 2} {
		t.Errorf("%d games won, pairs %v", res.Games, res.Pairs)
	}
}

func TestLimitString(t *testing.T) {
	for _, c := range []struct {
		l    Limit
		want string
	}{
		{Limit{Depth: 8}, "depth=8"},
		{Limit{Nodes: 2000}, "nodes=2000"},
		{Limit{MoveTime: 100 * time.Millisecond}, "movetime=0.1"},
		{Limit{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, "tc=10+0.1"},
		{Limit{Base: time.Second}, "tc=1+0"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}

// Odds scale the first engine's nodes, move time or clock, never the
// second's, and show in the Limit tag; odds that are not a factor, or on
// a depth, are refused.
func TestLimitOdds(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		l          Limit
		first, tag string
	}{
		{Limit{Nodes: 300, Odds: 2}, "nodes=600", "nodes=300 odds=2"},
		{Limit{Nodes: 1, Odds: 0.1}, "nodes=1", "nodes=1 odds=0.1"},
		{Limit{MoveTime: 100 * ms, Odds: 2}, "movetime=0.2", "movetime=0.1 odds=2"},
		{Limit{MoveTime: 100 * ms, Odds: 0.5}, "movetime=0.05", "movetime=0.1 odds=0.5"},
		{Limit{Base: 10 * time.Second, Inc: 100 * ms, Odds: 3}, "tc=30+0.3", "tc=10+0.1 odds=3"},
		{Limit{MoveTime: 100 * ms, Odds: 1}, "movetime=0.1", "movetime=0.1"},
		{Limit{Depth: 6}, "depth=6", "depth=6"},
	} {
		if err := c.l.Check(); err != nil {
			t.Errorf("%+v: %v", c.l, err)
		}
		if got := c.l.ForEngine(0).String(); got != c.first {
			t.Errorf("%+v: the first engine's limit %q, want %q", c.l, got, c.first)
		}
		second := c.l
		second.Odds = 0
		if got := c.l.ForEngine(1); got != second {
			t.Errorf("%+v: the second engine's limit %+v", c.l, got)
		}
		if got := c.l.String(); got != c.tag {
			t.Errorf("%+v: Limit tag %q, want %q", c.l, got, c.tag)
		}
	}
	for _, l := range []Limit{
		{Depth: 6, Odds: 2},
		{Nodes: 300, Odds: -1},
		{Nodes: 300, Odds: math.NaN()},
		{Nodes: 300, Odds: math.Inf(1)},
		{MoveTime: time.Second, Odds: 1e6},
	} {
		if l.Check() == nil {
			t.Errorf("%+v: accepted", l)
		}
		if _, err := Match(MatchConfig{Variant: movegen.Italian, Games: 2, Limit: l}); err == nil {
			t.Errorf("%+v: Match played it", l)
		}
	}
}

// A match at odds sends the first engine its scaled limit in both
// colours and the second engine the limit as given.
func TestMatchOdds(t *testing.T) {
	dir := t.TempDir()
	files := [2]string{filepath.Join(dir, "engine1"), filepath.Join(dir, "engine2")}
	var sb strings.Builder
	cfg := MatchConfig{
		Variant:  movegen.Italian,
		Engines:  [2]EngineSpec{engineSpec("record:" + files[0]), engineSpec("record:" + files[1])},
		Games:    2,
		Limit:    Limit{Nodes: 300, Odds: 2},
		Openings: []Opening{{Name: "start", Pos: movegen.Italian.Start()}},
		PDN:      &sb,
	}
	res, err := Match(cfg)
	if err != nil || res.Games != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	for i, want := range []string{"level nodes=600", "level nodes=300"} {
		b, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		levels := map[string]int{}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "level") {
				levels[l]++
			}
		}
		if len(levels) != 1 || levels[want] < 4 {
			t.Errorf("engine %d was sent %v, want only %q", i+1, levels, want)
		}
	}
	games, err := pdn.Read(strings.NewReader(sb.String()), movegen.Italian)
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, g := range games {
		if g.Tag("Limit") != "nodes=300 odds=2" {
			t.Errorf("game %s: Limit %q", g.Tag("Round"), g.Tag("Limit"))
		}
	}
}

func TestSplitCommand(t *testing.T) {
	got, err := SplitCommand(`engine --opt "a b" 'c d' e`)
	if err != nil || strings.Join(got, "|") != "engine|--opt|a b|c d|e" {
		t.Errorf("%q %v", got, err)
	}
	if _, err := SplitCommand(`engine "open`); err == nil {
		t.Error("unterminated quote accepted")
	}
	if _, err := SplitCommand("  "); err == nil {
		t.Error("empty command accepted")
	}
	// joinCommand gives the words back through SplitCommand
	words := []string{"engine", "--opt=a b", `say "hi"`, "it's", `both ' and "`, "", "tab\tx"}
	got, err = SplitCommand(joinCommand(words))
	if err != nil || strings.Join(got, "|") != strings.Join(words, "|") || len(got) != len(words) {
		t.Errorf("%q joined as %s splits as %q %v", words, joinCommand(words), got, err)
	}
	if j := joinCommand([]string{"./damaengine", "hub", "--tt-size=20"}); j != "./damaengine hub --tt-size=20" {
		t.Errorf("plain words joined as %s", j)
	}
}

// resumeRun plays a match of games games at a node budget (one game at a
// time), after the previous ones, and returns the result, the progress
// lines and the PDN it writes; mod, if not nil, changes the match first.
func resumeRun(t *testing.T, games int, ops []Opening, kinds [2]string, prev []*pdn.Game, mod func(*MatchConfig)) (MatchResult, []string, string, error) {
	t.Helper()
	var sb strings.Builder
	var progress []string
	cfg := MatchConfig{
		Variant:  movegen.Italian,
		Engines:  [2]EngineSpec{engineSpec(kinds[0]), engineSpec(kinds[1])},
		Games:    games,
		Limit:    Limit{Nodes: 300},
		Openings: ops,
		PDN:      &sb,
		SPRT:     &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05},
		Previous: prev,
		Progress: func(g GameRecord, r MatchResult) {
			progress = append(progress, fmt.Sprintf("%d %s %s-%s %d %s %+v", g.Number, g.Opening,
				g.Names[g.White], g.Names[1-g.White], g.Outcome, g.Reason, r))
		},
	}
	if mod != nil {
		mod(&cfg)
	}
	res, err := Match(cfg)
	return res, progress, sb.String(), err
}

// A match cut after two of its four games and resumed from its PDN ends as
// the uninterrupted one does, game for game (at a node budget the engines
// are deterministic: a new game clears what the last one left).
func TestMatchResume(t *testing.T) {
	v := movegen.Italian
	ops, err := Openings(v)
	if err != nil {
		t.Fatal(err)
	}
	good := [2]string{"good", "good"}
	whole, wholeProgress, wholePDN, err := resumeRun(t, 4, ops[:2], good, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, cutPDN, err := resumeRun(t, 2, ops[:2], good, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := pdn.Read(strings.NewReader(cutPDN), v)
	if err != nil || len(prev) != 2 {
		t.Fatalf("%d games, %v", len(prev), err)
	}
	resumed, progress, restPDN, err := resumeRun(t, 4, ops[:2], good, prev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != whole || strings.Join(progress, "\n") != strings.Join(wholeProgress, "\n") {
		t.Errorf("resumed %+v\n%s\nuninterrupted %+v\n%s", resumed, strings.Join(progress, "\n"), whole, strings.Join(wholeProgress, "\n"))
	}
	if cutPDN+restPDN != wholePDN {
		t.Errorf("the PDNs differ:\n%s%s\nuninterrupted:\n%s", cutPDN, restPDN, wholePDN)
	}
	// a match the file does not belong to is refused, naming the round;
	// the engines here all say they are damaengine, the match tags tell
	// them apart (and another limit or MaxPlies)
	engine := engineSpec("good").Command
	other := append(engine[:2:2], "OTHER=1", engine[2])
	illegal := engineSpec("illegal").Command
	for _, c := range []struct {
		games int
		ops   []Opening
		kinds [2]string
		mod   func(*MatchConfig)
		want  string
	}{
		{4, ops[:2], [2]string{"good", "illegal"}, nil, fmt.Sprintf(`round 1 has Engine2 %q, this match %q`, joinCommand(engine), joinCommand(illegal))},
		{4, ops[1:3], good, nil, "round 1 starts from opening"},
		{1, ops[:2], good, nil, "round 2 is beyond the 1 games"},
		{4, ops[:2], good, func(c *MatchConfig) { c.Limit = Limit{Nodes: 400} }, `round 1 has Limit "nodes=300", this match "nodes=400"`},
		{4, ops[:2], good, func(c *MatchConfig) { c.Limit = Limit{MoveTime: 100 * time.Millisecond} }, `round 1 has Limit "nodes=300", this match "movetime=0.1"`},
		{4, ops[:2], good, func(c *MatchConfig) { c.Engines[1].Command = other },
			fmt.Sprintf(`round 1 has Engine2 %q, this match %q`, joinCommand(engine), joinCommand(other))},
		{4, ops[:2], good, func(c *MatchConfig) { c.Engines[0].Options = [][2]string{{"tt-size", "16"}} }, `round 1 has Engine1Options "", this match "tt-size=16"`},
		{4, ops[:2], good, func(c *MatchConfig) { c.MaxPlies = 200 }, `round 1 has MaxPlies "400", this match "200"`},
	} {
		res, progress, out, err := resumeRun(t, c.games, c.ops, c.kinds, prev, c.mod)
		if err == nil || !strings.Contains(err.Error(), c.want) || res.Games != 0 || len(progress) != 0 || out != "" {
			t.Errorf("want an error saying %q: %v, %+v, %d progress lines, PDN %q", c.want, err, res, len(progress), out)
		}
	}
}

// Games written before the match tags are refused (ErrUntagged) unless
// ResumeUntagged takes them, and then the match ends as the uninterrupted
// one; a game with some of the tags but not all is refused either way.
func TestMatchResumeUntagged(t *testing.T) {
	v := movegen.Italian
	ops, err := Openings(v)
	if err != nil {
		t.Fatal(err)
	}
	good := [2]string{"good", "good"}
	whole, wholeProgress, wholePDN, err := resumeRun(t, 4, ops[:2], good, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, cutPDN, err := resumeRun(t, 2, ops[:2], good, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// the games as a build before the match tags wrote them
	old := regexp.MustCompile(`(?m)^\[(Engine[12]|Engine[12]Options|Limit|MaxPlies) .*\n`).ReplaceAllString(cutPDN, "")
	prev, err := pdn.Read(strings.NewReader(old), v)
	if err != nil || len(prev) != 2 || strings.Contains(old, "Limit") {
		t.Fatalf("%d games, %v:\n%s", len(prev), err, old)
	}
	res, progress, out, err := resumeRun(t, 4, ops[:2], good, prev, nil)
	if !errors.Is(err, ErrUntagged) || !strings.Contains(err.Error(), "round 1 has none of the tags Engine1") ||
		res.Games != 0 || len(progress) != 0 || out != "" {
		t.Errorf("untagged games: %v, %+v, %d progress lines, PDN %q", err, res, len(progress), out)
	}
	untagged := func(c *MatchConfig) { c.ResumeUntagged = true }
	resumed, progress, restPDN, err := resumeRun(t, 4, ops[:2], good, prev, untagged)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != whole || strings.Join(progress, "\n") != strings.Join(wholeProgress, "\n") {
		t.Errorf("resumed %+v\n%s\nuninterrupted %+v\n%s", resumed, strings.Join(progress, "\n"), whole, strings.Join(wholeProgress, "\n"))
	}
	if cutPDN+restPDN != wholePDN {
		t.Errorf("the games played (with their tags) differ:\n%s\nuninterrupted:\n%s", restPDN, wholePDN[len(cutPDN):])
	}
	// without the tags, the engines' names still tell another match
	res, _, out, err = resumeRun(t, 4, ops[:2], [2]string{"good", "illegal"}, prev, untagged)
	if err == nil || !strings.Contains(err.Error(), `round 1 has White "damaengine" and Black "damaengine", this match "damaengine" and "illegal"`) || res.Games != 0 || out != "" {
		t.Errorf("untagged games of other engines: %v, %+v, PDN %q", err, res, out)
	}
	// ResumeUntagged still checks the games that have tags
	prev[1].SetTag("Limit", "nodes=300")
	res, _, out, err = resumeRun(t, 4, ops[:2], good, prev, untagged)
	if err == nil || !strings.Contains(err.Error(), "round 2 has no Engine1 tag") || res.Games != 0 || out != "" {
		t.Errorf("a game with some match tags: %v, %+v, PDN %q", err, res, out)
	}
}

// TestMatchAllDamoni: a match of Damone with the all-Damoni rule tells
// each engine the rule after its own options (so the engines play the
// referee's rules) and says so in a Rules tag, which a resumed match
// checks both ways.
func TestMatchAllDamoni(t *testing.T) {
	for _, v := range []*movegen.Variant{movegen.Damone, movegen.DamoneAllDamoni} {
		path := filepath.Join(t.TempDir(), "lines")
		spec := engineSpec("record:" + path)
		spec.Options = [][2]string{{"all-damoni-win", "false"}}
		e, err := startEngine(spec, v)
		if err != nil {
			t.Fatal(err)
		}
		e.quit()
		b, _ := os.ReadFile(path)
		lines := string(b)
		i, j := strings.Index(lines, "value=false"), strings.Index(lines, "set-param name=all-damoni-win value=true")
		if !strings.Contains(lines, "set-param name=variant value=damone\n") || (j >= 0) != v.HasLossRule() || (j >= 0 && j < i) {
			t.Errorf("%s: the engine was sent\n%s", v.RulesName(), lines)
		}
	}
	ops, err := Openings(movegen.DamoneAllDamoni)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	res, err := Match(MatchConfig{
		Variant:  movegen.DamoneAllDamoni,
		Engines:  [2]EngineSpec{engineSpec("good"), engineSpec("good")},
		Games:    2,
		Limit:    Limit{Nodes: 300},
		Openings: ops[:1],
		PDN:      &sb,
	})
	if err != nil || res.Games != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	if n := strings.Count(sb.String(), `[Rules "damone-all-damoni"]`); n != 2 {
		t.Errorf("%d Rules tags in\n%s", n, sb.String())
	}
	// Its games resume an all-Damoni match only, not a Damone one.
	games, err := pdn.Read(strings.NewReader(sb.String()), movegen.Damone)
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	names := [2]string{games[0].Tag("White"), games[0].Tag("Black")}
	for _, v := range []*movegen.Variant{movegen.DamoneAllDamoni, movegen.Damone} {
		cfg := MatchConfig{Variant: v, Engines: [2]EngineSpec{engineSpec("good"), engineSpec("good")},
			Games: 2, Limit: Limit{Nodes: 300}, Openings: ops[:1], Previous: games}
		if _, err := previousGames(&cfg, names); (err == nil) != v.HasLossRule() {
			t.Errorf("resuming the all-Damoni games as %s: %v", v.RulesName(), err)
		}
	}
}

// A wait counts the ticks' gaps up to pauseCap: the rest of a longer gap
// is a pause of the whole machine, charged to no one.
func TestWaitClockPauses(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := waitClock{last: t0}
	now := t0
	for i := 0; i < 10; i++ {
		now = now.Add(waitTick)
		c.advance(now)
	}
	now = now.Add(3 * time.Second) // the machine stopped for about 3 s
	c.advance(now)
	now = now.Add(waitTick)
	c.advance(now)
	if want := 11*waitTick + pauseCap; c.ran != want {
		t.Errorf("ran %v, want %v", c.ran, want)
	}
	if want := 3*time.Second - pauseCap; c.paused != want {
		t.Errorf("paused %v, want %v", c.paused, want)
	}
}

// An answer already read when the wait runs out is taken, not lost to the
// timer (after a pause, both are due at once).
func TestExpectTakesWaitingAnswer(t *testing.T) {
	e := &hubEngine{lines: make(chan string, 4)}
	e.lines <- "info depth=1"
	e.lines <- "done move=22-18"
	if l, err := e.expect("done", 0); err != nil || l != "done move=22-18" {
		t.Fatalf("expect with the answer waiting: %q, %v", l, err)
	}
	if _, err := e.expect("done", 30*time.Millisecond); err != errTimeout {
		t.Fatalf("expect with nothing to read: %v, want a timeout", err)
	}
	close(e.lines)
	if _, err := e.expect("done", time.Second); err != errDead {
		t.Fatalf("expect after the engine's end: %v", err)
	}
}

// TestTallyPairs: games finishing in any order are paired by number (an
// opening's two games, 2k-1 and 2k), a pair counted once both are in, by
// engine1's half points in it; an unpaired game counts in the games only.
func TestTallyPairs(t *testing.T) {
	var ta tally
	// game number → engine1's score, in the order they finish
	for _, g := range [][2]int{{2, 1}, {3, -1}, {1, 1}, {4, 1}, {6, 0}, {5, -1}, {8, -1}, {7, -1}, {9, 1}} {
		ta.add(g[0], g[1])
	}
	want := MatchResult{Games: 9, Wins: 4, Losses: 4, Draws: 1, Pairs: [5]int{1, 1, 1, 0, 1}}
	if ta.res != want {
		t.Errorf("tally %+v, want %+v", ta.res, want)
	}
	if n := ta.res.PairCount(); n != 4 {
		t.Errorf("PairCount %d, want 4", n)
	}
}

// TestSPRTPentanomial: the same games read by pairs. 100 openings won by
// whoever had the good side and 10 won twice by engine1: by the games
// (110 wins, 100 losses) the test can tell nothing, by the pairs (100
// even, 10 won) engine1 is plainly the stronger. Without pairs the
// trinomial reading stays.
func TestSPRTPentanomial(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 30, Alpha: 0.05, Beta: 0.05}
	games := MatchResult{Games: 220, Wins: 120, Losses: 100}
	llrGames, lo, hi := s.LLR(games)
	if llrGames <= lo || llrGames >= hi {
		t.Fatalf("by games alone: llr %.2f, bounds [%.2f, %.2f]; want undecided", llrGames, lo, hi)
	}
	paired := games
	paired.Pairs = [5]int{0, 0, 100, 0, 10}
	llr, _, _ := s.LLR(paired)
	if llr < hi {
		t.Errorf("by pairs: llr %.2f, want at least %.2f (games alone %.2f)", llr, hi, llrGames)
	}
	elo, bar := paired.PairElo()
	if elo < 25 || elo > 40 || bar <= 0 || bar > elo {
		t.Errorf("PairElo %.1f ± %.1f, want about +32 and a bar below it", elo, bar)
	}
	if _, gbar := games.Elo(); gbar < 2*bar {
		t.Errorf("the games' error bar %.1f is not wider than twice the pairs' %.1f", gbar, bar)
	}
	// pairs split both ways: nothing to tell
	even := MatchResult{Games: 80, Wins: 20, Losses: 20, Draws: 40, Pairs: [5]int{0, 20, 0, 20, 0}}
	if llr, _, _ := s.LLR(even); llr > 0 {
		t.Errorf("even pairs: llr %.2f, want below 0", llr)
	}
	if elo, _ := even.PairElo(); elo != 0 {
		t.Errorf("even pairs: PairElo %.1f, want 0", elo)
	}
}
