// Package protocol speaks the Hub protocol (version 2, Scan's "UCI for
// draughts") between a GUI and the search, and DXP between International
// engines. It reads lines from an io.Reader and writes lines to an
// io.Writer; it never writes to the process's standard streams, so a whole
// session can be replayed in a test.
//
// The command loop runs on the caller's goroutine and never waits for the
// search: a search or a perft runs as a task on its own goroutine, and
// calls on the Searcher (a new game clearing a large table, say) run in
// order on another. While a task runs, ping is answered, stop and
// ponder-hit are passed on, and any other line ends a search (its final
// line is written) before being processed, or waits for a perft to end. Lines are written by a writer
// goroutine, so a GUI that reads slowly never holds up the search. Bad
// input gets an error line naming what was wrong and leaves the state as
// it was; errors are never written while a task runs.
package protocol

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/book"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// Version is the engine version reported by the id line.
const Version = "0.2.0"

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
	// Progress receives the progress lines of the endgame tables built in
	// the background (nil: none). They are not protocol lines, and a client
	// that merges stderr into stdout (pydraughts does) would read them as
	// protocol, so the command passes its stderr only when it is a terminal.
	Progress io.Writer
	// Args are command-line settings such as "--tt-size=24" (lidraughts-bot
	// passes options that way), applied like set-param; unknown ones are
	// ignored.
	Args []string
	// Engine builds the search (nil: DefaultSearcher). It is called on
	// first use, so init stays fast.
	Engine NewSearcher
	// Egdb is the default of the egdb parameter. The damaengine binary
	// turns it on; the zero Options leave the tables off, so that tests and
	// other embedders never build tables in the user's cache directory.
	Egdb bool
	// EndGrace bounds the time the lines that waited behind a task take
	// to run once input has ended (0: DefaultEndGrace): a search among them
	// still running then, or starting later, is stopped at once and
	// answers with its best move so far.
	EndGrace time.Duration
}

// DefaultEndGrace is the default of Options.EndGrace: room for a go think
// with no level (DefaultMoveTime) waiting behind a perft.
const DefaultEndGrace = 2 * time.Second

// Hub is one protocol session.
type Hub struct {
	in     io.Reader
	rawOut io.Writer
	out    *output
	log    zerolog.Logger
	lout   io.Writer
	logf   *os.File

	// parameters
	chosen          *movegen.Variant // the variant set (or the default)
	explicitVariant bool             // set by set-param, not by default
	notation        string
	wireHint        string // notation=auto: the pydraughts generation guessed
	ponder          bool
	threads         int
	ttSize          int
	multiPV         int
	damoni          bool // Damone: capturing all enemy Damoni wins
	strength        strength
	logLevel        string
	logFile         string
	initialTime     string
	useBook         bool
	bookPly         int
	bookMargin      int
	bookFile        string
	fileBook        *book.Book // loaded by book-file
	inArgs          bool       // NewHub is applying Options.Args
	evalFile        string     // the eval-file parameter: a weights file in use, or ""
	tables          *tableSet  // the egdb parameters and the tables they load

	newEngine NewSearcher
	jobs      *jobs
	eng       Searcher // used only by jobs
	engMade   bool     // the engine's creation has been queued

	wireCache    *wire
	wireVariant  *movegen.Variant
	wireNotation string

	// game state: the variant in effect (chosen, or International for a
	// 51-character position when none was chosen) and the position
	variant *movegen.Variant
	game    *movegen.Game
	level   search.Limits
	hasLim  bool

	// running task (search or perft)
	task    *task
	results chan func()
	pending []inLine // lines waiting for a perft to finish
	grace   time.Duration
}

// DefaultMoveTime is the thinking time of go think/ponder when no level
// was given.
const DefaultMoveTime = time.Second

// Default parameter values.
const defaultTTSize = 22

// NewHub returns a session reading in and writing out.
func NewHub(in io.Reader, out io.Writer, opt Options) *Hub {
	h := &Hub{
		in:         in,
		rawOut:     out,
		log:        opt.Log,
		lout:       opt.LogOutput,
		chosen:     movegen.Italian,
		notation:   notations[0],
		threads:    1,
		ttSize:     defaultTTSize,
		multiPV:    1,
		strength:   levels[len(levels)-1],
		logLevel:   "off",
		useBook:    true, // measured better than none in Italian and International (docs/testing.md)
		bookPly:    defaultBookPly,
		bookMargin: defaultBookMargin,
		newEngine:  opt.Engine,
		results:    make(chan func(), 1),
		grace:      opt.EndGrace,
	}
	if h.grace <= 0 {
		h.grace = DefaultEndGrace
	}
	if h.newEngine == nil {
		h.newEngine = DefaultSearcher
	}
	if h.lout == nil {
		h.lout = io.Discard
	}
	progress := opt.Progress
	if progress == nil {
		progress = io.Discard
	}
	h.tables = newTableSet(&syncWriter{w: progress})
	h.tables.on = opt.Egdb
	h.variant = h.chosen
	h.game = movegen.NewGame(h.variant, h.variant.Start())
	h.jobs = newJobs()
	h.inArgs = true
	for _, a := range opt.Args {
		a = strings.TrimLeft(a, "-")
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		if err := h.setParam(name, value); err != nil {
			h.log.Warn().Err(err).Str("arg", clip(a, 200)).Msg("command-line setting ignored")
		}
	}
	h.inArgs = false
	return h
}

// send queues one line.
func (h *Hub) send(parts ...string) {
	text := strings.Join(parts, " ")
	h.out.put(text, false)
	h.log.Debug().Str("line", clip(text, 1000)).Msg("sent")
}

func (h *Hub) sendError(format string, a ...any) {
	msg := clip(fmt.Sprintf(format, a...), 1000)
	h.log.Info().Str("message", msg).Msg("error answered")
	h.send("error", kv("message", msg))
}

// inLine is one input line, or the mark of one that was too long.
type inLine struct {
	text    string
	tooLong int // its length when over MaxLine
}

// readLines feeds lines to ch until EOF or a read error, then closes it.
func readLines(r io.Reader, ch chan<- inLine) {
	defer close(ch)
	br := bufioReader(r)
	var buf []byte
	n := 0 // length of the current line
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if n <= MaxLine {
			buf = append(buf, chunk...)
		}
		if err == errBufferFull {
			continue
		}
		if n > 0 || err == nil {
			if n > MaxLine {
				ch <- inLine{tooLong: n}
			} else {
				ch <- inLine{text: strings.TrimRight(string(buf), "\r\n")}
			}
		}
		buf, n = buf[:0], 0
		if err != nil {
			return
		}
	}
}

// Run processes the session until quit or end of input.
func (h *Hub) Run() error {
	h.out = newOutput(h.rawOut)
	defer h.out.close()
	defer h.jobs.stop()
	lines := make(chan inLine, 16)
	go readLines(h.in, lines)
	defer h.closeLog()
	for {
		select {
		case in, ok := <-lines:
			if !ok {
				h.endTask()
				h.drain()
				return nil
			}
			if h.task != nil && !h.duringTask(in) {
				continue
			}
			if quit := h.handle(in); quit {
				h.endTask()
				return nil
			}
		case f := <-h.results:
			h.task = nil
			f()
			if h.runPending() {
				h.endTask()
				return nil
			}
		}
	}
}

// runPending processes the lines that waited for a task, in order, until
// one starts a new task (the rest wait for it in turn; a ponder-hit right
// behind the go ponder it follows is passed on to it). It returns true on
// quit.
func (h *Hub) runPending() bool {
	for len(h.pending) > 0 {
		in := h.pending[0]
		if h.task != nil {
			if h.task.perft || in.tooLong > 0 || parseLine(in.text).cmd != "ponder-hit" {
				return false
			}
			h.task.PonderHit()
			h.pending = h.pending[1:]
			continue
		}
		h.pending = h.pending[1:]
		if h.handle(in) {
			return true
		}
	}
	return false
}

// drain runs, once input has ended, the lines that waited behind the task
// input's end stopped: in order, so that a go gets its done and an init
// its ready, within the end grace: a task still running when it is over,
// or started after it, is stopped at once.
func (h *Hub) drain() {
	if len(h.pending) == 0 {
		return
	}
	deadline := time.NewTimer(h.grace)
	defer deadline.Stop()
	late := false
	for {
		if quit := h.runPending(); quit || h.task == nil {
			h.endTask()
			return
		}
		if late {
			h.task.Stop()
		}
		select {
		case f := <-h.results:
			h.task = nil
			f()
		case <-deadline.C:
			late = true
			h.task.Stop()
		}
	}
}

// task is a running search or perft.
type task struct {
	perft    bool // lines other than stop, ping and quit wait for it
	mu       sync.Mutex
	ctl      *search.Control // the search under way (swapped by a forced move's follow-up)
	stopped  bool
	stopCh   chan struct{}
	hit      chan struct{}
	stopOnce sync.Once
	hitOnce  sync.Once
}

func newTask() *task { return &task{stopCh: make(chan struct{}), hit: make(chan struct{})} }

// Stop ends the task as soon as possible.
func (t *task) Stop() {
	t.stopOnce.Do(func() { close(t.stopCh) })
	t.mu.Lock()
	t.stopped = true
	c := t.ctl
	t.mu.Unlock()
	if c != nil {
		c.Stop()
	}
}

// PonderHit passes ponder-hit on.
func (t *task) PonderHit() {
	t.hitOnce.Do(func() { close(t.hit) })
	t.mu.Lock()
	c := t.ctl
	t.mu.Unlock()
	if c != nil {
		c.PonderHit()
	}
}

// control makes c the task's current search control. A stop or a
// ponder-hit that came before the search took its control (the engine's
// goroutine may start it late on a loaded machine) is passed on here;
// otherwise a ponder search would wait for a ponder-hit already read.
func (t *task) control(c *search.Control) *search.Control {
	t.mu.Lock()
	t.ctl = c
	stopped := t.stopped
	t.mu.Unlock()
	if stopped {
		c.Stop()
	}
	select {
	case <-t.hit:
		c.PonderHit()
	default:
	}
	return c
}

func (t *task) isStopped() bool {
	select {
	case <-t.stopCh:
		return true
	default:
		return false
	}
}

// duringTask handles a line that arrives while a task runs; it returns
// true when the line must then be processed normally (the task has been
// ended first). ping, stop and quit act at once, even behind lines that
// wait for a perft; any other line waits while a perft runs or while
// earlier lines wait (a search is ended first), so lines are processed in
// the order they came.
func (h *Hub) duringTask(in inLine) bool {
	var l line
	if in.tooLong == 0 {
		l = parseLine(in.text)
	}
	waiting := len(h.pending) > 0
	switch l.cmd {
	case "ping":
		h.send("pong")
		return false
	case "stop":
		h.task.Stop()
		return false
	case "quit":
		h.endTask()
		return true
	case "ponder-hit":
		if h.task.perft {
			if waiting {
				h.pending = append(h.pending, in) // for a go ponder that waits
			}
		} else {
			h.task.PonderHit()
		}
		return false
	case "":
		if in.tooLong == 0 {
			return false
		}
		if !h.task.perft && !waiting {
			return false // errors are never written during a search: dropped
		}
	}
	if h.task.perft || waiting {
		if !h.task.perft {
			h.task.Stop()
		}
		h.pending = append(h.pending, in)
		return false
	}
	h.endTask()
	return true
}

// endTask stops a running task and writes its final line.
func (h *Hub) endTask() {
	if h.task == nil {
		return
	}
	h.task.Stop()
	f := <-h.results
	h.task = nil
	f()
}

// withEngine queues f (if not nil) on the engine; the first call queues
// the engine's creation, with the settings made so far, before it.
func (h *Hub) withEngine(f func(Searcher)) {
	if !h.engMade {
		h.engMade = true
		v, tt, threads, mpv := h.variant, h.ttSize, h.threads, h.multiPV
		h.jobs.add(func() {
			h.eng = h.newEngine(v, tt)
			h.eng.SetThreads(threads)
			h.eng.SetMultiPV(mpv)
		})
	}
	if f != nil {
		h.jobs.add(func() { f(h.eng) })
	}
}

// awaitEngine waits until the engine's goroutine has done what is queued
// (at init: making the engine, its table allocated and faulted in), so
// that ready means the first search pays for none of it: about 10 ms for
// the default 64 MiB table, and at times over 100 ms when the kernel
// compacts memory for its huge pages, which inside a search would stall
// it past its time. Only quick work is ever queued when no task runs
// (table builds run on goroutines of their own).
func (h *Hub) awaitEngine() {
	done := make(chan struct{})
	h.jobs.add(func() { close(done) })
	<-done
}

// handle processes one line while no task runs; it returns true on quit.
func (h *Hub) handle(in inLine) bool {
	if in.tooLong > 0 {
		h.sendError("line of %d bytes ignored: longer than %d bytes", in.tooLong, MaxLine)
		return false
	}
	text := in.text
	h.log.Debug().Str("line", clip(text, 1000)).Msg("received")
	if i := strings.IndexByte(text, 0); i >= 0 {
		h.sendError("line ignored: it holds a NUL byte (at byte %d of %d)", i+1, len(text))
		return false
	}
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
		} else if p := lookupParam(name); p != nil && strings.HasPrefix(p.name, "egdb") && h.engMade {
			h.prepareTables() // a bad file is reported now, not at the next go
		}
	case "init":
		h.withEngine(nil)
		h.prepareTables() // a missing set starts building now
		h.awaitEngine()
		h.send("ready")
	case "new-game":
		// Clearing a large table takes time: it runs on the engine's
		// goroutine, and the next search waits for it, not the loop.
		h.withEngine(func(e Searcher) { e.NewGame() })
	case "pos":
		if err := h.setPos(&l); err != nil {
			h.sendError("pos: %v", err)
		}
	case "level":
		if err := h.addLevel(&l); err != nil {
			h.sendError("level: %v", err)
		}
	case "go":
		h.startSearch(&l)
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
		h.sendError("unknown command %s", quoteClip(l.cmd))
	}
	return false
}

// handshake answers hub: id, the parameters, wait.
func (h *Hub) handshake() {
	h.send("id", kv("name", "damaengine"), kv("version", Version), kv("author", "the damaengine developers"))
	for _, p := range params {
		h.send(h.paramLine(p))
	}
	h.send("wait")
}

// choose makes v the chosen variant; a change forgets the position (the
// new variant's start position stands) and what the engine learnt.
func (h *Hub) choose(v *movegen.Variant) {
	h.chosen = v
	h.useVariant(v)
}

// useVariant makes v the variant in effect.
func (h *Hub) useVariant(v *movegen.Variant) {
	if v == h.variant {
		return
	}
	h.variant = v
	h.game = movegen.NewGame(v, v.Start())
	if h.engMade {
		h.withEngine(func(e Searcher) { e.SetVariant(v) })
	}
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
	text = strings.TrimSpace(text)
	// 10x10 clients (the Hub GUI) may never set the variant: a 51-character
	// string means International unless the client chose a variant.
	v := h.chosen
	if len(text) == movegen.International.Squares+1 && !strings.Contains(text, ":") && v.Squares != movegen.International.Squares {
		if h.explicitVariant {
			return fmt.Errorf("a %d-character position string is for a 10x10 board, but variant=%s was set (%d squares)", len(text), v.Name, v.Squares)
		}
		v = movegen.International
	}
	ms, _ := l.get("moves")
	g, err := h.readGame(v, text, strings.Fields(ms))
	if err != nil {
		return err
	}
	h.useVariant(v)
	h.game = g
	h.level, h.hasLim = search.Limits{}, false
	return nil
}

// readGame reads a position and moves for variant v on the current wire.
// With notation=auto, moves that are not legal in pydraughts 0.6 numbering
// but are in 0.5 numbering (or the reverse) switch the guess.
func (h *Hub) readGame(v *movegen.Variant, text string, moves []string) (*movegen.Game, error) {
	try := func(notation string) (*movegen.Game, error) {
		w := h.wireFor(v, notation)
		p, err := parsePosition(v, w, text)
		if err != nil {
			return nil, err
		}
		g := movegen.NewGame(v, p)
		for i, tok := range moves {
			cur := g.Position()
			m, err := w.move(v, &cur, tok)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				return nil, fmt.Errorf("moves: move %d: %v", i+1, clipErr(err))
			}
		}
		return g, nil
	}
	notation := h.wireNotation0()
	g, err := try(notation)
	if err == nil || h.notation != "auto" || len(moves) == 0 {
		return g, err
	}
	other := "pydraughts-0.5"
	if notation == other {
		other = "pydraughts"
	}
	if newWire(v, other).sameMoves(newWire(v, notation)) {
		return g, err
	}
	g2, err2 := try(other)
	if err2 != nil {
		return g, err
	}
	h.log.Info().Str("numbering", other).Msg("notation=auto: the client's moves use this numbering")
	h.wireHint = other
	return g2, nil
}

// wireNotation0 is the notation the wire uses now: the parameter, or
// under auto the guessed pydraughts generation.
func (h *Hub) wireNotation0() string {
	if h.notation != "auto" {
		return h.notation
	}
	if h.wireHint != "" {
		return h.wireHint
	}
	return "pydraughts"
}

// wireFor returns the wire of variant v under notation.
func (h *Hub) wireFor(v *movegen.Variant, notation string) *wire {
	if h.wireCache == nil || h.wireVariant != v || h.wireNotation != notation {
		h.wireCache = newWire(v, notation)
		h.wireVariant, h.wireNotation = v, notation
	}
	return h.wireCache
}

// wire returns the wire of the variant in effect.
func (h *Hub) wire() *wire { return h.wireFor(h.variant, h.wireNotation0()) }

// parsePosition reads a pos= value: start, a PDN FEN (always in the
// variant's official square names) or a Hub string on wire w.
func parsePosition(v *movegen.Variant, w *wire, text string) (movegen.Position, error) {
	t := strings.TrimSpace(text)
	switch {
	case strings.EqualFold(t, "start"):
		return v.Start(), nil
	case strings.Contains(t, ":"):
		p, err := v.ParseFEN(t)
		if err != nil {
			return p, fmt.Errorf("%s", clipErr(err))
		}
		return p, nil
	}
	p, err := w.parsePos(v, t)
	if err != nil {
		return p, fmt.Errorf("%s", clipErr(err))
	}
	return p, nil
}

// levelKeys are the keys a level line takes.
var levelKeys = []string{"depth", "nodes", "move-time", "time", "inc", "moves", "infinite"}

// addLevel adds the limits of a level line to those already given. A line
// with a key it does not know, or that leaves the limits given since the
// last pos or done bounding nothing (a bare level, depth=0, nodes=0, moves=N
// without a clock), is refused: the search it would have set would never end
// by itself.
func (h *Hub) addLevel(l *line) error {
	var unknown []string
	for _, a := range l.args {
		if !slices.Contains(levelKeys, a.name) {
			unknown = append(unknown, quoteClip(a.name))
		}
	}
	if len(unknown) > 0 {
		s := ""
		if len(unknown) > 1 {
			s = "s"
		}
		return fmt.Errorf("unknown key%s %s (known: %s)", s, strings.Join(unknown, ", "), strings.Join(levelKeys, " "))
	}
	lim := h.level
	for _, a := range l.args {
		// secs reads a number of seconds into dst, raised to least if below.
		secs := func(dst *time.Duration, least time.Duration) error {
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil || f != f || f > 1e7 || f < -1e7 {
				return fmt.Errorf("%s value %s is not a number of seconds", a.name, quoteClip(a.value))
			}
			*dst = max(time.Duration(f*float64(time.Second)), least)
			return nil
		}
		count := func(dst *int) error {
			n, err := strconv.Atoi(a.value)
			if err != nil || n < 0 {
				return fmt.Errorf("%s value %s is not a non-negative integer", a.name, quoteClip(a.value))
			}
			*dst = n
			return nil
		}
		var err error
		switch a.name {
		case "depth":
			err = count(&lim.Depth)
		case "nodes":
			if lim.Nodes, err = strconv.ParseUint(a.value, 10, 64); err != nil {
				err = fmt.Errorf("nodes value %s is not a non-negative integer", quoteClip(a.value))
			}
		case "move-time":
			err = secs(&lim.MoveTime, time.Millisecond)
		case "time":
			err, lim.HasClock = secs(&lim.Time, 0), true
		case "inc":
			err, lim.HasClock = secs(&lim.Inc, 0), true
		case "moves":
			err = count(&lim.MovesToGo)
		case "infinite":
			lim.Infinite = true
		}
		if err != nil {
			return err
		}
	}
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 && !lim.HasClock && !lim.Infinite {
		return fmt.Errorf("bounds nothing (depth=0 and nodes=0 are no limit, moves= needs time=); give depth=N, nodes=N, move-time=S, time=S [inc=S] or infinite")
	}
	h.level, h.hasLim = lim, true
	return nil
}

// startSearch handles go think|ponder|analyze. Every go gets exactly one
// done, except when the side to move has no legal move (error: there is
// no move to give).
func (h *Hub) startSearch(l *line) {
	mode := "think"
	if len(l.args) > 0 {
		mode = l.args[0].name
	}
	if mode != "think" && mode != "ponder" && mode != "analyze" {
		h.sendError("go: unknown mode %s (think, ponder or analyze)", quoteClip(mode))
		return
	}
	var ml movegen.MoveList
	v := h.variant
	pos := h.game.Position()
	v.Generate(&pos, &ml)
	if ml.N == 0 {
		h.sendError("go: no legal move in this position")
		return
	}
	if c, b, ok := h.bookChoice(mode, rand.Uint64()); ok {
		h.level, h.hasLim = search.Limits{}, false
		h.playBook(b, c, mode == "ponder")
		return
	}
	lim := h.level
	switch {
	case mode == "analyze":
		lim.Infinite = true
	case !h.hasLim:
		lim.MoveTime = DefaultMoveTime // think without a level: at most a second
	}
	if mode != "analyze" {
		lim = h.strength.limit(lim)
	}
	h.level, h.hasLim = search.Limits{}, false
	h.withEngine(nil)
	t := newTask()
	h.task = t
	game := search.GameOf(h.game)
	w := h.wire()
	st := h.strength
	if mode == "analyze" {
		st = levels[len(levels)-1]
	}
	tabs := h.prepareTables()
	seed := rand.Uint64()
	multi := mode == "analyze" && h.multiPV > 1
	h.log.Info().Str("mode", mode).Str("pos", v.FEN(&game.Pos)).Msg("search started")
	r := &searchRun{h: h, t: t, w: w, v: v, game: game, lim: lim, ponder: mode == "ponder", multi: multi}
	h.jobs.add(func() {
		r.eng = h.eng
		r.eng.SetEval(st.evalFunc(seed))
		if pr, ok := r.eng.(prober); ok {
			pr.SetProbe(tabs.probe, tabs.pieces)
			pr.SetDistance(tabs.dist)
		}
		r.run(ml)
	})
}

// prepareTables returns the endgame tables of the variant in effect for
// the next search (loading them, or starting their build, on first use)
// and sends the error of a file that cannot be used, once.
func (h *Hub) prepareTables() searchTables {
	tabs, msg := h.tables.forSearch(h.variant, h.afterSearches)
	if msg != "" {
		h.sendError("%s", msg)
	}
	return tabs
}

// afterSearches runs f on the engine's goroutine once the searches queued
// so far are done (f itself must not use the engine).
func (h *Hub) afterSearches(f func()) { h.jobs.add(f) }

// perft handles the perft extension: perft depth=N [divide]. It runs as a
// task: stop ends it (the count so far is reported with stopped=true), ping
// is answered, end of input quits.
func (h *Hub) perft(l *line) error {
	ds, _ := l.get("depth")
	d, err := strconv.Atoi(ds)
	if err != nil || d < 1 || d > 20 {
		return fmt.Errorf("depth value %s is not an integer in 1-20", quoteClip(ds))
	}
	p := h.game.Position()
	v := h.variant
	w := h.wire()
	divide := l.has("divide")
	t := newTask()
	t.perft = true
	h.task = t
	go func() {
		pf := movegen.NewPerfter(v)
		start := time.Now()
		var n uint64
		var lines []string
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		stopped := false
		for _, m := range ml.Slice() {
			c := p
			c.Play(m)
			k, whole := stoppablePerft(pf, &c, d-1, t)
			n += k // a stopped count reports the leaves counted so far
			if !whole {
				stopped = true
				break
			}
			if divide {
				lines = append(lines, "info "+kv("move", w.text(m))+" "+kv("nodes", strconv.FormatUint(k, 10)))
			}
		}
		el := time.Since(start).Seconds()
		nps := 0.0
		if el > 0 {
			nps = float64(n) / el
		}
		h.results <- func() {
			for _, s := range lines {
				h.send(s)
			}
			parts := []string{"perft", kv("nodes", strconv.FormatUint(n, 10)), kv("time", strconv.FormatFloat(el, 'f', 3, 64)), kv("nps", strconv.FormatFloat(nps, 'f', 0, 64))}
			if stopped {
				parts = append(parts, kv("stopped", "true"))
			}
			h.send(parts...)
		}
	}()
	return nil
}

// perftChunk is the depth below which perft counts without checking for
// stop (a few milliseconds of work at most).
const perftChunk = 5

// stoppablePerft counts the leaves depth plies below p, checking for stop
// between subtrees of perftChunk plies; whole is false when stop cut it
// short (n is then the leaves counted before).
func stoppablePerft(pf *movegen.Perfter, p *movegen.Position, depth int, t *task) (n uint64, whole bool) {
	if depth <= perftChunk {
		if depth == 0 {
			return 1, true
		}
		return pf.Perft(p, depth), true
	}
	if t.isStopped() {
		return 0, false
	}
	var ml movegen.MoveList
	pf.Variant().Generate(p, &ml)
	for _, m := range ml.Slice() {
		c := *p
		c.Play(m)
		k, w := stoppablePerft(pf, &c, depth-1, t)
		n += k
		if !w {
			return n, false
		}
	}
	return n, true
}
