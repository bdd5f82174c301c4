package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMain lets the test binary be damaengine itself for the match
// tests: with DAMAENGINE_TEST_MAIN set it runs its arguments as the
// command line.
func TestMain(m *testing.M) {
	if os.Getenv("DAMAENGINE_TEST_MAIN") != "" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	// No engine a test starts (a match's, a DXP player, a hub run in
	// process) builds endgame tables in the user's cache directory: the
	// engines inherit this. With the tables on, a background build that
	// finished during a match changed the later games' endgames, and a
	// test comparing two runs of one match failed on a fast machine.
	if err := os.Setenv("DAMAENGINE_EGDB", "off"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// testEngine is the command line of the engines of runMatchCmd: the test
// binary as damaengine hub, with tt-size set.
func testEngine(ttSize string) string {
	return "env DAMAENGINE_TEST_MAIN=1 " + os.Args[0] + " hub --tt-size=" + ttSize
}

// runMatchCmd runs "damaengine match" between two copies of the test
// binary at a node budget and returns its status, stdout and the game
// lines of stderr.
func runMatchCmd(t *testing.T, extra ...string) (int, string, []string, string) {
	t.Helper()
	engine := testEngine("16")
	args := append([]string{"match", "--engine1", engine, "--engine2", engine, "--games", "4",
		"--nodes", "300", "--sprt", "0,10"}, extra...)
	var out, errb bytes.Buffer
	rc := run(args, strings.NewReader(""), &out, &errb)
	var games []string
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.HasPrefix(l, "game ") {
			games = append(games, l)
		}
	}
	return rc, out.String(), games, errb.String()
}

// --resume: a match whose PDN was cut in the middle of its third game
// prints, resumed, what the uninterrupted match prints, and its file ends
// up the same; a file of another match is refused and left alone.
func TestMatchResumeCommand(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.pdn")
	rc, out, games, errs := runMatchCmd(t, "--pdn", whole)
	if rc != 0 || len(games) != 4 {
		t.Fatalf("rc %d: %s%s", rc, out, errs)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	third := strings.Index(text, `[Round "3"]`)
	fourth := strings.Index(text, `[Round "4"]`) // the middle is in game 3
	if third < 0 || fourth < third {
		t.Fatalf("rounds 3 and 4 not found:\n%s", text)
	}
	cut := filepath.Join(dir, "cut.pdn")
	if err := os.WriteFile(cut, b[:(third+fourth)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out2, games2, errs2 := runMatchCmd(t, "--pdn", cut, "--resume")
	if rc != 0 || out2 != out || strings.Join(games2, "\n") != strings.Join(games, "\n") {
		t.Errorf("resumed: rc %d\n%s%s\nuninterrupted:\n%s%s", rc, out2, strings.Join(games2, "\n"), out, strings.Join(games, "\n"))
	}
	if !strings.Contains(errs2, "dropping the unfinished game") {
		t.Errorf("the dropped game is not reported: %s", errs2)
	}
	if got, _ := os.ReadFile(cut); string(got) != text {
		t.Errorf("the resumed file:\n%s\nuninterrupted:\n%s", got, text)
	}
	// resuming a finished match plays nothing and prints the same
	rc, out3, games3, errs3 := runMatchCmd(t, "--pdn", cut, "--resume")
	if rc != 0 || out3 != out || len(games3) != 4 || strings.Contains(errs3, "dropping") {
		t.Errorf("resumed again: rc %d %s%s", rc, out3, errs3)
	}
	// another variant's match is refused, the file untouched
	if err := os.WriteFile(cut, b[:(third+fourth)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	rc, _, games4, errs4 := runMatchCmd(t, "--pdn", cut, "--resume", "--variant", "spanish")
	if rc == 0 || len(games4) != 0 || !strings.Contains(errs4, "round 1 is italian, this match plays spanish") {
		t.Errorf("another variant: rc %d, %s", rc, errs4)
	}
	if got, _ := os.ReadFile(cut); !bytes.Equal(got, b[:(third+fourth)/2]) {
		t.Error("a refused resume changed the file")
	}
	if rc, _, _, errs := runMatchCmd(t, "--resume"); rc != 2 || !strings.Contains(errs, "--resume needs --pdn") {
		t.Errorf("--resume without --pdn: rc %d %s", rc, errs)
	}
}

// --resume refuses a file whose match tags say another match (another
// limit, engine command, --engine-option or --max-plies, all of which the
// engines' names do not show), naming the round, the tag and both values,
// and leaves the file alone; a file written before the tags is refused
// too, unless --resume-untagged, and then resumes as the uninterrupted
// match does.
func TestMatchResumeTags(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.pdn")
	rc, out, games, errs := runMatchCmd(t, "--pdn", whole)
	if rc != 0 || len(games) != 4 {
		t.Fatalf("rc %d: %s%s", rc, out, errs)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	third := strings.Index(text, `[Round "3"]`)
	if third < 0 || !strings.Contains(text[:third], `[Limit "nodes=300"]`) {
		t.Fatalf("round 3 or the Limit tag not found:\n%s", text)
	}
	half := text[:third] // rounds 1 and 2
	file := filepath.Join(dir, "half.pdn")
	refused := func(content string, args []string, want ...string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		rc, _, games, errs := runMatchCmd(t, append([]string{"--pdn", file, "--resume"}, args...)...)
		if rc != 1 || len(games) != 0 {
			t.Errorf("%q: rc %d, %d games: %s", args, rc, len(games), errs)
		}
		for _, w := range want {
			if !strings.Contains(errs, w) {
				t.Errorf("%q: the error does not say %q: %s", args, w, errs)
			}
		}
		if got, _ := os.ReadFile(file); string(got) != content {
			t.Errorf("%q: a refused resume changed the file", args)
		}
	}
	refused(half, []string{"--nodes", "400"}, `round 1 has Limit "nodes=300", this match "nodes=400"`)
	refused(half, []string{"--nodes", "0", "--movetime", "0.1"}, `round 1 has Limit "nodes=300", this match "movetime=0.1"`)
	refused(half, []string{"--engine2", testEngine("17")},
		fmt.Sprintf(`round 1 has Engine2 %q, this match %q`, testEngine("16"), testEngine("17")))
	refused(half, []string{"--engine-option", "tt-size=16"}, `round 1 has Engine1Options "", this match "tt-size=16"`)
	refused(half, []string{"--max-plies", "200"}, `round 1 has MaxPlies "400", this match "200"`)

	// the first two games as a build before the match tags wrote them
	untagged := regexp.MustCompile(`(?m)^\[(Engine[12]|Engine[12]Options|Limit|MaxPlies) .*\n`).ReplaceAllString(half, "")
	if strings.Contains(untagged, "Engine1") || !strings.Contains(untagged, `[Round "2"]`) {
		t.Fatalf("the tags are not cut:\n%s", untagged)
	}
	refused(untagged, nil, "round 1 has none of the tags Engine1", "the PDN predates the match tags", "--resume-untagged")
	rc, out2, games2, errs2 := runMatchCmd(t, "--pdn", file, "--resume", "--resume-untagged")
	if rc != 0 || out2 != out || strings.Join(games2, "\n") != strings.Join(games, "\n") {
		t.Errorf("--resume-untagged: rc %d\n%s%s\n%s\nuninterrupted:\n%s%s", rc, out2, strings.Join(games2, "\n"), errs2, out, strings.Join(games, "\n"))
	}
	if got, _ := os.ReadFile(file); string(got) != untagged+text[third:] {
		t.Errorf("the file resumed with --resume-untagged:\n%s\nwant the untagged games, then:\n%s", got, text[third:])
	}
	// the games it added have the tags: a resume with another limit is refused at round 3
	refused(untagged+text[third:], []string{"--nodes", "400", "--resume-untagged"}, `round 3 has Limit "nodes=300", this match "nodes=400"`)

	if rc, _, _, errs := runMatchCmd(t, "--resume-untagged", "--pdn", file); rc != 2 || !strings.Contains(errs, "--resume-untagged goes with --resume") {
		t.Errorf("--resume-untagged without --resume: rc %d %s", rc, errs)
	}
	var help, errb bytes.Buffer
	if rc := run([]string{"match", "--help"}, strings.NewReader(""), &help, &errb); rc != 0 || !strings.Contains(help.String(), "--resume-untagged") {
		t.Errorf("match --help: rc %d, does not list --resume-untagged:\n%s", rc, help.String())
	}
}

// --odds gives engine1 that many times the limit (the match's PDN says
// so); odds that are not a factor, or with --depth, are refused.
func TestMatchOddsFlag(t *testing.T) {
	engine := testEngine("16")
	base := []string{"match", "--engine1", engine, "--engine2", engine, "--games", "2"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--depth", "3", "--odds", "2"}, "--odds: odds apply to nodes, a move time or a clock, not to a depth"},
		{[]string{"--nodes", "300", "--odds", "-1"}, "--odds: odds -1: want a factor above 0"},
		{[]string{"--nodes", "300", "--odds", "NaN"}, "--odds: odds NaN"},
	} {
		var out, errb bytes.Buffer
		if rc := run(append(append([]string{}, base...), c.args...), strings.NewReader(""), &out, &errb); rc != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", c.args, rc, errb.String(), c.want)
		}
	}
	file := filepath.Join(t.TempDir(), "odds.pdn")
	var out, errb bytes.Buffer
	args := append(append([]string{}, base...), "--nodes", "300", "--odds", "2", "--pdn", file)
	if rc := run(args, strings.NewReader(""), &out, &errb); rc != 0 || !strings.Contains(out.String(), "match games=2 ") {
		t.Fatalf("status %d, stdout %q, stderr %q", rc, out.String(), errb.String())
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `[Limit "nodes=300 odds=2"]`); n != 2 {
		t.Errorf("%d games say the odds in their Limit tag, want 2:\n%s", n, b)
	}
}
