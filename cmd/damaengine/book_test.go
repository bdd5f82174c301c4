package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	rc := run(args, strings.NewReader(""), &out, &errb)
	return rc, out.String(), errb.String()
}

func TestBookCommand(t *testing.T) {
	for _, a := range [][]string{{"book", "--help"}, {"book", "build", "--help"}, {"book", "probe", "--help"}} {
		if rc, out, _ := runArgs(a...); rc != 0 || !strings.HasPrefix(out, "usage: damaengine book build") {
			t.Errorf("%v: rc %d, %q", a, rc, out)
		}
	}
	if _, out, _ := runArgs("help"); !strings.Contains(out, "damaengine book build") || !strings.Contains(out, "damaengine book probe") {
		t.Errorf("usage does not name book:\n%s", out)
	}
	for _, a := range [][]string{
		{"book"}, {"book", "frob"}, {"book", "build", "--variant", "chess"}, {"book", "build", "--positions", "0"},
		{"book", "probe", "--fen", "W:W99:B1"},
	} {
		if rc, out, errs := runArgs(a...); rc != 2 || out != "" || !strings.HasPrefix(errs, "damaengine book") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: rc %d, stdout %q, stderr %q", a, rc, out, errs)
		}
	}
	// a book file that cannot be used is an input failure: status 1
	if rc, out, errs := runArgs("book", "probe", "--book", "/nonexistent/x.book"); rc != 1 || out != "" || !strings.HasPrefix(errs, "damaengine book") || strings.Count(errs, "\n") != 1 {
		t.Errorf("missing book: rc %d, stdout %q, stderr %q", rc, out, errs)
	}
	file := filepath.Join(t.TempDir(), "eng.book")
	rc, out, errs := runArgs("book", "build", "--variant", "english", "--positions", "12", "--time-per-node", "0.001", "--tt-size", "16", "--out", file)
	if rc != 0 || !strings.HasPrefix(out, "book variant=english positions=") || !strings.Contains(errs, "ETA") {
		t.Fatalf("build: rc %d, stdout %q, stderr %q", rc, out, errs)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	rc, out, _ = runArgs("book", "probe", "--variant", "english", "--book", file)
	if rc != 0 || strings.Count(out, " score=") != 7 {
		t.Errorf("probe of the built book: rc %d\n%s", rc, out)
	}
	if rc, _, errs := runArgs("book", "probe", "--variant", "italian", "--book", file); rc != 1 || !strings.Contains(errs, "for english, not italian") {
		t.Errorf("wrong variant: rc %d, %q", rc, errs)
	}
	if rc, out, _ := runArgs("book", "probe", "--variant", "italian"); rc != 0 || strings.Count(out, " score=") != 7 {
		t.Errorf("probe of the embedded book: rc %d\n%s", rc, out)
	}
	if rc, out, _ := runArgs("book", "probe", "--variant", "italian", "--fen", "W:W32:B1"); rc != 0 || out != "not in the book\n" {
		t.Errorf("probe outside the book: rc %d, %q", rc, out)
	}
}

// TestBookBuildByNodes: a book built with --nodes-per-node is the same
// file on every run (no clock in the search), which a time budget cannot
// promise on a shared machine.
func TestBookBuildByNodes(t *testing.T) {
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		file := filepath.Join(dir, "it"+string(rune('a'+i))+".book")
		if rc, _, errs := runArgs("book", "build", "--variant", "italian", "--positions", "10", "--nodes-per-node", "2000", "--tt-size", "16", "--out", file); rc != 0 {
			t.Fatalf("build: rc %d, %q", rc, errs)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two builds with the same node budget differ")
	}
}
