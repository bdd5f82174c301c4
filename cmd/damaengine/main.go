// Command damaengine is a draughts engine. Its subcommands:
//
//	damaengine                  read the first input line and pick the mode (hub)
//	damaengine hub [--name=value ...]
//	damaengine perft --variant italian [--fen FEN] --depth N [--divide]
//	damaengine bench [--variant V|all] [--depth N]
//	damaengine match --engine1 CMD --engine2 CMD [--variant V] [--games N] (--depth D | --nodes N | --movetime S | --tc B+I) ...
//	damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] ...
//	damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]
//	damaengine book build --variant V [--positions N] [--time-per-node S] [--out FILE]
//	damaengine book probe --variant V [--fen F]
//	damaengine serve [--addr 127.0.0.1:8080]
//	damaengine egdb build --variant V --pieces N [--dir D] | probe --variant V --fen F [--dir D] | verify --variant V [--dir D]
//	damaengine tune gen|fit ...
//	damaengine --version
//
// Every subcommand prints its flags with --help.
//
// main only wires flags, readers and writers to the packages that do the
// work; see the README for examples.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/damaengine/damaengine/protocol"
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
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdin, stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, usage)
		return 0
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, "damaengine", protocol.Version)
		return 0
	}
	fmt.Fprintf(stderr, "damaengine: unknown command %q (%s)\n", args[0], subcommands)
	return 2
}

// commands runs each subcommand with its arguments.
var commands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"hub":   runHubOrHelp,
	"perft": noStdin(runPerft),
	"bench": noStdin(runBench),
	"dxp":   noStdin(runDXP),
	"play":  runPlay,
	"match": noStdin(runMatch),
	"book":  noStdin(runBook),
	"serve": noStdin(runServe),
	"egdb":  noStdin(runEgdb),
	"tune":  noStdin(runTune),
}

// noStdin adapts a subcommand that reads no standard input to commands.
func noStdin(run func(args []string, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return run(args, stdout, stderr) }
}

// runHubOrHelp runs "damaengine hub", or prints its parameters for --help.
func runHubOrHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if isHelp(args) {
		fmt.Fprint(stdout, hubHelp())
		return 0
	}
	return runHub(args, stdin, stdout, stderr)
}

// subcommands names every subcommand, for the error on an unknown one.
const subcommands = "hub, perft, bench, match, dxp, play, book, serve, egdb, tune, help, --version"

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
  damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]
                                  a game against the engine in the terminal
  damaengine book build --variant V [--positions N] [--time-per-node S] [--out FILE]
                                  grow an opening book (resumes from FILE)
  damaengine book probe --variant V [--fen F] [--book FILE]
                                  the book moves of a position
  damaengine serve [--addr 127.0.0.1:8080]
                                  play every variant in the browser against the engine
  damaengine egdb build --variant V --pieces N [--dir D]   endgame tables (hub: egdb-path)
  damaengine egdb probe --variant V --fen F [--dir D]      win, draw or loss for the side to move
  damaengine egdb verify --variant V [--dir D]            every stored value against its successors
  damaengine tune gen|fit ...     self-play data and the fit of the learned evaluation
  damaengine help | --help        this text
  damaengine --version            the version

"damaengine SUBCOMMAND --help" prints that subcommand's flags.`
