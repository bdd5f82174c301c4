package main

import (
	"flag"
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
	v, pos, err := variantPosition(*variant, *fen)
	if err != nil {
		return fail(stderr, 2, "play", "%v", err)
	}
	var human movegen.Color
	switch strings.ToLower(strings.TrimSpace(*side)) {
	case "white", "w":
		human = movegen.White
	case "black", "b":
		human = movegen.Black
	default:
		return fail(stderr, 2, "play", "--side %q is not white or black", *side)
	}
	if math.IsNaN(*moveTime) || *moveTime <= 0 || *moveTime > 3600 {
		return fail(stderr, 2, "play", "--movetime %v out of range (0, 3600] seconds", *moveTime)
	}
	play.Run(play.Options{
		Variant: v, Start: pos, Human: human,
		MoveTime: time.Duration(*moveTime * float64(time.Second)),
	}, stdin, stdout)
	return 0
}
