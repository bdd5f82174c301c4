package main

import (
	"math"
	"strings"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/play"
	"github.com/damaengine/damaengine/protocol"
	"github.com/damaengine/damaengine/serve"
)

// runPlay implements "damaengine play": a person plays the engine on the
// terminal (package play), typing moves and commands on stdin.
func runPlay(c *command, args []string) int {
	start := c.positionFlags(fenStartHelp)
	side := c.String("side", "white", "the colour you play: white or black")
	moveTime := c.Float64("movetime", 1, "seconds the engine thinks per move (at most, with --level)")
	level := c.String("level", "", "the engine's strength: 1 (weakest) to 8, or max; default full strength (the levels of serve and the Hub's level parameter)")
	if rc, ok := c.parse(args); !ok {
		return rc
	}
	*start.fen = serve.NormalizeFEN(*start.fen) // lidraughts' H and F fields, a [FEN "..."] tag
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
	var lv *protocol.Strength
	if *level != "" {
		l, err := protocol.LookupStrength(strings.ToLower(strings.TrimSpace(*level)))
		if err != nil {
			return c.fail(2, "--level: %v", err)
		}
		lv = &l
	}
	play.Run(play.Options{
		Variant: v, Start: pos, Human: human,
		MoveTime: seconds(*moveTime), Level: lv,
	}, c.stdin, c.stdout)
	return 0
}
