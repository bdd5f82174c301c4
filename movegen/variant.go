package movegen

import (
	"fmt"
	"strings"
)

// family names the board family whose generator a variant uses.
type family uint8

const (
	famItalian family = iota + 1
)

// Variant is one rule set: its names, board, square numbering, start
// position and rules. Variants are immutable after package initialisation;
// use them through Lookup or the exported values such as Italian.
type Variant struct {
	// Name is the canonical name used by the protocol and the command line.
	Name string
	// Aliases are other accepted names (compared case-insensitively).
	Aliases []string
	// Squares is the number of playable squares, numbered 1..Squares.
	Squares int
	// MaxPieces is the most pieces one side may have.
	MaxPieces int
	// StartFEN is the start position in PDN FEN.
	StartFEN string
	// DrawPlies is the number of plies without a capture or a man move
	// after which the game is drawn (0: no such rule).
	DrawPlies int

	fam    family
	flying bool      // kings move and capture at a distance
	sqBit  []int8    // square number → bit (index 0 unused)
	bitSq  [64]int8  // bit → square number, 0 where none
	crown  [2]uint64 // where each colour's men are crowned
	board  uint64    // playable bits
	start  Position
}

// Italian is Italian draughts (rules.md §1), the default variant.
var Italian = newItalian()

// variants lists every supported rule set.
var variants = []*Variant{Italian}

func newItalian() *Variant {
	v := &Variant{
		Name:      "italian",
		Aliases:   []string{"dama", "italiana"},
		Squares:   32,
		MaxPieces: 12,
		StartFEN:  "W:W21-32:B1-12",
		DrawPlies: 100,
		fam:       famItalian,
		board:     Board8,
		crown:     [2]uint64{Row8Top, Row8Bottom},
	}
	// Official Italian numbering: 1 = a8, left to right, top to bottom,
	// which is exactly the order of the layout's bits.
	v.sqBit = make([]int8, 33)
	n := 1
	for b := 0; b < numBits8; b++ {
		if Board8&(1<<b) != 0 {
			v.sqBit[n] = int8(b)
			v.bitSq[b] = int8(n)
			n++
		}
	}
	p, err := v.ParseFEN(v.StartFEN)
	if err != nil {
		panic("movegen: bad start position for " + v.Name + ": " + err.Error())
	}
	v.start = p
	return v
}

// Variants returns every supported variant.
func Variants() []*Variant { return append([]*Variant(nil), variants...) }

// Lookup finds a variant by name or alias, ignoring case.
func Lookup(name string) (*Variant, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, v := range variants {
		if v.Name == n {
			return v, nil
		}
		for _, a := range v.Aliases {
			if a == n {
				return v, nil
			}
		}
	}
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v.Name
	}
	return nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(names, ", "))
}

// String returns the variant's name.
func (v *Variant) String() string { return v.Name }

// Start returns the start position.
func (v *Variant) Start() Position { return v.start }

// Generate fills ml with every legal move of p.
func (v *Variant) Generate(p *Position, ml *MoveList) {
	switch v.fam {
	case famItalian:
		genItalian(p, ml)
	}
}

// Count returns the number of legal moves of p, using scratch only when it
// has to list them (captures, whose priority rules need the whole list).
func (v *Variant) Count(p *Position, scratch *MoveList) int {
	switch v.fam {
	case famItalian:
		return countItalian(p, scratch)
	}
	return 0
}

// HasCapture reports whether the side to move in p has a capture (and so
// must capture).
func (v *Variant) HasCapture(p *Position) bool {
	switch v.fam {
	case famItalian:
		jm, jk := italianJumpers(p)
		return jm|jk != 0
	}
	return false
}

// Bit returns the board bit of square number n, or -1 if there is none.
func (v *Variant) Bit(n int) int {
	if n < 1 || n > v.Squares {
		return -1
	}
	return int(v.sqBit[n])
}

// SquareNumber returns the square number of board bit b, or 0.
func (v *Variant) SquareNumber(b int) int {
	if b < 0 || b >= 64 {
		return 0
	}
	return int(v.bitSq[b])
}

// IsManMove reports whether m is made by a man in p (for the draw counters).
func (p *Position) IsManMove(m Move) bool { return p.Kings&(1<<m.From) == 0 }
