package main

import (
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
	c := newCommand("play", "damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]", stdout, stderr)
	variant := c.variantFlag()
	side := c.String("side", "white", "the colour you play: white or black")
	moveTime := c.Float64("movetime", 1, "seconds the engine thinks per move")
	fen := c.String("fen", "", "start position (PDN FEN or Hub string; default: the variant's start)")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	v, pos, err := variantPosition(*variant, *fen)
	if err != nil {
		return c.fail(2, "%v", err)
	}
	var human movegen.Color
	switch strings.ToLower(strings.TrimSpace(*side)) {
	case "white", "w":
		human = movegen.White
	case "black", "b":
		human = movegen.Black
	default:
		return c.fail(2, "--side %q is not white or black", *side)
	}
	if math.IsNaN(*moveTime) || *moveTime <= 0 || *moveTime > 3600 {
		return c.fail(2, "--movetime %v out of range (0, 3600] seconds", *moveTime)
	}
	play.Run(play.Options{
		Variant: v, Start: pos, Human: human,
		MoveTime: time.Duration(*moveTime * float64(time.Second)),
	}, stdin, stdout)
	return 0
}
