package movegen

import (
	"fmt"
	"strings"
)

// family names the generator a variant uses.
type family uint8

const (
	famItalian   family = iota + 1 // italian.go
	famDamone                      // damone.go
	famTurkish                     // turkish.go
	famIntl                        // diaggen.go: International (see diag.go)
	famRussian                     // diaggen.go: Russian
	famSpanish                     // diaggen.go: Spanish
	famBrazilian                   // diaggen.go: Brazilian (International's rules on 8x8)
	famEnglish                     // diaggen.go: English
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
	// GameType is the PDN GameType tag value of the variant.
	GameType int

	id            uint8 // ID: 1.. in the order below, DamoneAllDamoni last
	fam           family
	flying        bool // kings move and capture at a distance
	colonCaptures bool // captures are written c3:e5 (Russian)
	geo           *geometry
	dr            diagRules
	dm            damoneRules
	damoniLoss    bool      // Damone option: losing every Damone loses the game
	crown         [2]uint64 // where each colour's men are crowned
	board         uint64    // playable bits
	start         Position
	gen           func(p *Position, ml *MoveList)          // see setGenerators
	count         func(p *Position, scratch *MoveList) int // see setGenerators
	// perft2, where not nil, returns the number of leaves two plies below
	// p (perft's last two plies) with the lists ml and scratch and the
	// child position c; see diagPerft2.
	perft2 func(p *Position, ml *MoveList, c *Position, scratch *MoveList) uint64
}

// The supported variants.
var (
	// Italian is Italian draughts (rules.md §1), the default variant.
	Italian = newVariant(&Variant{
		Name: "italian", Aliases: []string{"dama", "italiana"},
		StartFEN: "W:W21-32:B1-12", DrawPlies: 100, GameType: 22,
		id: 1, fam: famItalian,
		geo: newGeometry8(false, true, true, false),
	})
	// Damone is Italian Damone (rules.md §2): three ranks of piece.
	Damone = newVariant(&Variant{
		Name: "damone", Aliases: []string{"italian-damone", "damone-italiana"},
		StartFEN: "W:WD32,K24,K31,16,20,23,27,30:BD1,K2,K9,3,6,10,13,17", DrawPlies: 100, GameType: 22,
		id: 2, fam: famDamone,
		geo: newGeometry8(false, true, true, false),
	})
	// DamoneAllDamoni is Italian Damone with the optional rule that a side
	// whose Damoni have all been captured loses.
	DamoneAllDamoni = func() *Variant {
		v := *Damone
		v.damoniLoss = true
		v.id = 9
		v.setGenerators() // its own rules, not Damone's
		return &v
	}()
	// English is English draughts / American checkers (rules.md §4).
	English = newVariant(&Variant{
		Name: "english", Aliases: []string{"american", "checkers", "draughts"},
		StartFEN: "B:W21-32:B1-12", DrawPlies: 80, GameType: 21,
		id: 3, fam: famEnglish,
		geo: newGeometry8(true, true, true, false),
		dr:  diagRules{manTakesKing: true, crownMid: crownStop, prio: prioFree},
	})
	// Russian is Russian draughts, shashki (rules.md §7).
	Russian = newVariant(&Variant{
		Name: "russian", Aliases: []string{"shashki", "ukrainian"},
		StartFEN: "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", DrawPlies: 30, GameType: 25,
		id: 4, fam: famRussian, flying: true, colonCaptures: true,
		geo: newGeometry8(true, false, true, true),
		dr:  diagRules{flying: true, manBack: true, manTakesKing: true, crownMid: crownContinue, prio: prioFree},
	})
	// Brazilian is Brazilian draughts: International rules on 8x8 (rules.md §6).
	Brazilian = newVariant(&Variant{
		Name: "brazilian", Aliases: []string{"brazil"},
		StartFEN: "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", DrawPlies: 50, GameType: 26,
		id: 5, fam: famBrazilian, flying: true,
		geo: newGeometry8(true, false, true, true),
		dr:  diagRules{flying: true, manBack: true, manTakesKing: true, crownMid: crownPass, prio: prioMax},
	})
	// Spanish is Spanish draughts (rules.md §8).
	Spanish = newVariant(&Variant{
		Name: "spanish", Aliases: []string{"espanol", "español"},
		StartFEN: "W:W1-12:B21-32", GameType: 24,
		id: 6, fam: famSpanish, flying: true,
		geo: newGeometry8(false, false, false, false),
		dr:  diagRules{flying: true, manTakesKing: true, crownMid: crownStop, prio: prioSpanish},
	})
	// International is International draughts on 10x10 (rules.md §5).
	International = newVariant(&Variant{
		Name: "international", Aliases: []string{"normal", "standard", "polish", "10x10"},
		StartFEN: "W:W31-50:B1-20", DrawPlies: 50, GameType: 20,
		id: 7, fam: famIntl, flying: true,
		geo: newGeometry10(),
		dr:  diagRules{flying: true, manBack: true, manTakesKing: true, crownMid: crownPass, prio: prioMax},
	})
)

// Turkish is Turkish draughts (rules.md §3): orthogonal moves on all 64
// squares.
var Turkish = newVariant(&Variant{
	Name: "turkish", Aliases: []string{"dama-turca", "turk"},
	StartFEN: "W:W9-24:B41-56", DrawPlies: 100, GameType: 30,
	id: 8, fam: famTurkish, flying: true,
	geo: newGeometryT(),
})

// variants lists every supported rule set, the default first.
var variants = []*Variant{Italian, Damone, English, Russian, Brazilian, Spanish, International, Turkish}

// newVariant completes a variant description: board data from its
// geometry, and the start position.
func newVariant(v *Variant) *Variant {
	g := v.geo
	v.board = g.board
	v.Squares = len(g.sqBit) - 1
	switch g.board {
	case Board8:
		v.MaxPieces = 12
		v.crown = [2]uint64{Row8Top, Row8Bottom}
	case Board10:
		v.MaxPieces = 20
		v.crown = [2]uint64{Row10Top, Row10Bottom}
	case BoardT:
		v.MaxPieces = 16
		v.crown = [2]uint64{RowTTop, RowTBot}
	}
	if v.fam == famDamone {
		sq := func(ns ...int) (m uint64) {
			for _, n := range ns {
				m |= 1 << g.sqBit[n]
			}
			return m
		}
		v.dm = damoneRules{
			toDama:   [2]uint64{sq(2, 9), sq(24, 31)},
			toDamone: [2]uint64{sq(1), sq(32)},
		}
		v.crown = v.dm.toDama
	}
	v.setGenerators()
	p, err := v.ParseFEN(v.StartFEN)
	if err != nil {
		panic("movegen: bad start position for " + v.Name + ": " + err.Error())
	}
	v.start = p
	return v
}

// Variants returns every supported variant.
func Variants() []*Variant { return append([]*Variant(nil), variants...) }

// RuleSets returns every supported rule set: the variants, and Damone with
// the all-Damoni rule (a Variant value of its own that shares Damone's
// name; see RulesName).
func RuleSets() []*Variant { return append(Variants(), DamoneAllDamoni) }

// RulesName is the name of v's rule set: the variant's name, and
// "damone-all-damoni" for DamoneAllDamoni, the one rule set whose Name is
// another's (the Hub names it variant=damone with all-damoni-win=true).
// The names of files made per rule set (learned weights, self-play games)
// and of the web page's rule sets are these.
func (v *Variant) RulesName() string {
	if v.damoniLoss {
		return v.Name + "-all-damoni"
	}
	return v.Name
}

// LookupRules is Lookup that also knows "damone-all-damoni" (RulesName).
func LookupRules(name string) (*Variant, error) {
	if strings.ToLower(strings.TrimSpace(name)) == DamoneAllDamoni.RulesName() {
		return DamoneAllDamoni, nil
	}
	return Lookup(name)
}

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

// NumIDs bounds Variant.ID: a table indexed by ID has NumIDs entries.
const NumIDs = 10

// ID returns the number that tells this variant value apart from the
// others (1 to NumIDs-1; DamoneAllDamoni has its own), for a package that
// keeps per-variant data in a table and must not look it up by name. A
// Variant not made by this package has ID 0.
func (v *Variant) ID() int { return int(v.id) }

// String returns the variant's name.
func (v *Variant) String() string { return v.Name }

// Start returns the start position.
func (v *Variant) Start() Position { return v.start }

// Generate fills ml with every legal move of p.
func (v *Variant) Generate(p *Position, ml *MoveList) { v.gen(p, ml) }

// Count returns the number of legal moves of p, using scratch only when it
// has to list them (captures, whose priority rules need the whole list).
func (v *Variant) Count(p *Position, scratch *MoveList) int { return v.count(p, scratch) }

// setGenerators picks the variant's generator and counter. They are called
// through function values, which Generate and Count inline to: one indirect
// call instead of a call and a switch on the family.
func (v *Variant) setGenerators() {
	switch v.fam {
	case famItalian:
		v.gen, v.count = genItalian, countItalian
	case famDamone:
		dm := &v.dm
		v.gen = func(p *Position, ml *MoveList) { genDamone(dm, p, ml) }
		v.count = func(p *Position, scratch *MoveList) int { return countDamone(dm, p, scratch) }
	case famTurkish:
		v.gen, v.count = genTurkish, countTurkish
	case famIntl:
		v.gen, v.count, v.perft2 = diagGenerators[intlRules]()
	case famRussian:
		v.gen, v.count, v.perft2 = diagGenerators[russianRules]()
	case famSpanish:
		v.gen, v.count, v.perft2 = diagGenerators[spanishRules]()
	case famBrazilian:
		v.gen, v.count, v.perft2 = diagGenerators[brazilianRules]()
	case famEnglish:
		v.gen, v.count, v.perft2 = diagGenerators[englishRules]()
	default:
		panic("movegen: no generator for " + v.Name)
	}
}

// HasMove reports whether the side to move in p has a legal move, as
// Count(p, scratch) > 0 does, but mostly without counting: on the
// diagonal boards a step (or a king's first square of a slide) to an
// empty square is looked for first, and a capture only where there is
// none (a capture, when there is one, is a legal move too). Turkish and
// Damone count.
func (v *Variant) HasMove(p *Position, scratch *MoveList) bool {
	switch v.fam {
	case famItalian:
		if italianCanStep(p) {
			return true
		}
	case famIntl:
		if diagCanStep[intlRules](p) {
			return true
		}
	case famRussian:
		if diagCanStep[russianRules](p) {
			return true
		}
	case famSpanish:
		if diagCanStep[spanishRules](p) {
			return true
		}
	case famBrazilian:
		if diagCanStep[brazilianRules](p) {
			return true
		}
	case famEnglish:
		if diagCanStep[englishRules](p) {
			return true
		}
	default:
		return v.Count(p, scratch) > 0
	}
	return v.HasCapture(p)
}

// HasCapture reports whether the side to move in p has a capture (and so
// must capture).
func (v *Variant) HasCapture(p *Position) bool {
	var jm, jk uint64
	switch v.fam {
	case famItalian:
		return italianHasCapture(p)
	case famDamone:
		jm = damoneJumpers(p)
	case famTurkish:
		jm, jk = turkishJumpers(p)
	case famIntl:
		return diagHasCapture[intlRules](p)
	case famRussian:
		return diagHasCapture[russianRules](p)
	case famSpanish:
		return diagHasCapture[spanishRules](p)
	case famBrazilian:
		return diagHasCapture[brazilianRules](p)
	case famEnglish:
		return diagHasCapture[englishRules](p)
	}
	return jm|jk != 0
}

// HasHubString reports whether positions of the variant can be written as
// a Hub position string (Damone's cannot: the string has no letter for a
// Damone, so its positions travel as FEN).
func (v *Variant) HasHubString() bool { return v.fam != famDamone }

// HasDamoni reports whether v has Damone's third rank of piece, the
// Damoni (Position.Super, a subset of Position.Kings).
func (v *Variant) HasDamoni() bool { return v.fam == famDamone }

// MenMoveSideways reports whether men may step along their rank (Turkish):
// a man move is then no barrier to a repeated position, only a capture is.
func (v *Variant) MenMoveSideways() bool { return v.fam == famTurkish }

// HasLossRule reports whether the variant has a way to lose other than
// having no legal move (see Lost).
func (v *Variant) HasLossRule() bool { return v.damoniLoss }

// Lost reports whether the side to move in p has lost by a rule of the
// variant other than having no legal move: in Damone with the "all Damoni
// captured" option, having no Damone left.
func (v *Variant) Lost(p *Position) bool {
	return v.damoniLoss && p.Pieces[p.Side]&p.Super == 0
}

// WithDamoniRule returns Damone with or without the option that losing all
// Damoni loses the game; other variants are returned unchanged.
func (v *Variant) WithDamoniRule(on bool) *Variant {
	if v.fam != famDamone {
		return v
	}
	if on {
		return DamoneAllDamoni
	}
	return Damone
}

// Bit returns the board bit of square number n, or -1 if there is none.
func (v *Variant) Bit(n int) int {
	if n < 1 || n > v.Squares {
		return -1
	}
	return int(v.geo.sqBit[n])
}

// SquareNumber returns the square number of board bit b, or 0.
func (v *Variant) SquareNumber(b int) int {
	if b < 0 || b >= 64 {
		return 0
	}
	return int(v.geo.bitSq[b])
}

// SquareName returns the variant's name of board bit b: its number, or
// its algebraic name where the variant writes squares that way.
func (v *Variant) SquareName(b int) string { return v.geo.name(b) }

// Coord returns the file (0 = a) and rank (0 = White's first rank) of board
// bit b in the variant's own orientation, or -1, -1.
func (v *Variant) Coord(b int) (file, rank int) {
	if b < 0 || b >= 64 {
		return -1, -1
	}
	c := v.geo.coord[b]
	return int(c[0]), int(c[1])
}

// BitAt returns the board bit at file f, rank r, or -1.
func (v *Variant) BitAt(f, r int) int { return v.geo.bitAt(f, r) }

// Files and Ranks return the board size.
func (v *Variant) Files() int { return v.geo.files }

// Ranks returns the number of ranks of the board.
func (v *Variant) Ranks() int { return v.geo.ranks }

// Board returns the mask of the playable bits.
func (v *Variant) Board() uint64 { return v.board }

// CrownRank returns the bits where the men of colour c are crowned.
func (v *Variant) CrownRank(c Color) uint64 { return v.crown[c] }

// DamoneRank returns the bits where the Dame of colour c become Damoni in
// Italian Damone (the square where the enemy Damone started); 0 in every
// other variant, which has no third rank of piece.
func (v *Variant) DamoneRank(c Color) uint64 { return v.dm.toDamone[c] }

// Flip returns p turned 180° with the colours swapped and the other side to
// move: the same position seen from the other side. Evaluations must score
// p and Flip(p) alike for the side to move.
func (v *Variant) Flip(p *Position) Position {
	var q Position
	q.Pieces[White] = v.geo.rotate(p.Pieces[Black])
	q.Pieces[Black] = v.geo.rotate(p.Pieces[White])
	q.Kings = v.geo.rotate(p.Kings)
	q.Super = v.geo.rotate(p.Super)
	q.Side = p.Side ^ 1
	q.Key = q.ComputeKey()
	return q
}

// IsManMove reports whether m is made by a man in p (for the draw counters).
func (p *Position) IsManMove(m Move) bool { return p.Kings&(1<<m.From) == 0 }

// NextReversible returns the count of plies without a capture or a man move
// after m is played in p, given the count rev before it: the counter of the
// move rules (rules.md "Draws").
func (p *Position) NextReversible(m Move, rev int) int {
	if m.Captured != 0 || p.IsManMove(m) {
		return 0
	}
	return rev + 1
}

// Jumpers returns the pieces of colour c in p that could capture were c
// to move (p's side to move is not looked at): the men and the kings
// whose first jump the rules allow, whatever the longest or best capture
// would be (where the majority rule applies, the legal captures start
// from some of them). For the other side than the one to move, the
// threats it makes.
func (v *Variant) Jumpers(p *Position, c Color) uint64 {
	q := *p
	q.Side = c
	var jm, jk uint64
	switch v.fam {
	case famItalian:
		jm, jk = italianJumpers(&q)
	case famDamone:
		jm = damoneJumpers(&q)
	case famTurkish:
		jm, jk = turkishJumpers(&q)
	case famIntl:
		jm, jk = diagJumpers[intlRules](&q)
	case famRussian:
		jm, jk = diagJumpers[russianRules](&q)
	case famSpanish:
		jm, jk = diagJumpers[spanishRules](&q)
	case famBrazilian:
		jm, jk = diagJumpers[brazilianRules](&q)
	case famEnglish:
		jm, jk = diagJumpers[englishRules](&q)
	}
	return jm | jk
}

// Taken returns the pieces that colour c's legal captures in p take, were
// c to move (p's side to move is not looked at), given c's jumpers there
// (Jumpers(p, c), which the caller has): the union of the captured sets
// of every capture the rules allow c (its majority and quality rules
// applied), zero when c has none. It lists the captures only when c has a
// jumper, and allocates nothing.
func (v *Variant) Taken(p *Position, c Color, jumpers uint64) uint64 {
	if jumpers == 0 {
		return 0
	}
	q := *p
	q.Side = c
	return v.taken(&q, jumpers&^p.Kings, jumpers&p.Kings)
}

// taken is Taken of q's side to move, whose jumpers are the men jm and
// the kings jk (Damone's generator finds its own): the move list, 4 KB to
// clear, is made only here.
func (v *Variant) taken(q *Position, jm, jk uint64) uint64 {
	var ml MoveList
	switch v.fam {
	case famItalian:
		italianCaptures(q, &ml, jm, jk)
	case famDamone:
		genDamone(&v.dm, q, &ml)
	case famTurkish:
		turkishCaptures(q, &ml, jm, jk)
	case famIntl:
		diagCaptures[intlRules](q, &ml, jm, jk)
	case famRussian:
		diagCaptures[russianRules](q, &ml, jm, jk)
	case famSpanish:
		diagCaptures[spanishRules](q, &ml, jm, jk)
	case famBrazilian:
		diagCaptures[brazilianRules](q, &ml, jm, jk)
	case famEnglish:
		diagCaptures[englishRules](q, &ml, jm, jk)
	}
	var x uint64
	for _, m := range ml.Moves[:ml.N] {
		x |= m.Captured
	}
	return x
}
