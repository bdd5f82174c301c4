package main

import (
	"bytes"
	"os"
	"testing"
)

// TestProgressOnlyToATerminal: the hub hands its stderr to the background
// builds only when stderr is a terminal; a pipe, a file or a buffer (what a
// client such as pydraughts reads, merged with stdout) gets no progress.
func TestProgressOnlyToATerminal(t *testing.T) {
	if terminalOnly(&bytes.Buffer{}) != nil {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if terminalOnly(f) != nil {
		t.Error("a file is not a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if terminalOnly(w) != nil {
		t.Error("a pipe is not a terminal")
	}
}
