package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/protocol"
)

// Issue 12 point 7: every subcommand prints its flags with --help (rc 0,
// on stdout), --version prints the version, and the usage names every
// subcommand.
func TestHelpPerSubcommand(t *testing.T) {
	for _, c := range []string{"hub", "perft", "bench", "match", "dxp", "play"} {
		for _, h := range []string{"--help", "-h", "-help"} {
			var out, errb bytes.Buffer
			if rc := run([]string{c, h}, strings.NewReader(""), &out, &errb); rc != 0 {
				t.Errorf("%s %s: rc %d, stderr %q", c, h, rc, errb.String())
			}
			if !strings.HasPrefix(out.String(), "usage: damaengine "+c) || errb.Len() != 0 {
				t.Errorf("%s %s: stdout %q stderr %q", c, h, out.String(), errb.String())
			}
		}
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"hub", "--help"}, nil, &out, &errb); rc != 0 || !strings.Contains(out.String(), "tt-size") || !strings.Contains(out.String(), "level") {
		t.Errorf("hub --help does not list the parameters:\n%s", out.String())
	}
	out.Reset()
	if rc := run([]string{"--version"}, nil, &out, &errb); rc != 0 || out.String() != "damaengine "+protocol.Version+"\n" {
		t.Errorf("--version: rc %d, %q", rc, out.String())
	}
	out.Reset()
	run([]string{"help"}, nil, &out, &errb)
	for _, c := range []string{"hub", "perft", "bench", "match", "dxp", "play", "--version"} {
		if !strings.Contains(out.String(), "damaengine "+c) {
			t.Errorf("usage does not name %s:\n%s", c, out.String())
		}
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"frob"}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "play") {
		t.Errorf("unknown command: rc %d, %q", rc, errb.String())
	}
}
