package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/play"
)

// runPlay implements "damaengine play": a person plays the engine on the
// terminal (package play), typing moves and commands on stdin.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	variant := fs.String("variant", "italian", "rule set")
	side := fs.String("side", "white", "the colour you play: white or black")
	moveTime := fs.Float64("movetime", 1, "seconds the engine thinks per move")
	fen := fs.String("fen", "", "start position (PDN FEN or Hub string; default: the variant's start)")
	if rc, ok := parseFlags(fs, "damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]", args, stdout, stderr); !ok {
		return rc
	}
	v, err := movegen.Lookup(*variant)
	if err != nil {
		fmt.Fprintf(stderr, "damaengine play: %v\n", err)
		return 2
	}
	var human movegen.Color
	switch strings.ToLower(strings.TrimSpace(*side)) {
	case "white", "w":
		human = movegen.White
	case "black", "b":
		human = movegen.Black
	default:
		fmt.Fprintf(stderr, "damaengine play: --side %q is not white or black\n", *side)
		return 2
	}
	if math.IsNaN(*moveTime) || *moveTime <= 0 || *moveTime > 3600 {
		fmt.Fprintf(stderr, "damaengine play: --movetime %v out of range (0, 3600] seconds\n", *moveTime)
		return 2
	}
	pos := v.Start()
	if *fen != "" {
		if pos, err = v.ParsePosition(*fen); err != nil {
			fmt.Fprintf(stderr, "damaengine play: %v\n", err)
			return 2
		}
	}
	play.Run(play.Options{
		Variant: v, Start: pos, Human: human,
		MoveTime: time.Duration(*moveTime * float64(time.Second)),
	}, stdin, stdout)
	return 0
}
