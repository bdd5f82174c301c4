// Command damaengine is a draughts engine. Its subcommands:
//
//	damaengine                  read the first input line and pick the mode (hub)
//	damaengine hub [--name=value ...]
//	damaengine perft --variant italian [--fen FEN] --depth N [--divide]
//	damaengine bench [--variant V|all] [--depth N] [--hand-written | --eval-file FILE] [--cpuprofile FILE]
//	damaengine match --engine1 CMD --engine2 CMD [--variant V] [--games N] (--depth D | --nodes N | --movetime S | --tc B+I) ...
//	damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] ...
//	damaengine play [--variant V] [--side white|black] [--level L] [--movetime S] [--fen FEN]
//	damaengine book build --variant V [--positions N] [--time-per-node S | --nodes-per-node N] [--alpha A] [--roots start|openings] [--tt-size N] [--out FILE]
//	damaengine book probe --variant V [--fen F] [--book FILE]
//	damaengine serve [--addr 127.0.0.1:8080] [--max-games N] [--idle D] | --export DIR
//	damaengine egdb build --variant V --pieces N [--dir D] [--threads T] | probe --variant V --fen F [--dir D] | verify --variant V [--dir D] [--sample N] [--seed S] [--slices A,B]
//	damaengine tune gen|merge|fit|patterns|label ...
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
// 0 on success, 2 for bad usage (a flag or its value: a variant, a FEN, a
// number out of range), 1 for a failure (a file that cannot be read or
// used, a failed run).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// a person at a terminal is told how to start; a GUI starts the
		// engine with a pipe and hears nothing before its first line
		if stdinIsTerminal(stdin) {
			fmt.Fprintln(stderr, startLine)
		}
		return runFromFirstLine(stdin, stdout, stderr)
	}
	if sc, ok := commands[args[0]]; ok {
		return sc.start(args[0], args[1:], stdin, stdout, stderr)
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

// startLine is what bare damaengine says on a terminal.
const startLine = "damaengine: play with \"damaengine serve\" (in the browser) or \"damaengine play\" (here); \"damaengine help\" lists everything; waiting for a protocol line (hub)"

// stdinIsTerminal reports whether r is a terminal (a variable for tests).
var stdinIsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// commands are the subcommands by name: the synopsis each prints with
// --help, the function that runs it, and for book, egdb and tune their
// steps, each with its own synopsis and function.
var commands = map[string]subcommand{
	"hub":   {"damaengine hub [--name=value ...]", runHubOrHelp, nil},
	"perft": {"damaengine perft [--variant V] [--fen FEN] --depth N [--divide]", runPerft, nil},
	"bench": {"damaengine bench [--variant V|all] [--depth N] [--hand-written | --eval-file FILE] [--cpuprofile FILE]", runBench, nil},
	"dxp":   {"damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] ...", runDXP, nil},
	"play":  {"damaengine play [--variant V] [--side white|black] [--level 1-8|max] [--movetime S] [--fen FEN]", runPlay, nil},
	"match": {`damaengine match --engine1 "CMD ARGS" --engine2 "CMD ARGS" (--depth D | --nodes N | --movetime S | --tc BASE+INC) ...`, runMatch, nil},
	"book":  {bookSynopsis, runBook, bookSteps},
	"serve": {"damaengine serve [--addr 127.0.0.1:8080] [--max-games N] [--idle D] | serve --export DIR [--wasm FILE]", runServe, nil},
	"egdb":  {"damaengine egdb build|probe|verify ...", runEgdb, egdbSteps},
	"tune":  {tuneSynopsis, runTune, tuneSteps},
}

// runHubOrHelp runs "damaengine hub", or prints its parameters for --help.
func runHubOrHelp(c *command, args []string) int {
	if isHelp(args) {
		fmt.Fprint(c.stdout, hubHelp(c.synopsis))
		return 0
	}
	return runHub(args, c.stdin, c.stdout, c.stderr)
}

// subcommands names every subcommand, for the error on an unknown one.
const subcommands = "hub, perft, bench, match, dxp, play, book, serve, egdb, tune, help, --version"

const usage = `damaengine — a draughts engine

usage:
  damaengine                      the first input line picks the mode ("hub")
  damaengine hub [--tt-size=24 ...] Hub protocol on stdin/stdout; --name=value sets a parameter
  damaengine perft --variant italian [--fen FEN] --depth N [--divide]
  damaengine bench [--variant V|all] [--depth N] [--hand-written | --eval-file FILE] [--cpuprofile FILE]
  damaengine match --engine1 "CMD ARGS" --engine2 "CMD ARGS" [--variant V] [--games N]
                 (--depth D | --nodes N | --movetime S | --tc BASE+INC) [--openings FILE]
                 [--concurrency K] [--pdn FILE [--resume [--resume-untagged]]]
                 [--engine-option NAME=VALUE] [--max-plies N] [--sprt ELO0,ELO1]
  damaengine dxp [--listen ADDR | --connect HOST:PORT] [--initiator] [--games N] [--minutes M]
                 [--moves N] [--movetime S] [--pdn FILE] [--name NAME] [--log-level L]
                 [--max-peers N] [--idle D] [--move-wait D] [--tt-size N]
  damaengine play [--variant V] [--side white|black] [--level 1-8|max] [--movetime S] [--fen FEN]
                                  a game against the engine in the terminal
  damaengine book build --variant V [--positions N] [--time-per-node S | --nodes-per-node N] [--alpha A] [--roots start|openings] [--tt-size N] [--out FILE]
                                  grow an opening book (resumes from FILE)
  damaengine book probe --variant V [--fen F] [--book FILE]
                                  the book moves of a position
  damaengine serve [--addr 127.0.0.1:8080] [--max-games N] [--idle D]
                                  play every variant in the browser against the engine
  damaengine serve --export DIR   the same page as a static site, the engine in it (WebAssembly)
  damaengine egdb build --variant V --pieces N [--dir D] [--threads T]
                                  endgame tables (hub: egdb-path)
  damaengine egdb probe --variant V --fen F [--dir D]      win, draw or loss for the side to move
  damaengine egdb verify --variant V [--dir D] [--sample N] [--seed S] [--slices A,B]
                                  every stored value against its successors
  damaengine tune gen|merge|fit|patterns|label ...
                                  self-play data (games, or positions at scale in shards)
                                  and the fit of the learned evaluation
  damaengine help | --help        this text
  damaengine --version            the version

"damaengine SUBCOMMAND --help" prints that subcommand's flags.`
