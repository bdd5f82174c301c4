package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
)

// The flags that several subcommands share are declared here, each once,
// with what turns their values into what the packages take: the rule set
// (--variant) and a position of it (--fen), the thinking limit of a move
// (--depth, --nodes, --movetime, --tc), the engines of a match (--engine1,
// --engine2, --engine-option) and the PDN file games go to (--pdn). A
// subcommand declares its own flags beside them on its command.

// variantFlag declares --variant, the rule set, Italian by default.
func (c *command) variantFlag() *string { return c.String("variant", "italian", "rule set") }

// rulesFlag is variantFlag for the subcommands that also take
// "damone-all-damoni" (see parseRules).
func (c *command) rulesFlag() *string {
	return c.String("variant", "italian", "rule set (or damone-all-damoni: Damone with the all-Damoni rule)")
}

// parseVariant parses the flags (see parse), then looks up the variant
// that name (the --variant flag) names; ok false means stop with rc.
func (c *command) parseVariant(args []string, name *string) (v *movegen.Variant, rc int, ok bool) {
	return c.parseLookup(args, name, movegen.Lookup)
}

// parseRules is parseVariant that also takes "damone-all-damoni", the
// rule sets the tuner makes files for (movegen.LookupRules).
func (c *command) parseRules(args []string, name *string) (v *movegen.Variant, rc int, ok bool) {
	return c.parseLookup(args, name, movegen.LookupRules)
}

func (c *command) parseLookup(args []string, name *string, lookup func(string) (*movegen.Variant, error)) (v *movegen.Variant, rc int, ok bool) {
	if rc, ok := c.parse(args); !ok {
		return nil, rc, false
	}
	v, err := lookup(*name)
	if err != nil {
		return nil, c.fail(2, "%v", err), false
	}
	return v, 0, true
}

// fenStartHelp is the help of --fen where it is the position a subcommand
// starts from.
const fenStartHelp = "start position (PDN FEN or Hub string; default: the variant's start)"

// positionFlags are --variant and --fen: a rule set and a position of it.
type positionFlags struct{ variant, fen *string }

// positionFlags declares --variant and --fen, the latter with fenHelp.
func (c *command) positionFlags(fenHelp string) positionFlags {
	return positionFlags{variant: c.variantFlag(), fen: c.String("fen", "", fenHelp)}
}

// position returns the variant --variant names and the position --fen
// gives (PDN FEN or Hub string; the variant's start when --fen is empty).
func (f positionFlags) position() (*movegen.Variant, movegen.Position, error) {
	v, err := movegen.Lookup(*f.variant)
	if err != nil {
		return nil, movegen.Position{}, err
	}
	if *f.fen == "" {
		return v, v.Start(), nil
	}
	p, err := v.ParsePosition(*f.fen)
	return v, p, err
}

// limitFlags are the thinking limit of every move of a match: a depth, a
// node count, a time per move or a clock; exactly one is given.
type limitFlags struct {
	depth    *int
	nodes    *uint64
	moveTime *float64
	tc       *string
}

// limitFlags declares --depth, --nodes, --movetime and --tc.
func (c *command) limitFlags() limitFlags {
	return limitFlags{
		depth:    c.Int("depth", 0, "limit: depth per move"),
		nodes:    c.Uint64("nodes", 0, "limit: nodes per move"),
		moveTime: c.Float64("movetime", 0, "limit: seconds per move"),
		tc:       c.String("tc", "", "limit: clock BASE+INC in seconds, e.g. 10+0.1"),
	}
}

// limit returns the one limit given (a zero or negative value is not
// given), or why there is not exactly one.
func (f limitFlags) limit() (bench.Limit, error) {
	var lim bench.Limit
	given := 0
	if *f.depth > 0 {
		lim.Depth = *f.depth
		given++
	}
	if *f.nodes > 0 {
		lim.Nodes = *f.nodes
		given++
	}
	if *f.moveTime > 0 {
		lim.MoveTime = seconds(*f.moveTime)
		given++
	}
	if *f.tc != "" {
		base, inc, ok := strings.Cut(*f.tc, "+")
		b, err1 := strconv.ParseFloat(base, 64)
		var in float64
		var err2 error
		if ok {
			in, err2 = strconv.ParseFloat(inc, 64)
		}
		if err1 != nil || err2 != nil || b <= 0 || in < 0 {
			return bench.Limit{}, fmt.Errorf("--tc %q: want BASE+INC in seconds, e.g. 10+0.1", *f.tc)
		}
		lim.Base, lim.Inc = seconds(b), seconds(in)
		given++
	}
	if given != 1 {
		return bench.Limit{}, errors.New("give exactly one limit: --depth, --nodes, --movetime or --tc")
	}
	return lim, nil
}

// seconds converts a flag's seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// engineFlags are the two Hub engines of a match: their command lines and
// the parameters set on both.
type engineFlags struct {
	command [2]*string
	options listFlag
}

// engineFlags declares --engine1, --engine2 and the repeatable
// --engine-option.
func (c *command) engineFlags() *engineFlags {
	f := &engineFlags{command: [2]*string{
		c.String("engine1", "", "first engine command line"),
		c.String("engine2", "", "second engine command line"),
	}}
	c.Var(&f.options, "engine-option", "NAME=VALUE set on both engines (repeatable)")
	return f
}

// engines returns the two engines' specs: each command line split into
// words, and every --engine-option on both.
func (f *engineFlags) engines() ([2]bench.EngineSpec, error) {
	var es [2]bench.EngineSpec
	for i, c := range f.command {
		words, err := bench.SplitCommand(*c)
		if err != nil {
			return es, fmt.Errorf("--engine%d: %v", i+1, err)
		}
		es[i].Command = words
	}
	for _, o := range f.options {
		name, value, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return es, fmt.Errorf("--engine-option %q: want NAME=VALUE", o)
		}
		for i := range es {
			es[i].Options = append(es[i].Options, [2]string{name, value})
		}
	}
	return es, nil
}

// pdnFlag is --pdn, a PDN file the games are written to: created afresh,
// or appended to (appendTo).
type pdnFlag struct {
	path     *string
	appendTo bool
}

// pdnFlag declares --pdn with help.
func (c *command) pdnFlag(help string, appendTo bool) pdnFlag {
	return pdnFlag{path: c.String("pdn", "", help), appendTo: appendTo}
}

// open opens the file --pdn names, for the caller to close; w is nil,
// and close does nothing, when --pdn is not given.
func (f pdnFlag) open() (w io.Writer, close func() error, err error) {
	if *f.path == "" {
		return nil, func() error { return nil }, nil
	}
	var file *os.File
	if f.appendTo {
		file, err = os.OpenFile(*f.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	} else {
		file, err = os.Create(*f.path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("--pdn: %v", err)
	}
	return file, file.Close, nil
}
