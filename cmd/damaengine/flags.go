package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// parseFlags parses a subcommand's flags. --help (or -h) prints the
// subcommand's synopsis and flags on stdout; it then returns ok false and
// rc 0. A bad flag is reported on stderr with rc 2.
func parseFlags(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (rc int, ok bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, flagHelp(fs, synopsis))
		return 0, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "damaengine %s: %v (damaengine %s --help lists the flags)\n", fs.Name(), err, fs.Name())
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "damaengine %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
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

// variantPosition resolves the --variant and --fen flags: the variant
// named, and fen as a position of it (its start when fen is empty).
func variantPosition(variant, fen string) (*movegen.Variant, movegen.Position, error) {
	v, err := movegen.Lookup(variant)
	if err != nil {
		return nil, movegen.Position{}, err
	}
	if fen == "" {
		return v, v.Start(), nil
	}
	p, err := v.ParsePosition(fen)
	return v, p, err
}
