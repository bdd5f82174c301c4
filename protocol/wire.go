package protocol

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// The orientation trap (protocol.md): pydraughts, the main Hub client,
// writes the pos= string from its own board, where the first mover is "w"
// at the bottom and squares are numbered from the top left like 10x10, and
// it writes moves in each variant's own numbering (version 0.5 used its
// internal numbering for the moves too). A wire describes, for one variant
// and one value of the notation parameter, how squares and colours travel.

// wire maps the squares of the Hub position string and of moves.
type wire struct {
	posBit []int   // character i of the position string (1-based) → bit
	swap   bool    // "w"/"W" in the string (and side W) mean Black
	numBit []int   // move square number → bit (index 0 unused)
	bitNum [64]int // bit → move square number
}

// newWire builds the wire of variant v under notation.
func newWire(v *movegen.Variant, notation string) *wire {
	n := v.Squares
	official := make([]int, n+1)
	for i := 1; i <= n; i++ {
		official[i] = v.Bit(i)
	}
	w := &wire{posBit: official, numBit: official}
	if notation == "official" {
		return w.finish()
	}
	// pydraughts' internal board: dark squares from the top rank down,
	// each rank from the left, with the first mover's pieces as "w".
	internal := make([]int, 1, n+1)
	for r := v.Ranks() - 1; r >= 0; r-- {
		for f := 0; f < v.Files(); f++ {
			if b := v.BitAt(f, r); b >= 0 {
				internal = append(internal, b)
			}
		}
	}
	switch v { // keyed by the variant value, not its name
	case movegen.English:
		// Black moves first: pydraughts turns the board round, so char i is
		// English square 33-i and "w" is Black.
		rev := make([]int, n+1)
		for i := 1; i <= n; i++ {
			rev[i] = v.Bit(n + 1 - i)
		}
		w.posBit, w.swap = rev, true
		if notation == "pydraughts-0.5" {
			w.numBit = rev
		}
	case movegen.Russian, movegen.Brazilian:
		w.posBit = internal
		if notation == "pydraughts-0.5" {
			w.numBit = internal
		}
	case movegen.Turkish:
		w.posBit = internal // char 1 = a8, row by row from the top
	}
	return w.finish()
}

func (w *wire) finish() *wire {
	for n := 1; n < len(w.numBit); n++ {
		w.bitNum[w.numBit[n]] = n
	}
	return w
}

// parsePos reads a Hub position string on this wire.
func (w *wire) parsePos(v *movegen.Variant, s string) (movegen.Position, error) {
	return v.ParseHubOrder(s, w.posBit, w.swap)
}

// move reads a move written with this wire's square numbers by turning it
// into the variant's official numbering.
func (w *wire) move(v *movegen.Variant, p *movegen.Position, text string) (movegen.Move, error) {
	var sb strings.Builder
	tok := ""
	flush := func() error {
		if tok == "" {
			return nil
		}
		n, err := strconv.Atoi(tok)
		if err != nil || n < 1 || n >= len(w.numBit) {
			// not a wire number (an algebraic square, say): pass it on
			sb.WriteString(tok)
		} else {
			sb.WriteString(strconv.Itoa(v.SquareNumber(w.numBit[n])))
		}
		tok = ""
		return nil
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '-' || c == 'x' || c == 'X' || c == ':' {
			flush()
			sb.WriteByte(c)
			continue
		}
		tok += string(c)
	}
	flush()
	m, err := v.ParseMove(p, sb.String())
	if err != nil && sb.String() != text {
		return m, fmt.Errorf("%v (%q on the wire)", err, text)
	}
	return m, err
}

// text writes m in the Hub form with this wire's numbers: from-to, or
// fromxto followed by every captured square in ascending order.
func (w *wire) text(m movegen.Move) string {
	from, to := strconv.Itoa(w.bitNum[m.From]), strconv.Itoa(w.bitNum[m.To])
	if m.Captured == 0 {
		return from + "-" + to
	}
	var caps []int
	for c := m.Captured; c != 0; c &= c - 1 {
		b := 0
		for c&(1<<b) == 0 {
			b++
		}
		caps = append(caps, w.bitNum[b])
	}
	sort.Ints(caps)
	var sb strings.Builder
	sb.WriteString(from + "x" + to)
	for _, c := range caps {
		sb.WriteString("x" + strconv.Itoa(c))
	}
	return sb.String()
}

// sameMoves reports whether two wires number moves alike.
func (w *wire) sameMoves(o *wire) bool {
	if len(w.numBit) != len(o.numBit) {
		return false
	}
	for i := range w.numBit {
		if w.numBit[i] != o.numBit[i] {
			return false
		}
	}
	return true
}
