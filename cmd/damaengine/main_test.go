package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
)

// buildBinary builds damaengine once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "damaengine")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func TestPerftCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"perft", "--depth", "4"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{"7", "49", "302", "1469"}
	re := regexp.MustCompile(`^perft depth=(\d) nodes=(\d+) time=\d+\.\d{3} nps=\d+$`)
	if len(lines) != 4 {
		t.Fatalf("output %q", out.String())
	}
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil || m[1] != fmt.Sprint(i+1) || m[2] != want[i] {
			t.Errorf("line %q", l)
		}
	}
	out.Reset()
	if rc := run([]string{"perft", "--variant", "italian", "--fen", "W:W29:B26,19,11,1", "--depth", "2", "--divide"}, nil, &out, &errb); rc != 0 {
		t.Fatal(rc)
	}
	if !strings.HasPrefix(out.String(), "29x22x15x6 1\nperft depth=1 nodes=1 ") {
		t.Errorf("divide output %q", out.String())
	}
	for _, args := range [][]string{
		{"perft", "--depth", "x"},
		{"perft", "--depth", "0"},
		{"perft", "--depth", "3", "--fen", "W:W21-40:B1"},
		{"perft", "--depth", "3", "--variant", "chess"},
		{"perft", "--depth", "3", "extra"},
		{"perft", "--bogus"},
		{"frobnicate"},
	} {
		var o, e bytes.Buffer
		rc := run(args, nil, &o, &e)
		if rc != 2 || o.Len() != 0 || strings.Count(e.String(), "\n") != 1 {
			t.Errorf("%v: rc %d, stdout %q, stderr %q; want 2, nothing, one line", args, rc, o.String(), e.String())
		}
	}
}

// engineProc is a running damaengine driven through pipes.
type engineProc struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startEngine(t *testing.T, bin string, args ...string) *engineProc {
	cmd := exec.Command(bin, args...) // tables off: TestMain sets DAMAENGINE_EGDB for every engine started
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(outp)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &engineProc{t: t, cmd: cmd, in: in, out: sc}
}

func (e *engineProc) send(s string) {
	if _, err := io.WriteString(e.in, s+"\n"); err != nil {
		e.t.Fatal(err)
	}
}

// until reads lines up to one starting with prefix and returns it; every
// line read must be a protocol line.
func (e *engineProc) until(prefix string) string {
	e.t.Helper()
	proto := regexp.MustCompile(`^(id|param|wait|ready|info|done|pong|error)( |$)`)
	for e.out.Scan() {
		l := e.out.Text()
		if !proto.MatchString(l) {
			e.t.Fatalf("non-protocol line on stdout: %q", l)
		}
		if strings.HasPrefix(l, "error") && !strings.HasPrefix(prefix, "error") {
			e.t.Fatalf("engine error: %s", l)
		}
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	e.t.Fatalf("engine closed its output waiting for %q", prefix)
	return ""
}

// TestPipeGame plays a whole Italian game against the binary the way
// pydraughts drives an engine: the start position and the full move list
// with every pos, a move time, go think, and each done move checked legal.
func TestPipeGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	e := startEngine(t, bin) // no argument: the first line picks hub mode
	e.send("hub")
	e.until("wait")
	e.send("set-param name=variant value=italian")
	e.send("set-param name=tt-size value=18")
	e.send("init")
	e.until("ready")
	e.send("new-game")
	v := movegen.Italian
	p := v.Start()
	startHub := v.Hub(&p)
	var moves []string
	seen := map[uint64]int{}
	rev := 0
	for ply := 0; ply < 300; ply++ {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		if ml.N == 0 {
			t.Logf("game over after %d plies: %s has no move", ply, p.Side)
			break
		}
		if seen[p.Key] >= 2 || rev >= v.DrawPlies {
			t.Logf("draw after %d plies", ply)
			break
		}
		seen[p.Key]++
		cmd := "pos pos=" + startHub
		if len(moves) > 0 {
			cmd += ` moves="` + strings.Join(moves, " ") + `"`
		}
		e.send(cmd)
		e.send("level move-time=0.02")
		e.send("go think")
		done := e.until("done")
		m := regexp.MustCompile(`^done move=(\S+)( ponder=(\S+))?$`).FindStringSubmatch(done)
		if m == nil {
			t.Fatalf("bad done line %q", done)
		}
		mv, err := v.ParseMove(&p, m[1])
		if err != nil {
			t.Fatalf("ply %d, %s: engine played %q: %v", ply, v.FEN(&p), m[1], err)
		}
		if v.HubMove(mv) != m[1] {
			t.Errorf("move written %q, canonical %q", m[1], v.HubMove(mv))
		}
		if mv.Captured != 0 || p.IsManMove(mv) {
			rev = 0
		} else {
			rev++
		}
		p.Play(mv)
		moves = append(moves, m[1])
	}
	if len(moves) < 10 {
		t.Errorf("game of only %d plies", len(moves))
	}
	e.send("quit")
	waitExit(t, e.cmd)
}

func waitExit(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- cmd.Wait() }()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("engine did not exit")
	}
}

// TestEOFQuits: end of input ends the process promptly, even mid-search.
func TestEOFQuits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	e := startEngine(t, bin, "hub", "--tt-size=16")
	e.send("pos start")
	e.send("go analyze")
	e.until("info")
	start := time.Now()
	e.in.Close()
	e.until("done")
	waitExit(t, e.cmd)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("exit took %v", d)
	}
}

// TestDXPMatch: two damaengine processes play International draughts over
// DXP on loopback; every move in the PDN each writes must replay legally,
// both PDNs must agree, and both sides must finish the game-end handshake
// (exit status 0 and "dxp games=N").
func TestDXPMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	follower := exec.Command(bin, "dxp", "--listen", addr, "--pdn", dir+"/f.pdn", "--movetime", "0.02", "--tt-size", "18", "--name", "follower")
	var fout, ferr lockedBuffer // read while the follower still writes
	follower.Stdout, follower.Stderr = &fout, &ferr
	if err := follower.Start(); err != nil {
		t.Fatal(err)
	}
	defer follower.Process.Kill()
	var iout, ierr bytes.Buffer
	var initiator *exec.Cmd
	for i := 0; i < 100; i++ {
		initiator = exec.Command(bin, "dxp", "--connect", addr, "--initiator", "--games", "2", "--minutes", "1", "--movetime", "0.02", "--tt-size", "18", "--pdn", dir+"/i.pdn", "--name", "initiator")
		iout.Reset()
		ierr.Reset()
		initiator.Stdout, initiator.Stderr = &iout, &ierr
		// retry until the follower listens
		if err := initiator.Run(); err == nil || !strings.Contains(ierr.String(), "connection refused") {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if initiator.ProcessState == nil || initiator.ProcessState.ExitCode() != 0 {
		t.Fatalf("initiator failed: %s %s", iout.String(), ierr.String())
	}
	// Issue 19 item 8: the server keeps listening; a second client gets a
	// game too, and an interrupt ends the server cleanly.
	second := exec.Command(bin, "dxp", "--connect", addr, "--initiator", "--games", "1", "--minutes", "1", "--movetime", "0.02", "--tt-size", "18", "--name", "second")
	if out, err := second.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "dxp games=1" {
		t.Fatalf("second client: %v %s (follower: %s)", err, out, ferr.String())
	}
	// The server serves peers at once and counts a game when its
	// connection ends, which it may notice after the client has exited:
	// wait for it, so that the dropped game below comes after this one.
	for i := 0; i < 500 && strings.Count(fout.String(), "dxp games=") < 2; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	// A peer that drops in the middle of a game: by default the server
	// logs it on stderr, saves the game as unfinished and serves on.
	drop, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	drop.Write([]byte("R01" + fmt.Sprintf("%-32s", "dropper") + "Z" + "001" + "000" + "A\x00"))
	drop.SetReadDeadline(time.Now().Add(10 * time.Second))
	if reply, err := bufio.NewReader(drop).ReadString(0); err != nil || !strings.HasPrefix(reply, "A") {
		t.Fatalf("game request answered %q, %v", reply, err)
	}
	drop.Close()
	for i := 0; i < 500 && strings.Count(fout.String(), "dxp games=") < 3; i++ {
		time.Sleep(20 * time.Millisecond) // the follower notices the drop
	}
	follower.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- follower.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("follower failed: %v %s", err, ferr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("follower did not finish")
	}
	if strings.TrimSpace(iout.String()) != "dxp games=2" || strings.TrimSpace(fout.String()) != "dxp games=2\ndxp games=3\ndxp games=3" {
		t.Errorf("outputs %q / %q", iout.String(), fout.String())
	}
	if !strings.Contains(ferr.String(), "connection lost during a game") {
		t.Errorf("the dropped peer was not logged: %q", ferr.String())
	}
	var all [2][]*pdn.Game
	for i, f := range []string{dir + "/i.pdn", dir + "/f.pdn"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		games, err := pdn.Read(bytes.NewReader(b), movegen.International)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, b)
		}
		if len(games) != 2+2*i {
			t.Fatalf("%s: %d games", f, len(games))
		}
		all[i] = games
	}
	for g := 0; g < 2; g++ {
		a, b := all[0][g], all[1][g]
		if len(a.Moves) != len(b.Moves) || a.Result != b.Result {
			t.Errorf("game %d: the two sides disagree: %d moves %s vs %d moves %s", g+1, len(a.Moves), a.Result, len(b.Moves), b.Result)
		}
		if a.Result == pdn.Unfinished || len(a.Moves) < 10 {
			t.Errorf("game %d: result %s after %d moves", g+1, a.Result, len(a.Moves))
		}
	}
	if g := all[1][3]; g.Result != pdn.Unfinished || g.Tag("White") != "dropper" {
		t.Errorf("the dropped game: result %s, White %q", g.Result, g.Tag("White"))
	}
	if all[0][0].Tag("White") != "initiator" || all[0][1].Tag("White") != "follower" {
		t.Errorf("colours did not alternate: %q, %q", all[0][0].Tag("White"), all[0][1].Tag("White"))
	}
}

// lockedBuffer is a bytes.Buffer safe to read while a process's output is
// still being copied into it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
