package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/protocol"
)

// runHub runs a Hub protocol session on stdin/stdout. args are settings
// such as --tt-size=24; --log-level and --log-file turn logging on (to
// stderr unless a file is given).
func runHub(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	h := protocol.NewHub(stdin, stdout, protocol.Options{
		Log:       zerolog.Nop(),
		LogOutput: stderr,
		Progress:  terminalOnly(stderr),
		Args:      hubEgdbArgs(args),
		Egdb:      egdbDefault(os.Getenv),
	})
	if err := h.Run(); err != nil {
		return fail(stderr, 1, "hub", "%v", err)
	}
	return 0
}

// runFromFirstLine reads the first input line and picks the mode from it:
// "hub" starts a Hub session that sees that line too.
func runFromFirstLine(stdin io.Reader, stdout, stderr io.Writer) int {
	br := bufio.NewReader(stdin)
	first, err := br.ReadString('\n')
	if err != nil && first == "" {
		return 0 // no input at all: nothing to do
	}
	switch strings.Fields(first + " x")[0] {
	case "hub":
		return runHub(nil, io.MultiReader(strings.NewReader(first), br), stdout, stderr)
	}
	fmt.Fprintf(stderr, "damaengine: first line %q names no mode (hub); see damaengine help\n", strings.TrimSpace(first))
	return 2
}

// hubHelp describes the hub subcommand: its settings are the protocol's
// parameters.
func hubHelp(synopsis string) string {
	return "usage: " + synopsis + "\n\n" +
		"Hub protocol on stdin/stdout. Each --name=value sets a parameter before the session\n" +
		"starts, as set-param would; unknown names are ignored. Parameters:\n" + protocol.ParamHelp()
}

// terminalOnly returns w when it is a terminal, else nil: progress lines
// are for a person watching, not for a client reading a pipe.
func terminalOnly(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return w
		}
	}
	return nil
}
