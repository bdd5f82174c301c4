package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18: "damaengine serve" listens on loopback unless --addr says
// otherwise, and refuses bad flags before it listens.
func TestServeFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"serve", "--help"}, nil, &out, &errb); rc != 0 || !strings.HasPrefix(out.String(), "usage: damaengine serve") ||
		!strings.Contains(out.String(), "(default 127.0.0.1:8080)") {
		t.Errorf("serve --help: rc %d\n%s%s", rc, out.String(), errb.String())
	}
	for _, args := range [][]string{{"--max-games", "0"}, {"--idle", "0s"}, {"--addr", "127.0.0.1:notaport"}, {"--wasm", "x.wasm"}, {"--export", t.TempDir(), "--wasm", "/nonexistent/engine.wasm"}} {
		out.Reset()
		errb.Reset()
		if rc := run(append([]string{"serve"}, args...), nil, &out, &errb); rc == 0 || errb.Len() == 0 {
			t.Errorf("serve %v: rc %d, stderr %q", args, rc, errb.String())
		}
	}
}

// Issue 46: serve --export writes the static site (here with an engine
// given, so nothing is built).
func TestServeExportFlag(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(t.TempDir(), "engine.wasm")
	if err := os.WriteFile(fake, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"serve", "--export", dir, "--wasm", fake}, nil, &out, &errb); rc != 0 || !strings.Contains(out.String(), "static site written to "+dir) {
		t.Fatalf("rc %d\n%s%s", rc, out.String(), errb.String())
	}
	for _, f := range []string{"index.html", "app.js", "worker.js", "rating.js", "wasm_exec.js", "engine.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}
