// Package pdn reads and writes draughts games in Portable Draughts
// Notation: a block of [Tag "value"] lines, then the moves with their
// numbers and the result. Moves are written in the variant's own notation
// (movegen.FormatMove); the GameType tag names the variant.
package pdn

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// Results as PDN writes them.
const (
	WhiteWins  = "2-0"
	BlackWins  = "0-2"
	DrawResult = "1-1"
	Unfinished = "*"
)

// Game is one game: its tags, start position, moves and result.
type Game struct {
	Variant *movegen.Variant
	// Tags holds the tag pairs other than GameType, FEN and Result, in the
	// order they are written (Event, Site, Date, Round, White, Black, ...).
	Tags   [][2]string
	Start  movegen.Position
	Moves  []movegen.Move
	Result string
	// Comment, if set, is written after the last move (for example why the
	// game ended: "black played an illegal move").
	Comment string
}

// Tag returns the value of a tag, or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t[0] == name {
			return t[1]
		}
	}
	return ""
}

// SetTag sets a tag, replacing an earlier value.
func (g *Game) SetTag(name, value string) {
	for i, t := range g.Tags {
		if t[0] == name {
			g.Tags[i][1] = value
			return
		}
	}
	g.Tags = append(g.Tags, [2]string{name, value})
}

func quoteTag(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	return strings.ReplaceAll(s, "\"", "\\\"")
}

// Write writes g as PDN.
func Write(w io.Writer, g *Game) error {
	v := g.Variant
	var sb strings.Builder
	for _, t := range g.Tags {
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", t[0], quoteTag(t[1]))
	}
	result := g.Result
	if result == "" {
		result = Unfinished
	}
	fmt.Fprintf(&sb, "[Result \"%s\"]\n", result)
	fmt.Fprintf(&sb, "[GameType \"%d\"]\n", v.GameType)
	if shared(v) {
		// the GameType number is not enough to tell the variant
		fmt.Fprintf(&sb, "[Variant \"%s\"]\n", v.Name)
	}
	start := v.Start()
	if g.Start != start {
		fmt.Fprintf(&sb, "[FEN \"%s\"]\n", v.FEN(&g.Start))
	}
	sb.WriteString("\n")
	p := g.Start
	line := 0
	emit := func(tok string) {
		if line > 0 && line+len(tok) > 79 {
			sb.WriteString("\n")
			line = 0
		} else if line > 0 {
			sb.WriteString(" ")
			line++
		}
		sb.WriteString(tok)
		line += len(tok)
	}
	// Moves are numbered in pairs from the side that moves first.
	for i, m := range g.Moves {
		if i%2 == 0 {
			emit(strconv.Itoa(i/2+1) + ".")
		}
		emit(v.FormatMove(&p, m))
		p.Play(m)
	}
	if g.Comment != "" {
		emit("{" + strings.ReplaceAll(g.Comment, "}", ")") + "}")
	}
	emit(result)
	sb.WriteString("\n\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// Read reads every game of a PDN text. variantOf picks the variant of a
// game from its GameType tag (nil: use def). Each game's moves are checked
// against the rules; an illegal or unreadable move is an error naming the
// game and the move.
func Read(r io.Reader, def *movegen.Variant) ([]*Game, error) {
	br := bufio.NewReader(r)
	var games []*Game
	text, err := io.ReadAll(io.LimitReader(br, 64<<20))
	if err != nil {
		return nil, err
	}
	toks, err := tokenize(string(text))
	if err != nil {
		return nil, err
	}
	var cur *Game
	var p movegen.Position
	played := false // the current game has moves or a result token
	finish := func() {
		if cur != nil {
			games = append(games, cur)
			cur = nil
		}
		played = false
	}
	start := func() {
		if cur == nil {
			cur = &Game{Variant: def, Start: def.Start()}
			p = cur.Start
		}
	}
	var fen string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokTag:
			if played {
				finish()
			}
			start()
			switch t.name {
			case "GameType":
				gt, _ := strconv.Atoi(strings.SplitN(t.text, ",", 2)[0])
				if cur.Variant.GameType != gt {
					for _, v := range movegen.Variants() {
						if v.GameType == gt {
							cur.Variant = v
							cur.Start = v.Start()
							p = cur.Start
							break
						}
					}
				}
			case "Variant":
				if v, err := movegen.Lookup(t.text); err == nil {
					cur.Variant = v
					cur.Start = v.Start()
					p = cur.Start
				} else {
					cur.SetTag(t.name, t.text)
				}
			case "FEN":
				fen = t.text
				q, err := cur.Variant.ParseFEN(fen)
				if err != nil {
					return games, fmt.Errorf("pdn game %d: %v", len(games)+1, err)
				}
				cur.Start, p = q, q
			case "Result":
				// the result after the moves decides; keep the tag as a default
				cur.Result = t.text
			default:
				cur.SetTag(t.name, t.text)
			}
		case tokMove:
			start()
			m, err := cur.Variant.ParseMove(&p, t.text)
			if err != nil {
				return games, fmt.Errorf("pdn game %d, move %d: %v", len(games)+1, len(cur.Moves)+1, err)
			}
			cur.Moves = append(cur.Moves, m)
			p.Play(m)
			played = true
		case tokResult:
			start()
			cur.Result = t.text
			finish()
		case tokComment:
			if cur != nil {
				cur.Comment = t.text
			}
		}
	}
	if cur != nil && (len(cur.Moves) > 0 || len(cur.Tags) > 0) {
		finish()
	}
	return games, nil
}

// Complete returns the length of the part of a PDN text that ends with
// its last complete game, for reading back a file whose writer was cut
// off: a game is complete once a result token (2-0, 0-2, 1-1, *, ...)
// follows its moves, outside tags and comments, with something after it
// (Write ends every game with a blank line, so a "1-1" at the very end
// may still be the start of a move such as "1-12"). What follows is an
// unfinished game (a tag block, some moves, or a cut tag or comment) or
// white space; Read reads text[:Complete(text)] without error unless a
// complete game is itself wrong.
func Complete(text string) int {
	toks, _ := tokenize(text) // an unterminated tag or comment runs to the end: it is in the tail
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.kind == tokResult && t.end < len(text) { // a word ends at a delimiter or the end
			return t.end
		}
	}
	return 0
}

type tokKind int

const (
	tokTag tokKind = iota
	tokMove
	tokResult
	tokComment
)

type token struct {
	kind       tokKind
	name, text string
	end        int // the byte offset just past the token
}

// tokenize splits PDN text into tags, moves, results and comments; move
// numbers are dropped.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '[':
			name, val, end, ok := readTag(s, i)
			if !ok {
				return out, fmt.Errorf("pdn: unterminated tag at byte %d", i)
			}
			i = end
			out = append(out, token{kind: tokTag, name: name, text: val, end: i})
		case c == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return out, fmt.Errorf("pdn: unterminated comment at byte %d", i)
			}
			out = append(out, token{kind: tokComment, text: s[i+1 : i+j], end: i + j + 1})
			i += j + 1
		case c == ';':
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			i += j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r[{", rune(s[j])) {
				j++
			}
			w := s[i:j]
			i = j
			switch {
			case w == WhiteWins || w == BlackWins || w == DrawResult || w == Unfinished || w == "1-0" || w == "0-1" || w == "1/2-1/2":
				out = append(out, token{kind: tokResult, text: w, end: i})
			case strings.HasSuffix(w, "."):
				// move number: "12." or "12..."
			default:
				if k := strings.Index(w, "."); k > 0 && isDigits(w[:k]) {
					w = strings.TrimLeft(w[k:], ".") // "12.32-28"
				}
				if w != "" {
					out = append(out, token{kind: tokMove, text: strings.TrimRight(w, "!?*"), end: i})
				}
			}
		}
	}
	return out, nil
}

// readTag reads the tag pair that starts with the '[' at s[i]: its name,
// its value and the offset just past its ']'; ok is false if the text
// ends first. A value in double quotes may hold '"' and '\\' escaped by
// a backslash (as Write escapes them), and ']'. A value without quotes,
// or one whose closing quote is not on its line, runs to the first ']'.
func readTag(s string, i int) (name, val string, end int, ok bool) {
	k := i + 1
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	from := k
	for k < len(s) && !strings.ContainsRune(" \t\r\n\"]", rune(s[k])) {
		k++
	}
	name = s[from:k]
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	from = k
	if k < len(s) && s[k] == '"' {
		var sb strings.Builder
		for k++; k < len(s) && s[k] != '\n'; k++ {
			c := s[k]
			if c == '"' {
				j := strings.IndexByte(s[k:], ']')
				if j < 0 {
					return "", "", 0, false
				}
				return name, sb.String(), k + j + 1, true
			}
			if c == '\\' && k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\\') {
				k++
				c = s[k]
			}
			sb.WriteByte(c)
		}
		if k == len(s) {
			return "", "", 0, false
		}
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 0 {
		return "", "", 0, false
	}
	val = strings.TrimSpace(s[from : i+j])
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		val = val[1 : len(val)-1]
	}
	val = strings.ReplaceAll(strings.ReplaceAll(val, "\\\"", "\""), "\\\\", "\\")
	return name, val, i + j + 1, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// shared reports whether another variant has the same GameType number.
func shared(v *movegen.Variant) bool {
	for _, o := range movegen.Variants() {
		if o != v && o.GameType == v.GameType {
			return true
		}
	}
	return false
}
