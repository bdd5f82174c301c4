// Command damaengine is a draughts engine. Its subcommands:
//
//	damaengine                  read the first input line and pick the mode (hub)
//	damaengine hub [--name=value ...]
//	damaengine perft --variant italian [--fen FEN] --depth N [--divide]
//	damaengine bench [--variant V|all] [--depth N]
//	damaengine match --engine1 CMD --engine2 CMD [--variant V] [--games N] (--depth D | --nodes N | --movetime S | --tc B+I) ...
//	damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] ...
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
		return runFromFirstLine(stdin, stdout, stderr)
	}
	switch args[0] {
	case "hub":
		return runHub(args[1:], stdin, stdout, stderr)
	case "perft":
		return runPerft(args[1:], stdout, stderr)
	case "bench":
		return runBench(args[1:], stdout, stderr)
	case "dxp":
		return runDXP(args[1:], stdout, stderr)
	case "play":
		return runPlay(args[1:], stdin, stdout, stderr)
	case "match":
		return runMatch(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "damaengine: unknown command %q (hub, perft, bench, match, dxp, help)\n", args[0])
	return 2
}

const usage = `damaengine — a draughts engine

usage:
  damaengine                      the first input line picks the mode ("hub")
  damaengine hub [--tt-size=24 ...] Hub protocol on stdin/stdout; --name=value sets a parameter
  damaengine perft --variant italian [--fen FEN] --depth N [--divide]
  damaengine bench [--variant V|all] [--depth N]
  damaengine match --engine1 "CMD ARGS" --engine2 "CMD ARGS" [--variant V] [--games N]
                 (--depth D | --nodes N | --movetime S | --tc BASE+INC) [--openings FILE]
                 [--concurrency K] [--pdn FILE] [--sprt ELO0,ELO1] [--engine-option NAME=VALUE]
  damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] [--minutes M]
                 [--moves N] [--movetime S] [--pdn FILE] [--name NAME] [--log-level L]
  damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]`
