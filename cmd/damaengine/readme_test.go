package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Issue 12 point 7: the README's bench example is what bench prints today
// (the node counts; times vary). A change to the search that moves the
// count updates the README with it.
func TestREADMEBenchExample(t *testing.T) {
	if testing.Short() {
		t.Skip("bench at its default depth takes a second or two")
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var out, errb bytes.Buffer
	if rc := run([]string{"bench"}, strings.NewReader(""), &out, &errb); rc != 0 {
		t.Fatalf("bench: rc %d: %s", rc, errb.String())
	}
	// the first position line and the total, without the times
	strip := regexp.MustCompile(` time=\S+ nps=\d+`)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range []string{lines[0], lines[len(lines)-1]} {
		want := strip.ReplaceAllString(l, "")
		found := false
		for _, r := range strings.Split(readme, "\n") {
			found = found || strip.ReplaceAllString(r, "") == want
		}
		if !found {
			t.Errorf("README's bench example lacks %q (bench prints %q)", want, l)
		}
	}
}
