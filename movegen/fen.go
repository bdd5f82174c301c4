package movegen

import (
	"fmt"
	"strconv"
	"strings"
)

// Positions as text: PDN FEN ("W:W21-32:B1-12") and the Hub position string
// (side to move, then one character per square in numbering order: w b W B
// for men and kings, e for empty).

// ParseFEN reads a PDN FEN in the variant's square names: the side to move,
// then each colour's pieces (either colour first), K before a king, ranges
// such as 21-32 (K before a range makes every square in it a king). A
// surrounding [FEN "..."] tag, quotes and a final '.' are accepted. Anything
// that is not a legal position of the variant is rejected with an error that
// names the offending part.
func (v *Variant) ParseFEN(s string) (Position, error) {
	var p Position
	text := strings.TrimSpace(s)
	if strings.HasPrefix(text, "[FEN ") && strings.HasSuffix(text, "]") {
		text = strings.TrimSpace(text[5 : len(text)-1])
	}
	text = strings.Trim(text, "\"")
	text = strings.TrimSuffix(strings.TrimSpace(text), ".")
	fields := strings.Split(text, ":")
	if len(fields) != 3 {
		return p, fmt.Errorf("fen %q: want side:colour:colour, found %d field(s)", clip(s), len(fields))
	}
	switch strings.ToUpper(strings.TrimSpace(fields[0])) {
	case "W":
		p.Side = White
	case "B":
		p.Side = Black
	default:
		return p, fmt.Errorf("fen %q: side to move %q is not W or B", clip(s), fields[0])
	}
	seen := [2]bool{}
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			return p, fmt.Errorf("fen %q: empty colour field", clip(s))
		}
		var c Color
		switch f[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			return p, fmt.Errorf("fen %q: colour field %q does not start with W or B", clip(s), f)
		}
		if seen[c] {
			return p, fmt.Errorf("fen %q: %s pieces listed twice", clip(s), c)
		}
		seen[c] = true
		if err := v.parseFENPieces(&p, c, f[1:]); err != nil {
			return Position{}, fmt.Errorf("fen %q: %v", clip(s), err)
		}
	}
	if err := v.validate(&p); err != nil {
		return Position{}, fmt.Errorf("fen %q: %v", clip(s), err)
	}
	p.Key = p.ComputeKey()
	return p, nil
}

// parseFENPieces adds one colour's comma-separated list of squares to p.
func (v *Variant) parseFENPieces(p *Position, c Color, list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	for _, item := range strings.Split(list, ",") {
		tok := strings.TrimSpace(item)
		king, super := false, false
		if len(tok) > 0 && (tok[0] == 'K' || tok[0] == 'k') {
			king = true
			tok = tok[1:]
		} else if len(tok) > 0 && tok[0] == 'D' && v.fam == famDamone {
			king, super = true, true
			tok = tok[1:]
		}
		if tok == "" {
			return fmt.Errorf("empty square in %s list %q", c, list)
		}
		lo, hi := tok, tok
		if i := strings.IndexByte(tok, '-'); i > 0 {
			lo, hi = tok[:i], tok[i+1:]
			if king && len(hi) > 0 && (hi[0] == 'K' || hi[0] == 'k' || (super && hi[0] == 'D')) {
				hi = hi[1:] // "K21-K23"
			}
		}
		a, err := v.parseSquare(lo)
		if err != nil {
			return fmt.Errorf("%s piece %q: %v", c, item, err)
		}
		b, err := v.parseSquare(hi)
		if err != nil {
			return fmt.Errorf("%s piece %q: %v", c, item, err)
		}
		na, nb := v.SquareNumber(a), v.SquareNumber(b)
		if a != b && v.geo.algebraic && !isNumber(lo) {
			return fmt.Errorf("%s range %q: ranges take square numbers", c, item)
		}
		if na > nb {
			return fmt.Errorf("%s range %q runs backwards", c, item)
		}
		for n := na; n <= nb; n++ {
			bit := uint64(1) << v.geo.sqBit[n]
			if p.Occupied()&bit != 0 {
				return fmt.Errorf("square %d given twice (in %s %q)", n, c, item)
			}
			p.Pieces[c] |= bit
			if king {
				p.Kings |= bit
			}
			if super {
				p.Super |= bit
			}
		}
	}
	return nil
}

// parseSquare reads one square name of the variant and returns its bit.
func (v *Variant) parseSquare(tok string) (int, error) {
	b, ok := v.geo.parse(strings.TrimSpace(tok))
	if !ok {
		if v.geo.algebraic {
			return 0, fmt.Errorf("%q is not a square (1-%d or a1-%s)", tok, v.Squares, v.geo.name(int(v.geo.sqBit[v.Squares])))
		}
		return 0, fmt.Errorf("%q is not a square (1-%d)", tok, v.Squares)
	}
	return b, nil
}

// validate checks that p is a legal position of the variant: no man on the
// rank where it would be crowned, no more pieces than a side can have.
func (v *Variant) validate(p *Position) error {
	for c := White; c <= Black; c++ {
		if bad := p.Men(c) & v.crown[c]; bad != 0 {
			return fmt.Errorf("%s man on square %s, where it would already be crowned", c, v.geo.name(lsb(bad)))
		}
		if bad := p.Pieces[c] & p.Kings &^ p.Super & v.dm.toDamone[c]; bad != 0 {
			return fmt.Errorf("%s Dama on square %s, where it would already be a Damone", c, v.geo.name(lsb(bad)))
		}
		if n := popcount(p.Pieces[c]); n > v.MaxPieces {
			return fmt.Errorf("%d %s pieces, at most %d allowed", n, c, v.MaxPieces)
		}
	}
	return nil
}

// FEN writes p as PDN FEN: White's pieces then Black's, ascending, kings
// prefixed with K, runs of three or more men written as ranges.
func (v *Variant) FEN(p *Position) string {
	var sb strings.Builder
	if p.Side == White {
		sb.WriteString("W")
	} else {
		sb.WriteString("B")
	}
	for c := White; c <= Black; c++ {
		sb.WriteString(":")
		if c == White {
			sb.WriteString("W")
		} else {
			sb.WriteString("B")
		}
		first := true
		sep := func() {
			if !first {
				sb.WriteString(",")
			}
			first = false
		}
		for n := 1; n <= v.Squares; n++ {
			bit := uint64(1) << v.geo.sqBit[n]
			if p.Pieces[c]&bit == 0 {
				continue
			}
			sep()
			if p.Super&bit != 0 {
				sb.WriteString("D" + v.geo.name(int(v.geo.sqBit[n])))
				continue
			}
			if p.Kings&bit != 0 {
				sb.WriteString("K" + v.geo.name(int(v.geo.sqBit[n])))
				continue
			}
			if v.geo.algebraic {
				sb.WriteString(v.geo.name(int(v.geo.sqBit[n])))
				continue
			}
			end := n
			for end+1 <= v.Squares && p.Men(c)&(1<<v.geo.sqBit[end+1]) != 0 {
				end++
			}
			if end-n >= 2 {
				sb.WriteString(strconv.Itoa(n) + "-" + strconv.Itoa(end))
				n = end
			} else {
				sb.WriteString(strconv.Itoa(n))
			}
		}
	}
	return sb.String()
}

// ParseHub reads a Hub position string: W or B, then one character per
// square in numbering order (w, b, W, B or e).
func (v *Variant) ParseHub(s string) (Position, error) { return v.ParseHubOrder(s, nil, false) }

// Hub writes p as a Hub position string in numbering order.
func (v *Variant) Hub(p *Position) string { return v.HubOrder(p, nil, false) }

// ParseHubOrder reads a Hub position string whose character i (1-based)
// stands for board bit order[i] (nil: the variant's numbering). With swap,
// "w"/"W" pieces and the side "W" are Black: pydraughts writes English that
// way, with the first mover as "w".
func (v *Variant) ParseHubOrder(s string, order []int, swap bool) (Position, error) {
	var p Position
	if v.fam == famDamone {
		return p, fmt.Errorf("hub position %q: damone positions travel as FEN (a Hub string has no letter for a Damone)", clip(s))
	}
	if len(s) != v.Squares+1 {
		return p, fmt.Errorf("hub position %q: want %d characters for %s, found %d", clip(s), v.Squares+1, v.Name, len(s))
	}
	white, black := White, Black
	if swap {
		white, black = Black, White
	}
	switch s[0] {
	case 'W', 'w':
		p.Side = white
	case 'B', 'b':
		p.Side = black
	default:
		return p, fmt.Errorf("hub position %q: side to move %q is not W or B", clip(s), s[0])
	}
	for n := 1; n <= v.Squares; n++ {
		bit := uint64(1) << v.hubBit(order, n)
		switch s[n] {
		case 'w':
			p.Pieces[white] |= bit
		case 'b':
			p.Pieces[black] |= bit
		case 'W':
			p.Pieces[white] |= bit
			p.Kings |= bit
		case 'B':
			p.Pieces[black] |= bit
			p.Kings |= bit
		case 'e', '.':
		default:
			return Position{}, fmt.Errorf("hub position %q: character %q for square %d is not w, b, W, B or e", clip(s), s[n], n)
		}
	}
	if err := v.validate(&p); err != nil {
		return Position{}, fmt.Errorf("hub position %q: %v", clip(s), err)
	}
	p.Key = p.ComputeKey()
	return p, nil
}

// HubOrder writes p as a Hub position string in the order and colours of
// ParseHubOrder.
func (v *Variant) HubOrder(p *Position, order []int, swap bool) string {
	b := make([]byte, v.Squares+1)
	white := White
	if swap {
		white = Black
	}
	b[0] = 'B'
	if p.Side == white {
		b[0] = 'W'
	}
	for n := 1; n <= v.Squares; n++ {
		bit := uint64(1) << v.hubBit(order, n)
		k := p.Kings&bit != 0
		switch {
		case p.Pieces[white]&bit != 0 && k:
			b[n] = 'W'
		case p.Pieces[white]&bit != 0:
			b[n] = 'w'
		case p.Pieces[white^1]&bit != 0 && k:
			b[n] = 'B'
		case p.Pieces[white^1]&bit != 0:
			b[n] = 'b'
		default:
			b[n] = 'e'
		}
	}
	return string(b)
}

// hubBit is the bit of character n of a Hub string in order.
func (v *Variant) hubBit(order []int, n int) int {
	if order == nil {
		return int(v.geo.sqBit[n])
	}
	return order[n]
}

// ParsePosition reads "start", a Hub position string or a PDN FEN.
func (v *Variant) ParsePosition(s string) (Position, error) {
	t := strings.TrimSpace(s)
	switch {
	case strings.EqualFold(t, "start"):
		return v.start, nil
	case strings.Contains(t, ":"):
		return v.ParseFEN(t)
	default:
		return v.ParseHub(t)
	}
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(strings.TrimSpace(s))
	return err == nil
}

// clip shortens text quoted in an error message.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
