package protocol

import (
	"bufio"
	"io"
	"strings"
)

// Hub line syntax: `command name=value name="value with spaces" word ...`.
// Values are quoted when empty or when they hold a space or '='.

// arg is one token of a line: a name=value pair or a bare word.
type arg struct {
	name, value string
	pair        bool
}

// line is a parsed protocol line.
type line struct {
	cmd  string
	args []arg
}

// get returns the value of name and whether it was given as a pair.
func (l *line) get(name string) (string, bool) {
	for _, a := range l.args {
		if a.pair && a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// has reports whether name appears as a bare word or a pair.
func (l *line) has(name string) bool {
	for _, a := range l.args {
		if a.name == name {
			return true
		}
	}
	return false
}

// parseLine splits text into a command and its arguments. It is lenient:
// an unterminated quote runs to the end of the line, and a bare word that
// follows a "value=" pair is taken as more of that value (pydraughts writes
// set-param values unquoted, so "value=a b" arrives as two tokens).
func parseLine(text string) line {
	var l line
	s := strings.TrimSpace(text)
	i := 0
	next := func() (string, bool) { // one token; bool: it had '=' outside quotes
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return "", false
		}
		var sb strings.Builder
		eq := false
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			c := s[i]
			switch {
			case c == '"':
				i++
				for i < len(s) && s[i] != '"' {
					sb.WriteByte(s[i])
					i++
				}
				if i < len(s) {
					i++
				}
				continue
			case c == '=' && !eq:
				eq = true
				sb.WriteByte(0) // separator, never in text we keep
			default:
				sb.WriteByte(c)
			}
			i++
		}
		return sb.String(), eq
	}
	first := true
	for {
		tok, eq := next()
		if tok == "" && !eq {
			if i >= len(s) {
				break
			}
			continue
		}
		if first {
			l.cmd = strings.ReplaceAll(tok, "\x00", "=")
			first = false
			continue
		}
		if eq {
			name, value, _ := strings.Cut(tok, "\x00")
			l.args = append(l.args, arg{name: name, value: value, pair: true})
			continue
		}
		if n := len(l.args); n > 0 && l.args[n-1].pair && l.args[n-1].name == "value" {
			l.args[n-1].value += " " + tok
			continue
		}
		l.args = append(l.args, arg{name: tok})
	}
	return l
}

// quote writes a value as the protocol wants it: quoted when empty or when
// it holds a space or '='. Double quotes inside become single quotes.
func quote(v string) string {
	v = strings.ReplaceAll(v, "\"", "'")
	v = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == 0 {
			return ' '
		}
		return r
	}, v)
	if v == "" || strings.ContainsAny(v, " \t=") {
		return "\"" + v + "\""
	}
	return v
}

// kv formats name=value with quoting.
func kv(name, value string) string { return name + "=" + quote(value) }

// bufioReader returns the reader the command loop reads lines with.
func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 64*1024) }

// errBufferFull is what ReadSlice returns for a line longer than the
// buffer.
var errBufferFull = bufio.ErrBufferFull
