package play

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// splitSquares cuts move text at its separators ('-', 'x', ':') and
// reports whether it ended with one.
func splitSquares(s string) (toks []string, trailing bool) {
	tok := ""
	for _, c := range s {
		switch c {
		case '-', 'x', 'X', ':':
			toks = append(toks, tok)
			tok = ""
		default:
			tok += string(c)
		}
	}
	if tok == "" && len(toks) > 0 {
		return toks, true
	}
	return append(toks, tok), false
}

// square reads one square name (a number, or algebraic where the variant
// uses it) or the board's coordinates as drawn around it (c3: file c, rank
// 3, in a numbered variant too) and returns its bit, or -1.
func (g *session) square(tok string) int {
	tok = strings.ToLower(strings.TrimSpace(tok))
	if n, err := strconv.Atoi(tok); err == nil {
		return g.v.Bit(n)
	}
	for b := 0; b < 64; b++ {
		if g.v.Board()&(1<<b) != 0 && g.v.SquareName(b) == tok {
			return b
		}
	}
	if len(tok) >= 2 && tok[0] >= 'a' && tok[0] <= 'z' {
		if r, err := strconv.Atoi(tok[1:]); err == nil {
			if b := g.v.BitAt(int(tok[0]-'a'), r-1); b >= 0 && g.v.Board()&(1<<b) != 0 {
				return b
			}
		}
	}
	return -1
}

// resolve finds the legal move text names: anything ParseMove reads, or
// the beginning of exactly one legal move's written path. On failure the
// message says why and lists the legal moves or the candidates.
func (g *session) resolve(text string) (movegen.Move, string) {
	legal := g.legal()
	names := make([]string, len(legal))
	for i, m := range legal {
		names[i] = g.v.FormatMove(&g.pos, m)
	}
	list := strings.Join(names, " ")
	if len(legal) == 0 {
		return movegen.Move{}, fmt.Sprintf("No legal move for %q: %s has no move.", text, g.pos.Side)
	}
	if m, err := g.v.ParseMove(&g.pos, text); err == nil {
		return m, ""
	}
	toks, _ := splitSquares(text)
	want := make([]int, len(toks))
	for i, t := range toks {
		if want[i] = g.square(t); want[i] < 0 {
			return movegen.Move{}, fmt.Sprintf("%q is neither a move nor a command (%q is not a square; type help). Legal moves: %s", text, t, list)
		}
	}
	var found []int
	for i, name := range names {
		path, _ := splitSquares(name)
		if len(want) == 2 && int(legal[i].From) == want[0] && int(legal[i].To) == want[1] {
			found = append(found, i) // a capture named by from and to
			continue
		}
		if len(want) > len(path) {
			continue
		}
		ok := true
		for j, b := range want {
			if g.square(path[j]) != b {
				ok = false
				break
			}
		}
		if ok {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return movegen.Move{}, fmt.Sprintf("Illegal move %q: it is not legal here. Legal moves: %s", text, list)
	case 1:
		return legal[found[0]], ""
	}
	cands := make([]string, len(found))
	for i, k := range found {
		cands[i] = names[k]
	}
	return movegen.Move{}, fmt.Sprintf("Ambiguous move %q: it fits %s. Type more of the path.", text, strings.Join(cands, ", "))
}
