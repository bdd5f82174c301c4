package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/protocol"
	"github.com/damaengine/damaengine/search"
)

// runDXP implements "damaengine dxp": International draughts over DXP, as a
// server (--listen, loopback by default) or a client (--connect), as the
// initiator of the games (--initiator) or the follower. A server keeps
// listening until interrupted: it serves up to --max-peers connections at
// once, each with its own engine (a dropped or silent peer is logged and
// its game saved as unfinished), and prints "dxp games=N" after each
// connection.
func runDXP(c *command, args []string) int {
	listen := c.String("listen", "127.0.0.1:"+strconv.Itoa(protocol.DXPPort), "address to listen on (server)")
	connect := c.String("connect", "", "host:port to connect to (client); empty: be the server")
	initiator := c.Bool("initiator", false, "send the game requests")
	games := c.Int("games", 1, "games to request (initiator)")
	minutes := c.Int("minutes", 5, "minutes per game to request (initiator)")
	moves := c.Int("moves", 0, "moves in that time (0: the whole game)")
	moveTime := c.Float64("movetime", 0, "cap on the seconds per move (0: none)")
	pdnFile := c.pdnFlag("append every game to this PDN file", true)
	name := c.String("name", "damaengine", "name sent to the peer")
	ttSize := c.Int("tt-size", 22, "table size, log2 of entries")
	logLevel := c.String("log-level", "warn", "off, error, warn, info or debug (to stderr; warn: dropped peers and malformed messages)")
	maxPeers := c.Int("max-peers", 4, "connections a server plays at once, each with its own engine (more are refused)")
	idle := c.Duration("idle", 2*time.Minute, "a peer silent this long outside its move is dropped")
	moveWait := c.Duration("move-wait", 10*time.Minute, "a peer that takes longer than this over a move is dropped")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	if *games < 1 || *minutes < 1 || *minutes > 999 || *moves < 0 || *moves > 999 || *moveTime < 0 {
		return c.fail(2, "--games ≥ 1, --minutes 1-999, --moves 0-999, --movetime ≥ 0")
	}
	if *maxPeers < 1 || *maxPeers > 64 || *idle <= 0 || *moveWait <= 0 {
		return c.fail(2, "--max-peers 1-64, --idle and --move-wait positive")
	}
	log := zerolog.Nop()
	if *logLevel != "off" {
		lv, err := zerolog.ParseLevel(*logLevel)
		if err != nil {
			return c.fail(2, "--log-level %q: %v", *logLevel, err)
		}
		log = zerolog.New(c.stderr).Level(lv).With().Timestamp().Logger()
	}
	pdnOut, closePDN, err := pdnFile.open()
	if err != nil {
		return c.fail(2, "%v", err)
	}
	defer closePDN()
	newEngine := func() protocol.Searcher { return search.New(movegen.International, *ttSize) }
	cfg := protocol.DXPConfig{
		Name: *name, Initiator: *initiator, Games: *games, Minutes: *minutes, Moves: *moves,
		MoveTime: seconds(*moveTime), PDN: pdnOut, Log: log, Timeout: *moveWait, IdleTimeout: *idle,
	}
	if *connect == "" {
		// Server: serve one connection after another until interrupted.
		ln, err := net.Listen("tcp", *listen)
		if err != nil {
			return c.fail(1, "%v", err)
		}
		log.Info().Str("addr", ln.Addr().String()).Msg("dxp: listening")
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
		go func() { <-sig; ln.Close() }()
		total := 0
		err = protocol.ServeDXP(ln, protocol.DXPServer{Config: cfg, NewEngine: newEngine, MaxPeers: *maxPeers, Games: func(n int) {
			total += n
			fmt.Fprintf(c.stdout, "dxp games=%d\n", total)
		}})
		if err != nil {
			return c.fail(1, "%v", err)
		}
		return 0
	}
	conn, err := net.DialTimeout("tcp", *connect, 10*time.Second)
	if err != nil {
		return c.fail(1, "%v", err)
	}
	defer conn.Close()
	cfg.Engine = newEngine()
	d := protocol.NewDXP(conn, cfg)
	if err := d.Run(); err != nil {
		return c.fail(1, "%v", err)
	}
	fmt.Fprintf(c.stdout, "dxp games=%d\n", d.Games())
	return 0
}
