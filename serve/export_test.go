package serve

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 46: damaengine serve --export writes a static site whose engine is
// WebAssembly; the engine, run under node as the page's worker runs it,
// makes a legal move in Italian, International and Turkish, its reports
// streamed while it thinks.
func TestServeExport(t *testing.T) {
	if testing.Short() {
		t.Skip("export test skipped in -short mode (it builds the WebAssembly engine)")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("export test skipped: no go command")
	}
	dir := t.TempDir()
	if err := Export(ExportOptions{Dir: dir, BuildFlags: []string{"-p", "1"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"index.html", "app.js", "rating.js", "style.css", "worker.js", "wasm_exec.js", "engine.wasm"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(index), `<html lang="en" data-engine="wasm">`) {
		t.Errorf("index.html is not marked for the engine in the page")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("the engine's run skipped: node not found")
	}
	out, err := exec.Command(node, "testdata/wasm_node.js", filepath.Join(dir, "wasm_exec.js"), filepath.Join(dir, "engine.wasm"), "play", "italian", "international", "turkish").CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("node printed:\n%s", out)
	}
	for _, l := range lines {
		var r struct {
			Variant, Move         string
			Status, Engine, Plies int
			Infos                 int
			Legal                 bool
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Status != 201 || r.Engine != 200 || !r.Legal || r.Plies != 1 || r.Infos == 0 {
			t.Errorf("%s (%v)", l, err)
		}
	}
}
