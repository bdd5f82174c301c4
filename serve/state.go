package serve

import (
	"strings"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// Square is one playable square as the page draws it: its name, where it
// lies (file 0 = a, rank 0 = White's first rank) and the piece on it.
type Square struct {
	Name  string `json:"n"`
	File  int    `json:"f"`
	Rank  int    `json:"r"`
	Piece string `json:"p,omitempty"` // "w", "b" men; "W", "B" kings; "WD", "BD" Damoni
}

// MoveInfo is a legal or played move as the page shows it.
type MoveInfo struct {
	Text     string   `json:"text"`               // the variant's notation, full capture path
	Hub      string   `json:"hub"`                // the Hub form
	Path     []string `json:"path"`               // squares visited: from, landings..., to
	Captured []string `json:"captured,omitempty"` // squares of the captured pieces
	Pieces   []string `json:"pieces,omitempty"`   // the captured pieces, in Captured's order
	Promote  bool     `json:"promote,omitempty"`  // the moving piece is crowned
}

// State is a game as the API returns it.
type State struct {
	ID       string     `json:"id"`
	Variant  string     `json:"variant"`
	Files    int        `json:"files"`
	Ranks    int        `json:"ranks"`
	Diagonal bool       `json:"diagonal"`
	Human    string     `json:"human"`
	Level    string     `json:"level"`
	ToMove   string     `json:"toMove"`
	Squares  []Square   `json:"squares"`
	Moves    []MoveInfo `json:"moves"`
	Last     *MoveInfo  `json:"last,omitempty"`
	History  []string   `json:"history"`
	Taken    [2]int     `json:"taken"` // pieces of White, of Black captured so far
	Over     bool       `json:"over"`
	Result   string     `json:"result"` // PDN result: 2-0, 0-2, 1-1 or *
	Status   string     `json:"status"` // why the game ended, "" while it goes on
	// End is why the game ended as a code the page words for the person:
	// no-move, no-damone, repetition, move-rule, too-long, resigned,
	// agreed ("" while it goes on); Winner is white or black, "" for a
	// draw.
	End      string `json:"end,omitempty"`
	Winner   string `json:"winner,omitempty"`
	FEN      string `json:"fen"`
	Start    string `json:"start"` // the start position's FEN, to bring the game back`
	Thinking bool   `json:"thinking"`
}

// pieceCode names the piece on bit b, "" for none.
func pieceCode(p *movegen.Position, b int) string {
	bit := uint64(1) << b
	for c := movegen.White; c <= movegen.Black; c++ {
		if p.Pieces[c]&bit == 0 {
			continue
		}
		switch {
		case p.Super&bit != 0:
			return [2]string{"WD", "BD"}[c]
		case p.Kings&bit != 0:
			return [2]string{"W", "B"}[c]
		}
		return [2]string{"w", "b"}[c]
	}
	return ""
}

// squares lists the playable squares of v with the pieces of p.
func squares(v *movegen.Variant, p *movegen.Position) []Square {
	var sq []Square
	for b := 0; b < 64; b++ {
		if v.Board()&(1<<b) == 0 {
			continue
		}
		f, r := v.Coord(b)
		sq = append(sq, Square{Name: v.SquareName(b), File: f, Rank: r, Piece: pieceCode(p, b)})
	}
	return sq
}

// moveInfo describes m, legal in p.
func moveInfo(v *movegen.Variant, p *movegen.Position, m movegen.Move) MoveInfo {
	text := v.FormatMove(p, m)
	mi := MoveInfo{Text: text, Hub: v.HubMove(m), Promote: m.Promote}
	mi.Path = strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
	for b := 0; b < 64; b++ {
		if m.Captured&(1<<b) != 0 {
			mi.Captured = append(mi.Captured, v.SquareName(b))
			mi.Pieces = append(mi.Pieces, pieceCode(p, b))
		}
	}
	return mi
}

// legal lists the legal moves of the current position (none when the game
// is over).
func (g *game) legal() []MoveInfo {
	mi := []MoveInfo{}
	if g.over() {
		return mi
	}
	v, p := g.rec.Variant(), g.rec.Position()
	var ml movegen.MoveList
	v.Generate(&p, &ml)
	for _, m := range ml.Slice() {
		mi = append(mi, moveInfo(v, &p, m))
	}
	return mi
}

// result returns the PDN result of the game so far.
func (g *game) result() string {
	if g.ended != nil {
		return g.ended.result()
	}
	st := g.rec.Status()
	switch {
	case !st.Over():
		return pdn.Unfinished
	case st.Draw():
		return pdn.DrawResult
	case st.Winner == movegen.White:
		return pdn.WhiteWins
	}
	return pdn.BlackWins
}

// state returns the game as the API shows it.
func (g *game) state() State {
	v, p := g.rec.Variant(), g.rec.Position()
	info := infoOf(v)
	start := g.rec.Start()
	s := State{
		ID: g.id, Variant: variantName(v), Files: info.Files, Ranks: info.Ranks, Diagonal: info.Diagonal,
		Human: g.human.String(), Level: g.level.Name(), ToMove: p.Side.String(),
		Squares: squares(v, &p), Moves: g.legal(), History: []string{},
		Over: g.over(), Result: g.result(), Status: g.endText(), FEN: v.FEN(&p), Start: v.FEN(&start), Thinking: g.busy,
	}
	s.End, s.Winner = g.endCode()
	for i, m := range g.rec.Moves() {
		before := g.rec.Before(i)
		mi := moveInfo(v, &before, m)
		s.History = append(s.History, mi.Text)
		for _, pc := range mi.Pieces {
			if strings.HasPrefix(pc, "w") || strings.HasPrefix(pc, "W") {
				s.Taken[movegen.White]++
			} else {
				s.Taken[movegen.Black]++
			}
		}
		if i == g.rec.Plies()-1 {
			s.Last = &mi
		}
	}
	return s
}

// pdnText writes the game as PDN, the person and the engine named as the
// players.
func (g *game) pdnText() string {
	v := g.rec.Variant()
	pg := &pdn.Game{Variant: v, Start: g.rec.Start(), Moves: g.rec.Moves(), Result: g.result()}
	pg.SetTag("Event", "damaengine serve")
	white, black := "you", "damaengine level "+g.level.Name()
	if g.human == movegen.Black {
		white, black = black, white
	}
	pg.SetTag("White", white)
	pg.SetTag("Black", black)
	if g.over() {
		pg.Comment = g.endText()
	}
	var sb strings.Builder
	_ = pdn.Write(&sb, pg)
	return sb.String()
}
