package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// subcommand is one subcommand, or one step of a subcommand with steps
// ("book build"): its synopsis for --help, and run, which declares its
// flags on c, parses args with c.parse, does the work and returns the
// exit status (0 on success, 2 for bad usage or input, 1 for other
// failures).
type subcommand struct {
	synopsis string
	run      func(c *command, args []string) int
	// steps, if not nil, are the steps of a subcommand such as book: the
	// step args[0] names runs as "book build"; run gets the arguments that
	// name none (no step, --help or an unknown word).
	steps map[string]subcommand
}

// command is what a subcommand runs with: its flag set, its synopsis and
// the standard streams. fail reports why the subcommand stops.
type command struct {
	*flag.FlagSet
	synopsis       string
	stdin          io.Reader
	stdout, stderr io.Writer
}

// newCommand returns the command of subcommand name ("perft", "egdb
// build") with its synopsis for --help.
func newCommand(name, synopsis string, stdin io.Reader, stdout, stderr io.Writer) *command {
	return &command{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), synopsis: synopsis, stdin: stdin, stdout: stdout, stderr: stderr}
}

// start runs sc as subcommand name with args, or the step of sc that
// args[0] names as "NAME STEP" with the rest.
func (sc subcommand) start(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if step, ok := sc.steps[args[0]]; ok {
			return step.start(name+" "+args[0], args[1:], stdin, stdout, stderr)
		}
	}
	return sc.run(newCommand(name, sc.synopsis, stdin, stdout, stderr), args)
}

// noStep answers a subcommand with steps that args name none of: --help
// prints its synopsis; no step at all, or an unknown one, is bad usage,
// said by none or by unknown (a format of the word given).
func (c *command) noStep(args []string, none, unknown string) int {
	if len(args) == 0 {
		return c.fail(2, "%s", none)
	}
	if isHelp(args[:1]) {
		fmt.Fprintln(c.stdout, "usage: "+c.synopsis)
		return 0
	}
	return c.fail(2, unknown, args[0])
}

// parse parses the subcommand's flags. --help (or -h) prints its synopsis
// and flags on stdout; it then returns ok false and rc 0. A bad flag or an
// argument that is not one is reported on stderr with rc 2.
func (c *command) parse(args []string) (rc int, ok bool) {
	if rc, ok = c.parseWithArgs(args); ok && c.NArg() > 0 {
		fmt.Fprintf(c.stderr, "damaengine %s: unexpected argument %q\n", c.Name(), c.Arg(0))
		return 2, false
	}
	return rc, ok
}

// parseWithArgs is parse for a subcommand that takes arguments after its
// flags (files, say), which it reads with c.Args.
func (c *command) parseWithArgs(args []string) (rc int, ok bool) {
	c.SetOutput(io.Discard)
	err := c.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, flagHelp(c.FlagSet, c.synopsis))
		return 0, false
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "damaengine %s: %v (damaengine %s --help lists the flags)\n", c.Name(), err, c.Name())
		return 2, false
	}
	return 0, true
}

// fail reports on stderr, in one line prefixed "damaengine NAME:", why the
// subcommand stops, and returns its exit status rc (2: bad usage or input;
// 1: another failure).
func (c *command) fail(rc int, format string, a ...any) int {
	return fail(c.stderr, rc, c.Name(), format, a...)
}

// flagHelp formats a synopsis and every flag with its default.
func flagHelp(fs *flag.FlagSet, synopsis string) string {
	var sb strings.Builder
	sb.WriteString("usage: " + synopsis + "\n\nflags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(&sb, "  --%s", f.Name)
		if name != "" {
			sb.WriteString(" " + name)
		}
		sb.WriteString("\n      " + usage)
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			fmt.Fprintf(&sb, " (default %s)", f.DefValue)
		}
		sb.WriteString("\n")
	})
	return sb.String()
}

// isHelp reports whether args ask for help before any other flag.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// fail reports on stderr, in one line prefixed "damaengine name:", why
// subcommand name stops, and returns its exit status rc (2: bad usage or
// input; 1: another failure).
func fail(stderr io.Writer, rc int, name, format string, a ...any) int {
	fmt.Fprintf(stderr, "damaengine "+name+": "+format+"\n", a...)
	return rc
}
