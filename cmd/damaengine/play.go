package main

import (
	"io"
	"math"
	"strings"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/play"
)

// runPlay implements "damaengine play": a person plays the engine on the
// terminal (package play), typing moves and commands on stdin.
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCommand("play", "damaengine play [--variant V] [--side white|black] [--movetime S] [--fen FEN]", stdout, stderr)
	start := c.positionFlags(fenStartHelp)
	side := c.String("side", "white", "the colour you play: white or black")
	moveTime := c.Float64("movetime", 1, "seconds the engine thinks per move")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	v, pos, err := start.position()
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
		MoveTime: seconds(*moveTime),
	}, stdin, stdout)
	return 0
}
