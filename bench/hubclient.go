package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// EngineSpec says how to start a Hub engine.
type EngineSpec struct {
	// Command is the program and its arguments.
	Command []string
	// Options are set with set-param after the handshake.
	Options [][2]string
}

// SplitCommand splits a command line into words, honouring single and
// double quotes: `engine --opt "a b"` gives three words.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if in {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty engine command")
	}
	return out, nil
}

// joinCommand is SplitCommand's inverse: the words joined by spaces, a
// word with a space, a tab or a quote in it (or none at all) quoted so
// that SplitCommand gives it back.
func joinCommand(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && !strings.ContainsAny(w, " \t\"'"):
			quoted[i] = w
		case !strings.Contains(w, `"`):
			quoted[i] = `"` + w + `"`
		case !strings.Contains(w, "'"):
			quoted[i] = "'" + w + "'"
		default: // both quotes: each character quoted, a '"' in single quotes
			var sb strings.Builder
			for _, c := range w {
				q := byte('"')
				if c == '"' {
					q = '\''
				}
				sb.WriteByte(q)
				sb.WriteRune(c)
				sb.WriteByte(q)
			}
			quoted[i] = sb.String()
		}
	}
	return strings.Join(quoted, " ")
}

// errTimeout and errDead tell a silent engine from a crashed one.
var (
	errTimeout = errors.New("no answer in time")
	errDead    = errors.New("engine process ended")
)

// hubEngine is a running Hub engine driven by the match runner.
type hubEngine struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	last  string // the last line read from the engine, for a report when it goes silent
	// paused is how long the machine was paused during the last expect
	// (see waitClock).
	paused time.Duration
}

// startEngine starts spec and completes the Hub handshake for the rule
// set v: hub … wait, the variant, official notation, the options, for
// Damone with the all-Damoni rule all-damoni-win=true (after the options:
// the referee's rules hold), init … ready.
func startEngine(spec EngineSpec, v *movegen.Variant) (*hubEngine, error) {
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %q: %v", strings.Join(spec.Command, " "), err)
	}
	e := &hubEngine{name: filepath.Base(spec.Command[0]), cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	fail := func(err error) (*hubEngine, error) {
		e.kill()
		return nil, fmt.Errorf("%s: %v", strings.Join(spec.Command, " "), err)
	}
	e.send("hub")
	for {
		l, err := e.expect("", 10*time.Second)
		if err != nil {
			return fail(fmt.Errorf("handshake: %v", err))
		}
		if strings.HasPrefix(l, "id ") {
			if n := field(l, "name"); n != "" {
				e.name = n
			}
		}
		if l == "wait" {
			break
		}
	}
	e.send("set-param name=variant value=" + v.Name)
	e.send("set-param name=notation value=official")
	for _, o := range spec.Options {
		e.send("set-param name=" + o[0] + " value=" + o[1])
	}
	if v.HasLossRule() {
		e.send("set-param name=all-damoni-win value=true")
	}
	e.send("init")
	if _, err := e.expect("ready", 10*time.Second); err != nil {
		return fail(fmt.Errorf("init: %v", err))
	}
	return e, nil
}

// field returns the value of name= in a protocol line.
func field(line, name string) string {
	i := strings.Index(line, " "+name+"=")
	if i < 0 {
		return ""
	}
	rest := line[i+len(name)+2:]
	if strings.HasPrefix(rest, "\"") {
		if j := strings.IndexByte(rest[1:], '"'); j >= 0 {
			return rest[1 : j+1]
		}
		return rest[1:]
	}
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		return rest[:j]
	}
	return rest
}

func (e *hubEngine) send(line string) error {
	_, err := io.WriteString(e.in, line+"\n")
	return err
}

// A paused machine is not a silent engine. When the whole machine stops (a
// virtual machine paused by its host: this project's test machine counts
// CPU time stolen by the host and logs "virtual machine fork"), the runner
// and the engine stop with it, and on waking the runner's timer and the
// engine's answer are due together: a runner that reads its timer first
// would call a working engine silent, and charge the pause to its clock.
// So a wait is measured by a ticker: each tick counts the time since the
// one before, but at most pauseCap; the rest of a longer gap is a pause,
// charged neither to the engine's silence nor to its clock.
const (
	waitTick = 20 * time.Millisecond
	pauseCap = 250 * time.Millisecond
)

// waitClock is a wait's running time and pauses, from the ticks seen.
type waitClock struct {
	last        time.Time
	ran, paused time.Duration
}

// advance counts the time from the last tick to now.
func (c *waitClock) advance(now time.Time) {
	gap := now.Sub(c.last)
	c.last = now
	if gap > pauseCap {
		c.paused += gap - pauseCap
		gap = pauseCap
	}
	c.ran += max(gap, 0)
}

// expect reads lines until one starts with prefix ("" takes any line),
// for at most timeout of running time (see waitClock); e.paused is then
// how long the machine was paused during the wait. Before it reports a
// timeout it takes the lines already there: an answer that came during a
// pause is not lost to the timer.
func (e *hubEngine) expect(prefix string, timeout time.Duration) (string, error) {
	tick := time.NewTicker(waitTick)
	defer tick.Stop()
	c := waitClock{last: time.Now()}
	defer func() { e.paused = c.paused }()
	take := func(l string, ok bool) (string, bool, error) {
		if !ok {
			return "", true, errDead
		}
		e.last = l
		return l, strings.HasPrefix(l, prefix), nil
	}
	for {
		if c.ran >= timeout {
			for {
				select {
				case l, ok := <-e.lines:
					if l, done, err := take(l, ok); done {
						return l, err
					}
				default:
					return "", errTimeout
				}
			}
		}
		select {
		case l, ok := <-e.lines:
			if l, done, err := take(l, ok); done {
				return l, err
			}
		case <-tick.C:
			c.advance(time.Now())
		}
	}
}

// kill ends the process at once.
func (e *hubEngine) kill() {
	e.in.Close()
	if e.cmd.Process != nil {
		e.cmd.Process.Kill()
	}
	e.cmd.Wait()
}

// quit asks the engine to leave and kills it if it does not.
func (e *hubEngine) quit() {
	e.send("quit")
	e.in.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		e.cmd.Process.Kill()
		<-done
	}
}
