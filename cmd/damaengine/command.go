package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand's flag set, with its synopsis and writers:
// declare its flags on it, then parse the arguments; fail reports why the
// subcommand stops.
type command struct {
	*flag.FlagSet
	synopsis       string
	stdout, stderr io.Writer
}

// newCommand returns the flag set of subcommand name ("perft", "egdb
// build") with its synopsis for --help.
func newCommand(name, synopsis string, stdout, stderr io.Writer) *command {
	return &command{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), synopsis: synopsis, stdout: stdout, stderr: stderr}
}

// parse parses the subcommand's flags. --help (or -h) prints its synopsis
// and flags on stdout; it then returns ok false and rc 0. A bad flag or an
// argument that is not one is reported on stderr with rc 2.
func (c *command) parse(args []string) (rc int, ok bool) {
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
	if c.NArg() > 0 {
		fmt.Fprintf(c.stderr, "damaengine %s: unexpected argument %q\n", c.Name(), c.Arg(0))
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

// stepFunc runs one step of a subcommand with steps ("book build", "egdb
// probe", "tune fit") with the arguments after the step's name.
type stepFunc func(args []string, stdout, stderr io.Writer) int

// runStep runs the step that args[0] names among steps; ok is false when
// it names none.
func runStep(args []string, stdout, stderr io.Writer, steps map[string]stepFunc) (rc int, ok bool) {
	run, ok := steps[args[0]]
	if !ok {
		return 0, false
	}
	return run(args[1:], stdout, stderr), true
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
