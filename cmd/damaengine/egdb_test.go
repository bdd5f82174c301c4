package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEgdbCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if rc := run([]string{"egdb", "build", "--variant", "english", "--pieces", "3", "--dir", dir}, nil, &out, &errb); rc != 0 {
		t.Fatalf("build: rc %d: %s", rc, errb.String())
	}
	if !strings.Contains(errb.String(), "positions/s, ETA") {
		t.Errorf("build: no progress line on stderr: %q", errb.String())
	}
	probe := func(fen string) (string, string, int) {
		var out, errb bytes.Buffer
		rc := run([]string{"egdb", "probe", "--variant", "english", "--fen", fen, "--dir", dir}, nil, &out, &errb)
		return out.String(), errb.String(), rc
	}
	if o, e, rc := probe("W:WK1,K2:BK32"); rc != 0 || !strings.HasPrefix(o, "win move=") || !strings.Contains(o, " plies-to-conversion=33\n") {
		t.Errorf("probe 2k-1k: rc %d, %q %q", rc, o, e)
	}
	if o, _, rc := probe("B:WK1,K2:BK32"); rc != 0 || !strings.HasPrefix(o, "loss") {
		t.Errorf("probe 1k-2k: rc %d, %q", rc, o)
	}
	if _, e, rc := probe("W:W1"); rc != 2 || e == "" {
		t.Errorf("bad FEN: rc %d, %q", rc, e)
	}
	if _, e, rc := probe("W:WK1,K2:BK32,K31"); rc != 1 || !strings.Contains(e, "go up to 3") {
		t.Errorf("4 pieces: rc %d, %q", rc, e)
	}
	var vo, ve bytes.Buffer
	if rc := run([]string{"egdb", "verify", "--variant", "english", "--dir", dir}, nil, &vo, &ve); rc != 0 ||
		!strings.Contains(vo.String(), "egdb verify english 2k-1k: 15872 checked (all): win 12830 draw 34 loss 0, capture pending 2016, no position 992, longest distance to conversion 33 plies, bad 0") ||
		!strings.Contains(vo.String(), "tables of up to 3 pieces") || !strings.Contains(vo.String(), "bad 0 (") {
		t.Errorf("verify: rc %d, %q %q", rc, vo.String(), ve.String())
	}
	var so, se bytes.Buffer
	if rc := run([]string{"egdb", "verify", "--variant", "english", "--dir", dir, "--slices", "2k-1k,1k-1m"}, nil, &so, &se); rc != 0 ||
		strings.Count(so.String(), "\n") != 3 || !strings.Contains(so.String(), "egdb verify english 2k-1k: 15872 checked") ||
		!strings.Contains(so.String(), "egdb verify english 1k-1m: ") {
		t.Errorf("verify --slices: rc %d, %q %q", rc, so.String(), se.String())
	}
	so.Reset()
	se.Reset()
	if rc := run([]string{"egdb", "verify", "--variant", "english", "--dir", dir, "--slices", "2k-1k,5k-1k"}, nil, &so, &se); rc != 2 || !strings.Contains(se.String(), `no slice "5k-1k"`) {
		t.Errorf("verify --slices with an unknown slice: rc %d, %q %q", rc, so.String(), se.String())
	}
	var o2, e2 bytes.Buffer
	if rc := run([]string{"egdb", "probe", "--variant", "italian", "--fen", "W:WK1:BK32", "--dir", dir}, nil, &o2, &e2); rc != 1 || !strings.Contains(e2.String(), "missing") {
		t.Errorf("missing tables: rc %d, %q", rc, e2.String())
	}
	// --threads: the same files; out of range refused.
	dir2 := t.TempDir()
	var o3, e3 bytes.Buffer
	if rc := run([]string{"egdb", "build", "--variant", "english", "--pieces", "3", "--dir", dir2, "--threads", "2"}, nil, &o3, &e3); rc != 0 {
		t.Fatalf("build --threads 2: rc %d: %s", rc, e3.String())
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "english"))
	for _, e := range ents {
		a, _ := os.ReadFile(filepath.Join(dir, "english", e.Name()))
		b, err := os.ReadFile(filepath.Join(dir2, "english", e.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("build --threads 2: %s differs (%v)", e.Name(), err)
		}
	}
	if len(ents) == 0 {
		t.Error("build: no files")
	}
	e3.Reset()
	if rc := run([]string{"egdb", "build", "--variant", "english", "--pieces", "3", "--dir", dir2, "--threads", "0"}, nil, &o3, &e3); rc != 2 || !strings.Contains(e3.String(), "--threads 0") {
		t.Errorf("build --threads 0: rc %d, %q", rc, e3.String())
	}
}

func TestHubEgdbSettings(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	for v, want := range map[string]bool{"": true, "on": true, "off": false, "0": false, "False": false} {
		if got := egdbDefault(env(v)); got != want {
			t.Errorf("DAMAENGINE_EGDB=%q: egdb %v, want %v", v, got, want)
		}
	}
	got := hubEgdbArgs([]string{"--egdb-dir=/x", "--tt-size=20", "egdb-cache=8"})
	if strings.Join(got, " ") != "--egdb-path=/x --tt-size=20 egdb-cache=8" {
		t.Errorf("args %q", got)
	}
}
