// Command damaengine is a draughts engine. Its subcommands:
//
//	damaengine perft --variant italian [--fen FEN] --depth N [--divide]
//
// main only wires flags, readers and writers to the packages that do the
// work; see the README for examples.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit status:
// 0 on success, 2 for bad usage or input, 1 for other failures.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "damaengine: missing command (perft)")
		return 2
	}
	switch args[0] {
	case "perft":
		return runPerft(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "damaengine: unknown command %q (perft)\n", args[0])
	return 2
}

const usage = `damaengine — a draughts engine

usage:
  damaengine perft --variant italian [--fen FEN] --depth N [--divide]`
