package bench

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/protocol"
)

// TestMain lets the test binary play a Hub engine for the match tests:
// DAMA_FAKE_ENGINE=good runs the real protocol; illegal, silent and crash
// are broken engines.
func TestMain(m *testing.M) {
	switch os.Getenv("DAMA_FAKE_ENGINE") {
	case "":
		os.Exit(m.Run())
	case "good":
		protocol.NewHub(os.Stdin, os.Stdout, protocol.Options{Log: zerolog.Nop()}).Run()
		os.Exit(0)
	default:
		fakeEngine(os.Getenv("DAMA_FAKE_ENGINE"))
		os.Exit(0)
	}
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
}

// resumeRun plays a match of games games at a node budget (one game at a
// time), after the previous ones, and returns the result, the progress
// lines and the PDN it writes.
func resumeRun(t *testing.T, games int, ops []Opening, kinds [2]string, prev []*pdn.Game) (MatchResult, []string, string, error) {
	t.Helper()
	var sb strings.Builder
	var progress []string
	res, err := Match(MatchConfig{
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
	})
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
	whole, wholeProgress, wholePDN, err := resumeRun(t, 4, ops[:2], good, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, cutPDN, err := resumeRun(t, 2, ops[:2], good, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := pdn.Read(strings.NewReader(cutPDN), v)
	if err != nil || len(prev) != 2 {
		t.Fatalf("%d games, %v", len(prev), err)
	}
	resumed, progress, restPDN, err := resumeRun(t, 4, ops[:2], good, prev)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != whole || strings.Join(progress, "\n") != strings.Join(wholeProgress, "\n") {
		t.Errorf("resumed %+v\n%s\nuninterrupted %+v\n%s", resumed, strings.Join(progress, "\n"), whole, strings.Join(wholeProgress, "\n"))
	}
	if cutPDN+restPDN != wholePDN {
		t.Errorf("the PDNs differ:\n%s%s\nuninterrupted:\n%s", cutPDN, restPDN, wholePDN)
	}
	// a match the file does not belong to is refused, naming the round
	for _, c := range []struct {
		games int
		ops   []Opening
		kinds [2]string
		want  string
	}{
		{4, ops[:2], [2]string{"good", "illegal"}, `round 1 has White "damaengine" and Black "damaengine", this match "damaengine" and "illegal"`},
		{4, ops[1:3], good, "round 1 starts from opening"},
		{1, ops[:2], good, "round 2 is beyond the 1 games"},
	} {
		res, progress, out, err := resumeRun(t, c.games, c.ops, c.kinds, prev)
		if err == nil || !strings.Contains(err.Error(), c.want) || res.Games != 0 || len(progress) != 0 || out != "" {
			t.Errorf("want an error saying %q: %v, %+v, %d progress lines, PDN %q", c.want, err, res, len(progress), out)
		}
	}
}
