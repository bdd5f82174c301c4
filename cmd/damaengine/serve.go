package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/damaengine/damaengine/serve"
)

// runServe implements "damaengine serve": the web page where a person plays
// the engine in a browser (package serve), on loopback unless --addr says
// otherwise.
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; loopback by default)")
	maxGames := fs.Int("max-games", 16, "games kept at once")
	idle := fs.Duration("idle", 30*time.Minute, "a game untouched this long is dropped")
	if rc, ok := parseFlags(fs, "damaengine serve [--addr 127.0.0.1:8080] [--max-games N] [--idle D]", args, stdout, stderr); !ok {
		return rc
	}
	if *maxGames < 1 || *maxGames > 1000 {
		return fail(stderr, 2, "serve", "--max-games %d out of range 1-1000", *maxGames)
	}
	if *idle <= 0 {
		return fail(stderr, 2, "serve", "--idle %v must be positive", *idle)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(stderr, 1, "serve", "%v", err)
	}
	srv := &http.Server{
		Handler:           serve.New(serve.Options{MaxGames: *maxGames, IdleTimeout: *idle}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	fmt.Fprintf(stdout, "damaengine serve: open http://%s/ in a browser (Ctrl-C stops)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(stderr, 1, "serve", "%v", err)
	}
	return 0
}
