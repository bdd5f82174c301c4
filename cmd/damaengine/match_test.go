package main

import (
	"bytes"
	"os"
	"path/filepath"
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
	os.Exit(m.Run())
}

// runMatchCmd runs "damaengine match" between two copies of the test
// binary at a node budget and returns its status, stdout and the game
// lines of stderr.
func runMatchCmd(t *testing.T, extra ...string) (int, string, []string, string) {
	t.Helper()
	engine := "env DAMAENGINE_TEST_MAIN=1 " + os.Args[0] + " hub --tt-size=16"
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
