package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/damaengine/damaengine/bench"
)

// The shared flag groups: each parses what it declares into what the
// packages take, or says what is wrong in the words the subcommands print.
func TestSharedFlags(t *testing.T) {
	c := newCommand("test", "test", nil, io.Discard, io.Discard)
	limit := c.limitFlags()
	engines := c.engineFlags()
	at := c.positionFlags(fenStartHelp)
	pdn := c.pdnFlag("games", false)
	if _, ok := c.parse([]string{"--tc", "10+0.5", "--engine1", `a "b c"`, "--engine2", "d", "--engine-option", "x=1", "--engine-option", "y=",
		"--variant", "russian", "--fen", "W:Wa1:Bh8"}); !ok {
		t.Fatal("parse failed")
	}
	if lim, err := limit.limit(); err != nil || lim != (bench.Limit{Base: 10 * time.Second, Inc: 500 * time.Millisecond}) {
		t.Errorf("--tc 10+0.5: %+v, %v", lim, err)
	}
	es, err := engines.engines()
	if err != nil || strings.Join(es[0].Command, "|") != "a|b c" || strings.Join(es[1].Command, "|") != "d" ||
		len(es[1].Options) != 2 || es[1].Options[0] != [2]string{"x", "1"} || es[0].Options[1] != [2]string{"y", ""} {
		t.Errorf("engines: %+v, %v", es, err)
	}
	v, p, err := at.position()
	if err != nil || v.Name != "russian" || v.FEN(&p) != "W:Wa1:Bh8" {
		t.Errorf("position: %v %v", v, err)
	}
	if w, closeIt, err := pdn.open(); w != nil || err != nil || closeIt() != nil {
		t.Errorf("no --pdn: %v, %v", w, err)
	}

	for _, tc := range []struct {
		args []string
		want string // the error, "" for none
	}{
		{[]string{"--depth", "3"}, ""},
		{[]string{"--nodes", "5000"}, ""},
		{[]string{"--movetime", "0.1"}, ""},
		{[]string{"--tc", "10"}, ""},
		{nil, "give exactly one limit"},
		{[]string{"--depth", "3", "--nodes", "5"}, "give exactly one limit"},
		{[]string{"--movetime", "-1"}, "give exactly one limit"},
		{[]string{"--depth", "3", "--tc", "1+x"}, `--tc "1+x": want BASE+INC`},
		{[]string{"--tc", "0+1"}, `--tc "0+1"`},
		{[]string{"--tc", "1+-1"}, `--tc "1+-1"`},
	} {
		c := newCommand("test", "test", nil, io.Discard, io.Discard)
		limit := c.limitFlags()
		if _, ok := c.parse(tc.args); !ok {
			t.Fatalf("%v: parse failed", tc.args)
		}
		_, err := limit.limit()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}

	for _, args := range [][]string{
		{"--engine1", `a "b`, "--engine2", "d"},
		{"--engine1", "a", "--engine2", ""},
		{"--engine1", "a", "--engine2", "d", "--engine-option", "x"},
		{"--engine1", "a", "--engine2", "d", "--engine-option", "=1"},
	} {
		c := newCommand("test", "test", nil, io.Discard, io.Discard)
		engines := c.engineFlags()
		c.parse(args)
		if _, err := engines.engines(); err == nil || !strings.HasPrefix(err.Error(), "--engine") {
			t.Errorf("%v: %v, want an --engine error", args, err)
		}
	}

	// --pdn: created afresh, or appended to.
	file := filepath.Join(t.TempDir(), "g.pdn")
	for i, appendTo := range []bool{false, true, false, true} {
		c := newCommand("test", "test", nil, io.Discard, io.Discard)
		pdn := c.pdnFlag("games", appendTo)
		c.parse([]string{"--pdn", file})
		w, closeIt, err := pdn.open()
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "x")
		closeIt()
		if b, _ := os.ReadFile(file); string(b) != []string{"x", "xx", "x", "xx"}[i] {
			t.Errorf("write %d (append %v): file %q", i, appendTo, b)
		}
	}
	c = newCommand("test", "test", nil, io.Discard, io.Discard)
	pdn = c.pdnFlag("games", true)
	c.parse([]string{"--pdn", filepath.Join(file, "no-dir", "g.pdn")})
	if _, _, err := pdn.open(); err == nil || !strings.HasPrefix(err.Error(), "--pdn: ") {
		t.Errorf("unwritable --pdn: %v", err)
	}
}
