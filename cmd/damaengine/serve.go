package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"time"

	"github.com/damaengine/damaengine/serve"
)

// runServe implements "damaengine serve": the web page where a person plays
// the engine in a browser (package serve), on loopback unless --addr says
// otherwise.
func runServe(c *command, args []string) int {
	addr := c.String("addr", "127.0.0.1:8080", "address to listen on (host:port; loopback by default)")
	maxGames := c.Int("max-games", 16, "games kept at once")
	idle := c.Duration("idle", 30*time.Minute, "a game untouched this long is dropped")
	export := c.String("export", "", "write a static site to this folder instead of serving: the page with the engine compiled to WebAssembly, for any plain file server (builds the engine with the go command: run from damaengine's source tree, or give --wasm)")
	wasm := c.String("wasm", "", "with --export: an engine already built (GOOS=js GOARCH=wasm go build -o engine.wasm ./serve/wasm) to copy")
	wasmExec := c.String("wasm-exec", "", "with --export: Go's wasm_exec.js (default: from $(go env GOROOT)/lib/wasm)")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *export != "" {
		if err := serve.Export(serve.ExportOptions{Dir: *export, WASM: *wasm, WasmExec: *wasmExec}); err != nil {
			return c.fail(1, "%v", err)
		}
		fmt.Fprintf(c.stdout, "damaengine serve: static site written to %s; serve that folder with any file server (python3 -m http.server -d %s) and open it\n", *export, *export)
		return 0
	}
	if *wasm != "" || *wasmExec != "" {
		return c.fail(2, "--wasm and --wasm-exec go with --export")
	}
	if *maxGames < 1 || *maxGames > 1000 {
		return c.fail(2, "--max-games %d out of range 1-1000", *maxGames)
	}
	if *idle <= 0 {
		return c.fail(2, "--idle %v must be positive", *idle)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	// the name given in --addr (not an address) is one the Host header
	// may carry, beside the address itself and localhost
	var hosts []string
	if h, _, err := net.SplitHostPort(*addr); err == nil && h != "" && net.ParseIP(h) == nil {
		hosts = append(hosts, h)
	}
	s := serve.New(serve.Options{MaxGames: *maxGames, IdleTimeout: *idle, Addr: ln.Addr().String(), Hosts: hosts})
	fmt.Fprintf(c.stdout, "damaengine serve: open http://%s/ in a browser (Ctrl-C stops)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := s.Serve(ctx, ln); err != nil {
		return c.fail(1, "%v", err)
	}
	return 0
}
