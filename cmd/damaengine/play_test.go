package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestPlayWiring: the flags reach the game (package play tests the game
// itself).
func TestPlayWiring(t *testing.T) {
	var out, errb bytes.Buffer
	script := "fen\nquit\n"
	rc := run([]string{"play", "--variant", "russian", "--movetime", "0.02", "--fen", "W:Wa1:Bh8"}, strings.NewReader(script), &out, &errb)
	if rc != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "FEN: W:Wa1:Bh8\n") ||
		!strings.Contains(out.String(), "damaengine play: russian, you play white") || !strings.HasSuffix(out.String(), "Goodbye.\n") {
		t.Errorf("rc %d, stderr %q, out\n%s", rc, errb.String(), out.String())
	}
}

func TestPlayBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--side", "red"},
		{"play", "--movetime", "0"},
		{"play", "--movetime", "x"},
		{"play", "--movetime", "NaN"},
		{"play", "--fen", "W:W21-40:B1"},
		{"play", "--fen", "nonsense"},
		{"play", "--variant", "chess"},
		{"play", "--level", "9"},
		{"play", "extra"},
		{"play", "--bogus"},
	} {
		var o, e bytes.Buffer
		rc := run(args, strings.NewReader(""), &o, &e)
		if rc != 2 || o.Len() != 0 || strings.Count(e.String(), "\n") != 1 || !strings.HasPrefix(e.String(), "damaengine play: ") {
			t.Errorf("%v: rc %d, stdout %q, stderr %q; want 2, nothing, one line", args, rc, o.String(), e.String())
		}
	}
	// nothing read but stdin: an empty input ends the game at once
	var o, e bytes.Buffer
	if rc := run([]string{"play"}, io.LimitReader(strings.NewReader(""), 0), &o, &e); rc != 0 || e.Len() != 0 {
		t.Errorf("empty input: rc %d, stderr %q", rc, e.String())
	}
}

// Issue 46: --level weakens the engine, the banner says so, and the board
// marks the last move.
func TestPlayLevel(t *testing.T) {
	var out, errb bytes.Buffer
	rc := run([]string{"play", "--variant", "italian", "--side", "black", "--level", "1"}, strings.NewReader("quit\n"), &out, &errb)
	if rc != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "the engine at level 1 thinks") ||
		!strings.Contains(out.String(), "its squares marked *") || !strings.Contains(out.String(), "Engine plays ") {
		t.Errorf("rc %d, stderr %q, out\n%s", rc, errb.String(), out.String())
	}
}

// Issue 46: bare damaengine on a terminal says in one line how to start;
// on a pipe (a GUI) it stays silent and speaks Hub.
func TestPlayBareStartLine(t *testing.T) {
	defer func(f func(io.Reader) bool) { stdinIsTerminal = f }(stdinIsTerminal)
	for _, tty := range []bool{false, true} {
		stdinIsTerminal = func(io.Reader) bool { return tty }
		var out, errb bytes.Buffer
		rc := run(nil, strings.NewReader("hub\nquit\n"), &out, &errb)
		said := errb.String()
		if rc != 0 || !strings.Contains(out.String(), "id name=") {
			t.Errorf("tty %v: rc %d, stdout %q", tty, rc, out.String())
		}
		if tty && (said != startLine+"\n" || !strings.Contains(said, "damaengine serve") || !strings.Contains(said, "damaengine play")) {
			t.Errorf("on a terminal: stderr %q", said)
		}
		if !tty && said != "" {
			t.Errorf("on a pipe: stderr %q, want nothing", said)
		}
	}
}

// Issue 46: a lidraughts FEN (H and F fields) for --fen, and the board's
// coordinates for a move.
func TestPlayLidraughtsFENAndCoordinates(t *testing.T) {
	var out, errb bytes.Buffer
	rc := run([]string{"play", "--variant", "international", "--fen", "W:W31-50:B1-20:H0:F1", "--movetime", "0.02"}, strings.NewReader("fen\nquit\n"), &out, &errb)
	if rc != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "FEN: W:W31-50:B1-20\n") {
		t.Errorf("rc %d, stderr %q, out\n%s", rc, errb.String(), out.String())
	}
	out.Reset()
	errb.Reset()
	// Italian's square 22 is d3 on the board drawn, 18 is c4
	rc = run([]string{"play", "--variant", "italian", "--movetime", "0.02"}, strings.NewReader("d3:c4\nquit\n"), &out, &errb)
	if rc != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "You play 22-18.") {
		t.Errorf("rc %d, stderr %q, out\n%s", rc, errb.String(), out.String())
	}
}
