// Package protocol speaks the Hub protocol (version 2, Scan's "UCI for
// draughts") between a GUI and the search. It reads lines from an io.Reader
// and writes lines to an io.Writer; it never touches the process's standard
// streams, so a whole session can be replayed in a test.
//
// The command loop runs on the caller's goroutine. A search runs on its own
// goroutine; while it runs, ping is answered, stop and ponder-hit are
// passed on, and any other line ends the search (its done line is written)
// before being processed. Bad input gets an error line naming what was
// wrong and leaves the state as it was; errors are never written while a
// search runs.
package protocol

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Version is the engine version reported by the id line.
const Version = "0.1.0"

// MaxLine is the longest line the engine reads; longer lines are answered
// with an error and skipped.
const MaxLine = 1 << 20

// Options configure a Hub session.
type Options struct {
	// Log receives the session's log; zerolog.Nop() (the zero value
	// disables nothing, so pass Nop explicitly) keeps it silent.
	Log zerolog.Logger
	// LogOutput is where log lines go when the log-level parameter turns
	// logging on without a log-file (normally stderr).
	LogOutput io.Writer
	// Args are command-line settings such as "--tt-size=24" (lidraughts-bot
	// passes options that way), applied like set-param; unknown ones are
	// ignored.
	Args []string
}

// Hub is one protocol session.
type Hub struct {
	in   io.Reader
	out  *bufio.Writer
	omu  sync.Mutex
	log  zerolog.Logger
	lout io.Writer
	logf *os.File

	// parameters
	variant  *movegen.Variant
	notation string
	ponder   bool
	threads  int
	ttSize   int
	multiPV  int
	damoni   bool // Damone: capturing all enemy Damoni wins
	logLevel string
	logFile  string

	eng *search.Engine

	wireCache    *wire
	wireVariant  *movegen.Variant
	wireNotation string

	// game state
	posSet  bool
	pos     movegen.Position
	history []uint64 // keys of the positions before pos since the game start
	rev     int      // plies since the last capture or man move
	level   search.Limits
	hasLim  bool

	// running search
	ctl     *search.Control
	results chan searchResult
}

type searchResult struct {
	res search.Result
	pos movegen.Position
	err error
}

// DefaultMoveTime is the thinking time of go think/ponder when no level
// was given.
const DefaultMoveTime = time.Second

// Default parameter values.
const (
	defaultTTSize = 22
	maxThreads    = 64
)

// notations are the values of the notation parameter.
var notations = []string{"pydraughts", "pydraughts-0.5", "official"}

var logLevels = []string{"off", "error", "warn", "info", "debug"}

// NewHub returns a session reading in and writing out.
func NewHub(in io.Reader, out io.Writer, opt Options) *Hub {
	h := &Hub{
		in:       in,
		out:      bufio.NewWriter(out),
		log:      opt.Log,
		lout:     opt.LogOutput,
		variant:  movegen.Italian,
		notation: notations[0],
		threads:  1,
		ttSize:   defaultTTSize,
		multiPV:  1,
		logLevel: "off",
		results:  make(chan searchResult, 1),
	}
	if h.lout == nil {
		h.lout = io.Discard
	}
	for _, a := range opt.Args {
		a = strings.TrimLeft(a, "-")
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		if err := h.setParam(name, value); err != nil {
			h.log.Warn().Err(err).Str("arg", a).Msg("command-line setting ignored")
		}
	}
	return h
}

// send writes one line and flushes it.
func (h *Hub) send(parts ...string) {
	text := strings.Join(parts, " ")
	h.omu.Lock()
	h.out.WriteString(text)
	h.out.WriteByte('\n')
	h.out.Flush()
	h.omu.Unlock()
	h.log.Debug().Str("line", text).Msg("sent")
}

func (h *Hub) sendError(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	h.log.Info().Str("message", msg).Msg("error answered")
	h.send("error", kv("message", msg))
}

// readLines feeds lines to ch until EOF or a read error, then closes it.
// Over-long lines arrive as a marker so the loop can answer an error.
func readLines(r io.Reader, ch chan<- string) {
	defer close(ch)
	br := bufio.NewReaderSize(r, 64*1024)
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			tooLong = true
			buf = buf[:0]
		} else if !tooLong {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(buf) > 0 || tooLong || err == nil {
			if tooLong {
				ch <- "\x00too-long"
			} else {
				ch <- strings.TrimRight(string(buf), "\r\n")
			}
		}
		buf, tooLong = buf[:0], false
		if err != nil {
			return
		}
	}
}

// Run processes the session until quit or end of input.
func (h *Hub) Run() error {
	lines := make(chan string, 16)
	go readLines(h.in, lines)
	defer h.closeLog()
	for {
		select {
		case text, ok := <-lines:
			if !ok {
				h.endSearch()
				return nil
			}
			if h.ctl != nil {
				if !h.duringSearch(text) {
					continue
				}
			}
			if quit := h.handle(text); quit {
				h.endSearch()
				return nil
			}
		case r := <-h.results:
			h.finish(r)
		}
	}
}

// duringSearch handles a line that arrives while a search runs; it returns
// true when the line must then be processed normally (the search has been
// ended first).
func (h *Hub) duringSearch(text string) bool {
	l := parseLine(text)
	switch l.cmd {
	case "ping":
		h.send("pong")
		return false
	case "stop":
		h.ctl.Stop()
		return false
	case "ponder-hit":
		h.ctl.PonderHit()
		return false
	case "":
		return false
	}
	h.endSearch()
	return true
}

// endSearch stops a running search and writes its done line.
func (h *Hub) endSearch() {
	if h.ctl == nil {
		return
	}
	h.ctl.Stop()
	h.finish(<-h.results)
}

// finish writes the done line of a finished search.
func (h *Hub) finish(r searchResult) {
	h.ctl = nil
	h.level, h.hasLim = search.Limits{}, false
	if r.err != nil {
		h.log.Error().Err(r.err).Msg("search failed")
		h.sendError("search failed: %v", r.err)
		return
	}
	if !r.res.HasMove {
		h.sendError("no legal move in this position")
		return
	}
	parts := []string{"done", kv("move", h.moveText(r.res.Move))}
	if r.res.HasPonder {
		parts = append(parts, kv("ponder", h.moveText(r.res.Ponder)))
	}
	h.send(parts...)
}

// handle processes one line while no search runs; it returns true on quit.
func (h *Hub) handle(text string) bool {
	if text == "\x00too-long" {
		h.sendError("line longer than %d bytes ignored", MaxLine)
		return false
	}
	h.log.Debug().Str("line", text).Msg("received")
	l := parseLine(text)
	switch l.cmd {
	case "":
	case "hub":
		h.handshake()
	case "set-param":
		name, _ := l.get("name")
		value, _ := l.get("value")
		if name == "" {
			h.sendError("set-param: missing name")
		} else if err := h.setParam(name, value); err != nil {
			h.sendError("set-param: %v", err)
		}
	case "init":
		h.engine()
		h.send("ready")
	case "new-game":
		h.engine().NewGame()
	case "pos":
		if err := h.setPos(&l); err != nil {
			h.sendError("pos: %v", err)
		}
	case "level":
		if err := h.addLevel(&l); err != nil {
			h.sendError("level: %v", err)
		}
	case "go":
		if err := h.startSearch(&l); err != nil {
			h.sendError("go: %v", err)
		}
	case "ping":
		h.send("pong")
	case "stop", "ponder-hit":
		// nothing to stop: ignored
	case "quit":
		return true
	case "perft":
		if err := h.perft(&l); err != nil {
			h.sendError("perft: %v", err)
		}
	default:
		h.sendError("unknown command %q", truncate(l.cmd, 40))
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// handshake answers hub: id, the parameters, wait.
func (h *Hub) handshake() {
	h.send("id", kv("name", "damaengine"), kv("version", Version), kv("author", "the damaengine developers"))
	names := make([]string, 0)
	for _, v := range movegen.Variants() {
		names = append(names, v.Name)
	}
	h.send("param", kv("name", "variant"), kv("value", h.variant.Name), kv("type", "enum"), kv("values", strings.Join(names, " ")))
	h.send("param", kv("name", "notation"), kv("value", h.notation), kv("type", "enum"), kv("values", strings.Join(notations, " ")))
	h.send("param", kv("name", "ponder"), kv("value", strconv.FormatBool(h.ponder)), kv("type", "bool"))
	h.send("param", kv("name", "threads"), kv("value", strconv.Itoa(h.threads)), kv("type", "int"), kv("min", "1"), kv("max", strconv.Itoa(maxThreads)))
	h.send("param", kv("name", "tt-size"), kv("value", strconv.Itoa(h.ttSize)), kv("type", "int"), kv("min", "16"), kv("max", "30"))
	h.send("param", kv("name", "all-damoni-win"), kv("value", strconv.FormatBool(h.damoni)), kv("type", "bool"))
	h.send("param", kv("name", "multipv"), kv("value", strconv.Itoa(h.multiPV)), kv("type", "int"), kv("min", "1"), kv("max", "16"))
	h.send("param", kv("name", "log-level"), kv("value", h.logLevel), kv("type", "enum"), kv("values", strings.Join(logLevels, " ")))
	h.send("param", kv("name", "log-file"), kv("value", h.logFile), kv("type", "string"))
	h.send("wait")
}

// setParam sets one parameter; an error leaves every parameter as it was.
func (h *Hub) setParam(name, value string) error {
	value = strings.TrimSpace(value)
	intIn := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("%s value %q is not an integer in %d-%d", name, value, lo, hi)
		}
		return n, nil
	}
	switch strings.ToLower(name) {
	case "variant":
		v, err := movegen.Lookup(value)
		if err != nil {
			return err
		}
		h.switchVariant(v.WithDamoniRule(h.damoni))
	case "all-damoni-win":
		b, err := strconv.ParseBool(strings.ToLower(value))
		if err != nil {
			return fmt.Errorf("all-damoni-win value %q is not true or false", value)
		}
		h.damoni = b
		h.switchVariant(h.variant.WithDamoniRule(b))
	case "notation":
		n := strings.ToLower(value)
		for _, x := range notations {
			if x == n {
				h.notation = n
				return nil
			}
		}
		return fmt.Errorf("notation value %q is not one of %s", value, strings.Join(notations, ", "))
	case "ponder":
		b, err := strconv.ParseBool(strings.ToLower(value))
		if err != nil {
			return fmt.Errorf("ponder value %q is not true or false", value)
		}
		h.ponder = b
	case "threads":
		n, err := intIn(1, maxThreads)
		if err != nil {
			return err
		}
		h.threads = n
		if h.eng != nil {
			h.eng.SetThreads(n)
		}
	case "tt-size":
		n, err := intIn(16, 30)
		if err != nil {
			return err
		}
		if n != h.ttSize && h.eng != nil {
			h.eng.SetTableSize(n)
		}
		h.ttSize = n
	case "multipv":
		n, err := intIn(1, 16)
		if err != nil {
			return err
		}
		h.multiPV = n
		if h.eng != nil {
			h.eng.SetMultiPV(n)
		}
	case "log-level":
		lv := strings.ToLower(value)
		ok := false
		for _, x := range logLevels {
			ok = ok || x == lv
		}
		if !ok {
			return fmt.Errorf("log-level value %q is not one of %s", value, strings.Join(logLevels, ", "))
		}
		return h.setLog(lv, h.logFile)
	case "log-file":
		return h.setLog(h.logLevel, value)
	}
	return nil // unknown names are ignored
}

// switchVariant makes v the current variant; a change forgets the
// position and what the engine learnt.
func (h *Hub) switchVariant(v *movegen.Variant) {
	if v == h.variant {
		return
	}
	h.variant = v
	h.posSet = false
	if h.eng != nil {
		h.eng.SetVariant(v)
	}
}

// setLog reconfigures the session log; on error the old one stays.
func (h *Hub) setLog(level, file string) error {
	var w io.Writer = h.lout
	var f *os.File
	if file != "" && level != "off" {
		var err error
		f, err = os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("log-file: %v", err)
		}
		w = f
	}
	h.closeLog()
	h.logf = f
	h.logLevel, h.logFile = level, file
	if level == "off" {
		h.log = zerolog.Nop()
		return nil
	}
	lv, _ := zerolog.ParseLevel(level)
	h.log = zerolog.New(w).Level(lv).With().Timestamp().Logger()
	return nil
}

func (h *Hub) closeLog() {
	if h.logf != nil {
		h.logf.Close()
		h.logf = nil
	}
}

// engine returns the search engine, creating it on first use (init stays
// fast when nothing is needed yet).
func (h *Hub) engine() *search.Engine {
	if h.eng == nil {
		h.eng = search.New(h.variant, h.ttSize)
		h.eng.SetThreads(h.threads)
		h.eng.SetMultiPV(h.multiPV)
	}
	return h.eng
}

// setPos handles pos: pos=P (Hub string, FEN or start) or a bare start,
// then moves="m1 m2 ...". On any error the old position stays.
func (h *Hub) setPos(l *line) error {
	text, ok := l.get("pos")
	if !ok {
		if !l.has("start") {
			return fmt.Errorf("missing pos=")
		}
		text = "start"
	}
	old := h.variant
	if len(text) == movegen.International.Squares+1 && !strings.Contains(text, ":") && h.variant.Squares != movegen.International.Squares {
		// 10x10 clients (the Hub GUI) may never set the variant: a 51-character
		// string means International.
		h.variant = movegen.International
	}
	p, err := h.parsePosition(text)
	if err != nil {
		h.variant = old
		return err
	}
	var history []uint64
	rev := 0
	if ms, ok := l.get("moves"); ok {
		for i, tok := range strings.Fields(ms) {
			m, err := h.parseMove(&p, tok)
			if err != nil {
				h.variant = old
				return fmt.Errorf("moves: move %d: %v", i+1, err)
			}
			history = append(history, p.Key)
			rev = p.NextReversible(m, rev)
			p.Play(m)
		}
	}
	if h.variant != old && h.eng != nil {
		h.eng.SetVariant(h.variant)
	}
	h.pos, h.history, h.rev, h.posSet = p, history, rev, true
	h.level, h.hasLim = search.Limits{}, false
	return nil
}

// wire returns the square and colour mapping of the current variant and
// notation.
func (h *Hub) wire() *wire {
	if h.wireCache == nil || h.wireVariant != h.variant || h.wireNotation != h.notation {
		h.wireCache = newWire(h.variant, h.notation)
		h.wireVariant, h.wireNotation = h.variant, h.notation
	}
	return h.wireCache
}

// parsePosition reads a pos= value: start, a PDN FEN (always in the
// variant's official square names) or a Hub string in the current
// notation.
func (h *Hub) parsePosition(text string) (movegen.Position, error) {
	t := strings.TrimSpace(text)
	switch {
	case strings.EqualFold(t, "start"):
		return h.variant.Start(), nil
	case strings.Contains(t, ":"):
		return h.variant.ParseFEN(t)
	}
	return h.wire().parsePos(h.variant, t)
}

// parseMove reads a move in the current notation.
func (h *Hub) parseMove(p *movegen.Position, text string) (movegen.Move, error) {
	return h.wire().move(h.variant, p, text)
}

// moveText writes a move for the GUI in the current notation (Hub form).
func (h *Hub) moveText(m movegen.Move) string { return h.wire().text(m) }

// addLevel adds the limits of a level line to those already given.
func (h *Hub) addLevel(l *line) error {
	lim := h.level
	for _, a := range l.args {
		secs := func() (time.Duration, error) {
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil || f != f || f > 1e7 || f < -1e7 {
				return 0, fmt.Errorf("%s value %q is not a number of seconds", a.name, a.value)
			}
			return time.Duration(f * float64(time.Second)), nil
		}
		count := func() (int, error) {
			n, err := strconv.Atoi(a.value)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("%s value %q is not a non-negative integer", a.name, a.value)
			}
			return n, nil
		}
		switch a.name {
		case "depth":
			n, err := count()
			if err != nil {
				return err
			}
			lim.Depth = n
		case "nodes":
			n, err := strconv.ParseUint(a.value, 10, 64)
			if err != nil {
				return fmt.Errorf("nodes value %q is not a non-negative integer", a.value)
			}
			lim.Nodes = n
		case "move-time":
			d, err := secs()
			if err != nil {
				return err
			}
			lim.MoveTime = max(d, time.Millisecond)
		case "time":
			d, err := secs()
			if err != nil {
				return err
			}
			lim.Time, lim.HasClock = max(d, 0), true
		case "inc":
			d, err := secs()
			if err != nil {
				return err
			}
			lim.Inc, lim.HasClock = max(d, 0), true
		case "moves":
			n, err := count()
			if err != nil {
				return err
			}
			lim.MovesToGo = n
		case "infinite":
			lim.Infinite = true
		}
	}
	h.level, h.hasLim = lim, true
	return nil
}

// startSearch handles go think|ponder|analyze.
func (h *Hub) startSearch(l *line) error {
	mode := "think"
	if len(l.args) > 0 {
		mode = l.args[0].name
	}
	if mode != "think" && mode != "ponder" && mode != "analyze" {
		return fmt.Errorf("unknown mode %q (think, ponder or analyze)", truncate(mode, 40))
	}
	if !h.posSet {
		return fmt.Errorf("no position: send pos first")
	}
	var ml movegen.MoveList
	h.variant.Generate(&h.pos, &ml)
	if ml.N == 0 {
		return fmt.Errorf("no legal move in this position")
	}
	lim := h.level
	switch {
	case mode == "analyze":
		lim.Infinite = true
	case !h.hasLim:
		lim.MoveTime = DefaultMoveTime // think without a level: a move in a second
	}
	eng := h.engine()
	ctl := search.NewControl(mode == "ponder")
	h.ctl = ctl
	game := search.Game{Pos: h.pos, History: append([]uint64(nil), h.history...), Reversible: h.rev}
	pos := h.pos
	h.log.Info().Str("mode", mode).Str("pos", h.variant.FEN(&pos)).Msg("search started")
	go func() {
		var r searchResult
		r.pos = pos
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("internal error: %v", p)
				r.res = search.Result{}
			}
			h.results <- r
		}()
		r.res = eng.Search(ctl, game, lim, func(in search.Info) { h.sendInfo(&pos, in) })
	}()
	return nil
}

// sendInfo writes an info line from the searching goroutine.
func (h *Hub) sendInfo(root *movegen.Position, in search.Info) {
	p := *root
	pv := make([]string, 0, len(in.PV))
	for _, m := range in.PV {
		pv = append(pv, h.moveText(m))
		p.Play(m)
	}
	secs := in.Time.Seconds()
	nps := 0.0
	if secs > 0 {
		nps = float64(in.Nodes) / secs / 1e6
	}
	h.send("info",
		kv("depth", strconv.Itoa(in.Depth)),
		kv("mean-depth", strconv.FormatFloat(in.MeanDepth, 'f', 1, 64)),
		kv("score", strconv.FormatFloat(float64(in.Score)/100, 'f', 2, 64)),
		kv("nodes", strconv.FormatUint(in.Nodes, 10)),
		kv("time", strconv.FormatFloat(secs, 'f', 3, 64)),
		kv("nps", strconv.FormatFloat(nps, 'f', 2, 64)),
		"pv=\""+strings.Join(pv, " ")+"\"")
}

// perft handles the perft extension: perft depth=N [divide].
func (h *Hub) perft(l *line) error {
	ds, _ := l.get("depth")
	d, err := strconv.Atoi(ds)
	if err != nil || d < 1 || d > 20 {
		return fmt.Errorf("depth value %q is not an integer in 1-20", ds)
	}
	p := h.variant.Start()
	if h.posSet {
		p = h.pos
	}
	pf := movegen.NewPerfter(h.variant)
	start := time.Now()
	var n uint64
	if l.has("divide") {
		for _, e := range pf.Divide(&p, d) {
			h.send("info", kv("move", h.moveText(e.Move)), kv("nodes", strconv.FormatUint(e.Nodes, 10)))
			n += e.Nodes
		}
	} else {
		n = pf.Perft(&p, d)
	}
	el := time.Since(start).Seconds()
	nps := 0.0
	if el > 0 {
		nps = float64(n) / el
	}
	h.send("perft", kv("nodes", strconv.FormatUint(n, 10)), kv("time", strconv.FormatFloat(el, 'f', 3, 64)), kv("nps", strconv.FormatFloat(nps, 'f', 0, 64)))
	return nil
}
