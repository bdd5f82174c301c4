package play

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// printBoard draws the board from the person's side: their pieces at the
// bottom, files and ranks around it, the number of every empty playable
// square in numbered variants; then says whose move it is.
func (g *session) printBoard() {
	v, p := g.v, &g.pos
	files, ranks := v.Files(), v.Ranks()
	numbered := false
	for b := 0; b < 64; b++ {
		if v.Board()&(1<<b) != 0 {
			_, err := strconv.Atoi(v.SquareName(b))
			numbered = err == nil
			break
		}
	}
	// the last move's squares are marked with a * before them
	var from, to = -1, -1
	if n := g.rec.Plies(); n > 0 {
		m := g.rec.Moves()[n-1]
		from, to = int(m.From), int(m.To)
	}
	fileAt := func(i int) int {
		if g.human == movegen.Black {
			return files - 1 - i
		}
		return i
	}
	var sb strings.Builder
	letters := func() {
		sb.WriteString("   ")
		for i := 0; i < files; i++ {
			sb.WriteString("  " + string(rune('a'+fileAt(i))))
		}
		sb.WriteString("\n")
	}
	letters()
	for i := 0; i < ranks; i++ {
		r := ranks - 1 - i
		if g.human == movegen.Black {
			r = i
		}
		fmt.Fprintf(&sb, "%2d ", r+1)
		for j := 0; j < files; j++ {
			b := v.BitAt(fileAt(j), r)
			cell := "  "
			if b >= 0 {
				cell = " ."
				if numbered {
					cell = fmt.Sprintf("%2s", v.SquareName(b))
				}
				bit := uint64(1) << b
				for c := movegen.White; c <= movegen.Black; c++ {
					if p.Pieces[c]&bit == 0 {
						continue
					}
					letter := "w"
					if c == movegen.Black {
						letter = "b"
					}
					switch {
					case p.Super&bit != 0:
						cell = strings.ToUpper(letter) + "D"
					case p.Kings&bit != 0:
						cell = " " + strings.ToUpper(letter)
					default:
						cell = " " + letter
					}
				}
			}
			if b >= 0 && (b == from || b == to) {
				sb.WriteString("*" + cell)
			} else {
				sb.WriteString(" " + cell)
			}
		}
		fmt.Fprintf(&sb, "  %d\n", r+1)
	}
	letters()
	legend := "w b men, W B kings"
	if p.Super != 0 || strings.Contains(v.StartFEN, "D") {
		legend = "w b men, W B Dame, WD BD Damoni"
	}
	who := "you"
	if p.Side != g.human {
		who = "engine"
	}
	if from >= 0 {
		before := g.rec.Before(g.rec.Plies() - 1)
		fmt.Fprintf(&sb, "Last move %s, its squares marked *\n", v.FormatMove(&before, g.rec.Moves()[g.rec.Plies()-1]))
	}
	fmt.Fprintf(&sb, "(%s)  %s to move (%s)\n", legend, titleColour(p.Side), who)
	g.printf("%s", sb.String())
}

// titleColour returns "White" or "Black".
func titleColour(c movegen.Color) string {
	s := c.String()
	return strings.ToUpper(s[:1]) + s[1:]
}
