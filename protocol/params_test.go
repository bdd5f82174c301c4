package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestParamTableBoundsSetParam walks the parameter table: every value the
// handshake's declaration rules out (a bool that is not one, an int below
// min or above max, an enum value not listed, a string over the length
// limit) is refused by set-param with an error line and leaves the
// handshake as it was, and each int's declared min is accepted.
func TestParamTableBoundsSetParam(t *testing.T) {
	before := handshakeLines(t, session(t, "hub\nquit\n"))
	var in strings.Builder
	in.WriteString("hub\n")
	bad := 0
	for _, p := range params {
		var values []string
		switch p.kind {
		case "bool":
			values = []string{"maybe", "2"}
		case "int":
			values = []string{strconv.Itoa(p.lo - 1), strconv.Itoa(p.hi() + 1), "ten"}
		case "enum":
			values = []string{"no-such-" + p.name}
		case "string":
			values = []string{strings.Repeat("x", maxParamValue+1)}
		default:
			t.Fatalf("%s: kind %q", p.name, p.kind)
		}
		for _, v := range values {
			fmt.Fprintf(&in, "set-param name=%s value=%s\n", p.name, v)
			bad++
		}
	}
	in.WriteString("hub\nquit\n")
	out := session(t, in.String())
	errors := 0
	for _, l := range out {
		if strings.HasPrefix(l, `error message="set-param: `) {
			errors++
		}
	}
	if errors != bad {
		t.Errorf("%d set-param errors for %d values out of the declared ranges:\n%s", errors, bad, strings.Join(out, "\n"))
	}
	after := handshakeLines(t, out[len(out)-len(before):])
	if strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("refused values changed the handshake:\n%s\nwas:\n%s", strings.Join(after, "\n"), strings.Join(before, "\n"))
	}

	in.Reset()
	in.WriteString("hub\n")
	for _, p := range params {
		if p.kind == "int" {
			fmt.Fprintf(&in, "set-param name=%s value=%d\n", p.name, p.lo)
		}
	}
	in.WriteString("hub\nquit\n")
	out = session(t, in.String())
	last := out[len(out)-len(before):]
	for _, p := range params {
		if p.kind != "int" {
			continue
		}
		want := fmt.Sprintf("param name=%s value=%d type=int min=%d max=%d", p.name, p.lo, p.lo, p.hi())
		if got := last[indexOf(before, p.name)]; got != want {
			t.Errorf("after set-param %s=%d the handshake has %q, want %q", p.name, p.lo, got, want)
		}
	}
	for _, l := range out {
		if strings.HasPrefix(l, "error") {
			t.Errorf("a declared minimum refused: %s", l)
		}
	}
}

// handshakeLines returns the handshake's lines: id and the params, up to
// wait.
func handshakeLines(t *testing.T, lines []string) []string {
	t.Helper()
	for i, l := range lines {
		if l == "wait" {
			return lines[:i+1]
		}
	}
	t.Fatalf("no handshake in:\n%s", strings.Join(lines, "\n"))
	return nil
}

// indexOf returns the index of the handshake line of parameter name.
func indexOf(handshake []string, name string) int {
	for i, l := range handshake {
		if strings.HasPrefix(l, "param name="+name+" ") {
			return i
		}
	}
	return -1
}
