package main

import (
	"bytes"
	"strings"
	"testing"
)

// Issue 18: "damaengine serve" listens on loopback unless --addr says
// otherwise, and refuses bad flags before it listens.
func TestServeFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"serve", "--help"}, nil, &out, &errb); rc != 0 || !strings.HasPrefix(out.String(), "usage: damaengine serve") ||
		!strings.Contains(out.String(), "(default 127.0.0.1:8080)") {
		t.Errorf("serve --help: rc %d\n%s%s", rc, out.String(), errb.String())
	}
	for _, args := range [][]string{{"--max-games", "0"}, {"--idle", "0s"}, {"--addr", "127.0.0.1:notaport"}} {
		out.Reset()
		errb.Reset()
		if rc := run(append([]string{"serve"}, args...), nil, &out, &errb); rc == 0 || errb.Len() == 0 {
			t.Errorf("serve %v: rc %d, stderr %q", args, rc, errb.String())
		}
	}
}
