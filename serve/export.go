package serve

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ExportOptions says how Export writes the static site.
type ExportOptions struct {
	// Dir is the folder written (created if missing).
	Dir string
	// WASM is an engine already built (GOOS=js GOARCH=wasm go build
	// ./serve/wasm) to copy; "" builds it with the go command, which needs
	// damaengine's source: run from its tree.
	WASM string
	// WasmExec is Go's wasm_exec.js, the loader that matches the Go that
	// built the engine; "" takes it from $(go env GOROOT)/lib/wasm (or
	// misc/wasm before Go 1.24).
	WasmExec string
	// BuildFlags are more flags for go build (such as -p 1).
	BuildFlags []string
}

// EnginePackage is the engine built for the static site.
const EnginePackage = "github.com/damaengine/damaengine/serve/wasm"

// Export writes a static site that plays every variant and level with the
// engine in the page: the page and its assets (index.html marked to talk to
// the worker), worker.js, engine.wasm (serve/wasm: this package's handlers
// compiled to WebAssembly) and wasm_exec.js. Any plain file server serves
// it; no damaengine process is needed. No endgame tables or opening book go
// in: the served mode uses none either.
func Export(opt ExportOptions) error {
	if opt.Dir == "" {
		return fmt.Errorf("export: no folder given")
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return err
	}
	sub, _ := fs.Sub(static, "static")
	err := fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, path)
		if err != nil {
			return err
		}
		if path == "index.html" {
			b = bytes.Replace(b, []byte(`<html lang="en">`), []byte(`<html lang="en" data-engine="wasm">`), 1)
		}
		return os.WriteFile(filepath.Join(opt.Dir, path), b, 0o644)
	})
	if err != nil {
		return err
	}
	execJS := opt.WasmExec
	if execJS == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return fmt.Errorf("export: go env GOROOT: %v (give the loader with --wasm-exec)", err)
		}
		root := strings.TrimSpace(string(out))
		execJS = filepath.Join(root, "lib", "wasm", "wasm_exec.js")
		if _, err := os.Stat(execJS); err != nil {
			execJS = filepath.Join(root, "misc", "wasm", "wasm_exec.js")
		}
	}
	if err := copyFile(execJS, filepath.Join(opt.Dir, "wasm_exec.js")); err != nil {
		return fmt.Errorf("export: wasm_exec.js: %v", err)
	}
	dst := filepath.Join(opt.Dir, "engine.wasm")
	if opt.WASM != "" {
		return copyFile(opt.WASM, dst)
	}
	abs, err := filepath.Abs(dst)
	if err != nil {
		return err
	}
	args := append([]string{"build"}, opt.BuildFlags...)
	args = append(args, "-trimpath", "-ldflags=-s -w", "-o", abs, EnginePackage)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("export: building the engine (GOOS=js GOARCH=wasm go build %s) needs damaengine's source tree as the current folder, or give a built engine with --wasm: %v\n%s", EnginePackage, err, out)
	}
	return nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
