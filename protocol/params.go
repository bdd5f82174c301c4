package protocol

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// param is one Hub parameter, declared once: the handshake and set-param
// both read this table.
type param struct {
	name string
	kind string // bool, int, enum or string
	// lo and hi bound an int (hi is computed: it may depend on the machine).
	lo int
	hi func() int
	// values lists an enum's values in the handshake; accept, when set,
	// takes other spellings (aliases) and returns the canonical value or
	// an error.
	values func() []string
	accept func(string) (string, error)
	get    func(h *Hub) string
	// set applies a checked value: s is the canonical text, n the integer
	// or boolean (1/0) value.
	set func(h *Hub, s string, n int) error
	// help is the sentence --help prints.
	help string
}

// maxParamValue is the longest parameter value accepted (a path, say).
const maxParamValue = 4096

// ttEntryBytes is the size of one table entry.
const ttEntryBytes = 16

// MinTTSize is the smallest tt-size accepted (log2 of entries).
const MinTTSize = 16

// maxThreads is the most search threads the Hub accepts: one per core
// (the Lazy SMP search gains nothing beyond, and stop and time limits stay
// tight when threads do not wait for a core).
func maxThreads() int { return min(max(runtime.NumCPU(), 1), 64) }

// ensureProcs gives the Go scheduler a processor beyond n search threads.
// With every processor running a search thread, a line read from the
// GUI's pipe waits until the scheduler preempts one (about 10 ms each
// time: stop took 25 ms, median, at threads=2 on 2 cores), so the
// command loop, the reader and the writer get one of their own.
func ensureProcs(n int) {
	if runtime.GOMAXPROCS(0) <= n {
		runtime.GOMAXPROCS(n + 1)
	}
}

// memInfo reads a field of /proc/meminfo in bytes (0 when unknown).
var memInfo = func(field string) uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		fs := strings.Fields(rest)
		if len(fs) == 0 {
			return 0
		}
		n, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			return 0
		}
		return n * 1024
	}
	return 0
}

// maxTTSize is the largest tt-size the machine can hold: a table of at
// most half the physical memory (2^26 entries, 1 GiB, when the memory is
// unknown), never above 2^30 entries.
func maxTTSize() int {
	total := memInfo("MemTotal")
	if total == 0 {
		return 26
	}
	n := MinTTSize
	for n < 30 && uint64(ttEntryBytes)<<(n+1) <= total/2 {
		n++
	}
	return n
}

// ttBytes is the memory of a table of 2^log2 entries.
func ttBytes(log2 int) uint64 { return uint64(ttEntryBytes) << log2 }

// gib formats a byte count.
func gib(b uint64) string {
	if b >= 1<<30 {
		return strconv.FormatFloat(float64(b)/(1<<30), 'f', 1, 64) + " GiB"
	}
	return strconv.FormatUint(b>>20, 10) + " MiB"
}

var notations = []string{"auto", "pydraughts", "pydraughts-0.5", "official"}

var logLevels = []string{"off", "error", "warn", "info", "debug"}

func fixed(v ...string) func() []string { return func() []string { return v } }

func boolText(b bool) string { return strconv.FormatBool(b) }

// params is the parameter table, in handshake order.
var params = []*param{
	{
		name: "variant", kind: "enum",
		values: func() []string {
			var names []string
			for _, v := range movegen.Variants() {
				names = append(names, v.Name)
			}
			return names
		},
		accept: func(s string) (string, error) {
			v, err := movegen.Lookup(s)
			if err != nil {
				return "", err
			}
			return v.Name, nil
		},
		get: func(h *Hub) string { return h.chosen.Name },
		set: func(h *Hub, s string, _ int) error {
			v, _ := movegen.Lookup(s)
			h.explicitVariant = true
			h.choose(v.WithDamoniRule(h.damoni))
			return nil
		},
		help: "rule set (aliases such as normal, american, shashki accepted)",
	},
	{
		name: "notation", kind: "enum", values: fixed(notations...),
		get:  func(h *Hub) string { return h.notation },
		set:  func(h *Hub, s string, _ int) error { h.notation = s; return nil },
		help: "square numbering on the wire: auto (pydraughts 0.6, or 0.5 when the client's moves or its initial-time say so), pydraughts, pydraughts-0.5, official",
	},
	{
		name: "ponder", kind: "bool",
		get:  func(h *Hub) string { return boolText(h.ponder) },
		set:  func(h *Hub, _ string, n int) error { h.ponder = n == 1; return nil },
		help: "think on the opponent's time (go ponder)",
	},
	{
		name: "threads", kind: "int", lo: 1, hi: maxThreads,
		get: func(h *Hub) string { return strconv.Itoa(h.threads) },
		set: func(h *Hub, _ string, n int) error {
			h.threads = n
			ensureProcs(n)
			h.withEngine(func(e Searcher) { e.SetThreads(n) })
			return nil
		},
		help: "search threads, at most one per core",
	},
	{
		name: "tt-size", kind: "int", lo: MinTTSize, hi: maxTTSize,
		get: func(h *Hub) string { return strconv.Itoa(h.ttSize) },
		set: func(h *Hub, _ string, n int) error {
			if n == h.ttSize {
				return nil
			}
			need := ttBytes(n)
			held := uint64(0) // the current table, freed once the new one exists
			if h.engMade {
				held = ttBytes(h.ttSize)
			}
			if avail := memInfo("MemAvailable"); avail > 0 && need > avail+held {
				return fmt.Errorf("tt-size %d needs %s but only %s of memory is available; the table stays at %d", n, gib(need), gib(avail), h.ttSize)
			}
			h.ttSize = n
			h.withEngine(func(e Searcher) { e.SetTableSize(n) })
			return nil
		},
		help: "transposition table, log2 of 16-byte entries (22 = 64 MiB, 24 = 256 MiB, 26 = 1 GiB); at most half the machine's memory",
	},
	{
		name: "all-damoni-win", kind: "bool",
		get: func(h *Hub) string { return boolText(h.damoni) },
		set: func(h *Hub, _ string, n int) error {
			h.damoni = n == 1
			h.choose(h.chosen.WithDamoniRule(h.damoni))
			return nil
		},
		help: "Damone: capturing every enemy Damone wins",
	},
	{
		name: "multipv", kind: "int", lo: 1, hi: func() int { return 16 },
		get: func(h *Hub) string { return strconv.Itoa(h.multiPV) },
		set: func(h *Hub, _ string, n int) error {
			h.multiPV = n
			h.withEngine(func(e Searcher) { e.SetMultiPV(n) })
			return nil
		},
		help: "lines reported by go analyze (each info then carries multipv=N)",
	},
	{
		name: "level", kind: "enum", values: func() []string { return levelNames },
		get:  func(h *Hub) string { return h.strength.name },
		set:  func(h *Hub, s string, _ int) error { h.strength = levelByName(s); return nil },
		help: "playing strength: 1 (weakest) to 8, or max (full strength)",
	},
	{
		name: "book", kind: "bool",
		get:  func(h *Hub) string { return boolText(h.useBook) },
		set:  func(h *Hub, _ string, n int) error { h.useBook = n == 1; return nil },
		help: "play book moves in the opening (go think and go ponder; never go analyze)",
	},
	{
		name: "book-ply", kind: "int", lo: 0, hi: func() int { return maxBookPly },
		get:  func(h *Hub) string { return strconv.Itoa(h.bookPly) },
		set:  func(h *Hub, _ string, n int) error { h.bookPly = n; return nil },
		help: "the book is probed while fewer plies than this have been played in the game (the moves of pos)",
	},
	{
		name: "book-margin", kind: "int", lo: 0, hi: func() int { return maxBookMargin },
		get:  func(h *Hub) string { return strconv.Itoa(h.bookMargin) },
		set:  func(h *Hub, _ string, n int) error { h.bookMargin = n; return nil },
		help: "book moves up to this many centi-men below the best may be chosen, the likelier the closer (0: the best only)",
	},
	{
		name: "book-file", kind: "string",
		get:  func(h *Hub) string { return h.bookFile },
		set:  func(h *Hub, s string, _ int) error { return h.setBookFile(s) },
		help: "a book file made by damaengine book build, used instead of the embedded book (empty: the embedded book)",
	},
	{
		name: "log-level", kind: "enum", values: fixed(logLevels...),
		get:  func(h *Hub) string { return h.logLevel },
		set:  func(h *Hub, s string, _ int) error { return h.setLog(s, h.logFile) },
		help: "off, error, warn, info or debug (to stderr or log-file, never to stdout)",
	},
	{
		name: "log-file", kind: "string",
		get:  func(h *Hub) string { return h.logFile },
		set:  func(h *Hub, s string, _ int) error { return h.setLog(h.logLevel, s) },
		help: "file the log is appended to (empty: stderr)",
	},
	{
		name: "initial-time", kind: "string",
		get: func(h *Hub) string { return h.initialTime },
		set: func(h *Hub, s string, _ int) error {
			// lidraughts-bot sends it; that bot pins pydraughts 0.5.
			h.initialTime = s
			h.wireHint = "pydraughts-0.5"
			return nil
		},
		help: "the game's starting clock as lidraughts-bot sends it; informational (it marks a pydraughts-0.5 client for notation=auto)",
	},
	{
		name: "eval-file", kind: "string",
		get: func(h *Hub) string { return h.evalFile },
		set: func(h *Hub, s string, _ int) error {
			if s == "" {
				for _, v := range movegen.RuleSets() {
					eval.ResetWeights(v)
				}
				h.evalFile = ""
				return nil
			}
			f, err := os.Open(s)
			if err != nil {
				return fmt.Errorf("eval-file: %v", err)
			}
			defer f.Close()
			if _, err := eval.LoadWeightsFile(f); err != nil {
				return fmt.Errorf("eval-file: %s: %v", s, err) // the weights in use stay
			}
			h.evalFile = s
			return nil
		},
		help: "learned-evaluation weights file (made by damaengine tune) for the variant it names; empty: the embedded weights",
	},
	{
		name: "egdb", kind: "bool",
		get: func(h *Hub) string { return boolText(h.tables.on) },
		set: func(h *Hub, _ string, n int) error {
			if on := n == 1; on != h.tables.on {
				h.tables.on = on
				h.tables.reset(h.afterSearches)
			}
			return nil
		},
		help: "endgame tables: probed by the search, and built in the background into egdb-path when missing (up to 5 pieces in Italian, 4 on the other 32-square boards, 3 on Turkish and International)",
	},
	{
		name: "egdb-path", kind: "string",
		get: func(h *Hub) string { return h.tables.path },
		set: func(h *Hub, s string, _ int) error {
			if err := checkDir(s); err != nil {
				return err
			}
			if s != h.tables.path {
				h.tables.path = s
				h.tables.reset(h.afterSearches)
			}
			return nil
		},
		help: "directory of the endgame tables (damaengine egdb build --dir); empty: damaengine/egdb in the user cache directory",
	},
	{
		name: "egdb-cache", kind: "int", lo: 1, hi: func() int { return maxEgdbCache },
		get: func(h *Hub) string { return strconv.Itoa(h.tables.cacheMB) },
		set: func(h *Hub, _ string, n int) error {
			if n != h.tables.cacheMB {
				h.tables.cacheMB = n
				h.tables.reset(h.afterSearches)
			}
			return nil
		},
		help: "megabytes of decompressed endgame-table blocks cached per variant in use",
	},
}

// lookupParam finds a parameter by name, any case.
func lookupParam(name string) *param {
	for _, p := range params {
		if strings.EqualFold(p.name, name) {
			return p
		}
	}
	return nil
}

// paramLine is the handshake line of p.
func (h *Hub) paramLine(p *param) string {
	parts := []string{"param", kv("name", p.name), kv("value", clip(p.get(h), 256)), kv("type", p.kind)}
	switch p.kind {
	case "int":
		parts = append(parts, kv("min", strconv.Itoa(p.lo)), kv("max", strconv.Itoa(p.hi())))
	case "enum":
		parts = append(parts, kv("values", strings.Join(p.values(), " ")))
	}
	return strings.Join(parts, " ")
}

// ParamHelp describes every Hub parameter, one per line, for --help.
func ParamHelp() string {
	var sb strings.Builder
	for _, p := range params {
		fmt.Fprintf(&sb, "  %-15s %s", p.name, p.kind)
		switch p.kind {
		case "int":
			fmt.Fprintf(&sb, " %d-%d", p.lo, p.hi())
		case "enum":
			fmt.Fprintf(&sb, " (%s)", strings.Join(p.values(), " "))
		}
		fmt.Fprintf(&sb, "\n      %s\n", p.help)
	}
	return sb.String()
}

// setParam checks a value against the table and applies it; an error
// leaves every parameter as it was. Unknown names are ignored.
func (h *Hub) setParam(name, value string) error {
	p := lookupParam(name)
	if p == nil {
		return fmt.Errorf("unknown parameter %s (the handshake lists them)", quoteClip(name))
	}
	value = strings.TrimSpace(value)
	if len(value) > maxParamValue {
		return fmt.Errorf("%s value of %d bytes is too long (at most %d)", p.name, len(value), maxParamValue)
	}
	n := 0
	switch p.kind {
	case "bool":
		b, err := strconv.ParseBool(strings.ToLower(value))
		if err != nil {
			return fmt.Errorf("%s value %s is not true or false", p.name, quoteClip(value))
		}
		if b {
			n = 1
		}
	case "int":
		var err error
		n, err = strconv.Atoi(value)
		if err != nil || n < p.lo || n > p.hi() {
			why := ""
			if err == nil && n > p.hi() {
				switch p.name {
				case "threads":
					why = fmt.Sprintf(" (this machine has %d cores)", runtime.NumCPU())
				case "tt-size":
					why = fmt.Sprintf(" (2^%d entries is %s, half this machine's memory)", p.hi(), gib(ttBytes(p.hi())))
				}
			}
			return fmt.Errorf("%s value %s is not an integer in %d-%d%s", p.name, quoteClip(value), p.lo, p.hi(), why)
		}
	case "enum":
		if p.accept != nil {
			s, err := p.accept(value)
			if err != nil {
				return fmt.Errorf("%s", clipErr(err))
			}
			value = s
			break
		}
		found := false
		for _, x := range p.values() {
			if strings.EqualFold(x, value) {
				value, found = x, true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s value %s is not one of %s", p.name, quoteClip(value), strings.Join(p.values(), ", "))
		}
	}
	return p.set(h, value, n)
}

// isProtocolOutput reports whether path names the process's standard
// output (or the session's output file).
func (h *Hub) isProtocolOutput(path string) bool {
	switch path {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "-":
		return true
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if f, ok := h.rawOut.(*os.File); ok {
		if o, err := f.Stat(); err == nil && os.SameFile(fi, o) {
			return true
		}
	}
	if o, err := os.Stdout.Stat(); err == nil && os.SameFile(fi, o) {
		return true
	}
	return false
}

// setLog reconfigures the session log; on error the old one stays.
func (h *Hub) setLog(level, file string) error {
	var w io.Writer = h.lout
	var f *os.File
	if file != "" && level != "off" {
		if h.isProtocolOutput(file) {
			return fmt.Errorf("log-file %s is the protocol's own output (stdout); choose a file or leave it empty for stderr", quoteClip(file))
		}
		var err error
		f, err = os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("log-file: %v", clipErr(err))
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

// clip shortens s to at most n bytes, saying how long it was.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}

// quoteClip quotes a value received from the client for an error message,
// clipped to 64 bytes.
func quoteClip(s string) string {
	if len(s) > 64 {
		return strconv.Quote(s[:64]) + "...(" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strconv.Quote(s)
}

// clipErr bounds an error text that may hold client input.
func clipErr(err error) string { return clip(err.Error(), 200) }
