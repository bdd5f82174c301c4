package protocol

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/search"
)

// pyNumbers returns how a pydraughts client of generation gen ("0.5" or
// "0.6") numbers the squares of v in moves: number → bit. Written from
// protocol.md, independently of wire.go.
func pyNumbers(v *movegen.Variant, gen string) []int {
	n := v.Squares
	num := make([]int, n+1)
	for i := 1; i <= n; i++ {
		num[i] = v.Bit(i) // 0.6: each variant's own numbering
	}
	if gen != "0.5" {
		return num
	}
	switch v.Name {
	case "english": // the board turned round
		for i := 1; i <= n; i++ {
			num[i] = v.Bit(n + 1 - i)
		}
	case "russian", "brazilian": // internal: from b8, rank by rank from the top
		i := 1
		for r := 7; r >= 0; r-- {
			for f := 0; f < 8; f++ {
				if (f+r)%2 == 0 {
					num[i] = v.BitAt(f, r)
					i++
				}
			}
		}
	}
	return num
}

// pyClient is a pydraughts-like Hub client: it sends the start string and
// the whole move list each turn in its own numbering and reads the
// engine's moves in that numbering.
type pyClient struct {
	t    *testing.T
	v    *movegen.Variant
	num  []int       // number → bit
	bit  map[int]int // bit → number
	send func(string)
	out  *syncBuffer
}

func (c *pyClient) text(m movegen.Move) string {
	if m.Captured == 0 {
		return fmt.Sprintf("%d-%d", c.bit[int(m.From)], c.bit[int(m.To)])
	}
	var caps []int
	for b := 0; b < 64; b++ {
		if m.Captured&(1<<b) != 0 {
			caps = append(caps, c.bit[b])
		}
	}
	sort.Ints(caps)
	s := fmt.Sprintf("%dx%d", c.bit[int(m.From)], c.bit[int(m.To)])
	for _, x := range caps {
		s += "x" + strconv.Itoa(x)
	}
	return s
}

// parse finds the legal move the engine's text names in the client's
// numbering, as pydraughts does (from, to and the captured set).
func (c *pyClient) parse(p *movegen.Position, s string) (movegen.Move, bool) {
	var ml movegen.MoveList
	c.v.Generate(p, &ml)
	for _, m := range ml.Slice() {
		if c.text(m) == s {
			return m, true
		}
	}
	return movegen.Move{}, false
}

// playAs plays plies plies with the engine on side engine; the client
// plays the first legal move in its list.
func playClient(t *testing.T, v *movegen.Variant, gen string, engine movegen.Color, initialTime bool, plies int) {
	pr, pw := pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	finished := make(chan struct{})
	go func() { h.Run(); close(finished) }()
	defer func() { pw.Close(); <-finished }()
	c := &pyClient{t: t, v: v, num: pyNumbers(v, gen), bit: map[int]int{}, out: out,
		send: func(s string) { pw.Write([]byte(s + "\n")) }}
	for i := 1; i < len(c.num); i++ {
		c.bit[c.num[i]] = i
	}
	c.send("hub")
	c.send("set-param name=variant value=" + v.Name)
	if initialTime {
		c.send("set-param name=initial-time value=180") // lidraughts-bot's wrapper sends it
	}
	c.send("init")
	start := v.Start()
	startString := pydraughtsPos(v, &start)
	p := start
	var moves []string
	dones := 0
	doneRE := regexp.MustCompile(`done move=(\S+)`)
	for ply := 0; ply < plies; ply++ {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		if ml.N == 0 {
			return
		}
		if p.Side != engine {
			m := ml.Moves[ply%ml.N]
			moves = append(moves, c.text(m))
			p.Play(m)
			continue
		}
		cmd := "pos pos=" + startString
		if len(moves) > 0 {
			cmd += ` moves="` + strings.Join(moves, " ") + `"`
		}
		c.send(cmd)
		c.send("level depth=2")
		c.send("go think")
		dones++
		var all [][]string
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			all = doneRE.FindAllStringSubmatch(out.String(), -1)
			if len(all) >= dones {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if len(all) < dones {
			t.Fatalf("ply %d: no done:\n%s", ply, out.String())
		}
		text := all[dones-1][1]
		m, ok := c.parse(&p, text)
		if !ok {
			t.Fatalf("ply %d, %s: the engine's %q is no legal move in pydraughts-%s numbering\n%s", ply, v.FEN(&p), text, gen, out.String())
		}
		moves = append(moves, text)
		p.Play(m)
	}
	if o := out.String(); strings.Contains(o, "error message=") {
		t.Errorf("errors in the session:\n%s", o)
	}
}

// Issue 12 point 1: with no option set, clients speaking pydraughts 0.5
// and 0.6 numbering both play whole games in Russian, Brazilian, Turkish
// and English, from both colours. A 0.5 client (lidraughts-bot) sends
// initial-time, which is the only hint when the engine must move first
// with no move played yet; with the engine second, the client's moves
// alone say which numbering it speaks.
func TestPydraughtsGenerationsBothColours(t *testing.T) {
	plies := 24
	if testing.Short() {
		plies = 10
	}
	for _, name := range []string{"russian", "brazilian", "turkish", "english"} {
		v, _ := movegen.Lookup(name)
		for _, gen := range []string{"0.5", "0.6"} {
			for _, side := range []movegen.Color{movegen.White, movegen.Black} {
				first := v.Start().Side
				hint := gen == "0.5" && side == first
				t.Run(fmt.Sprintf("%s/%s/engine-%v", name, gen, side), func(t *testing.T) {
					playClient(t, v, gen, side, hint, plies)
				})
			}
		}
	}
}

// Issue 12 point 1: an explicit notation is still obeyed, and a 0.5
// client's first move (engine second) switches notation=auto at once.
func TestNotationAutoDetects05(t *testing.T) {
	v := movegen.Russian
	c05 := pyNumbers(v, "0.5")
	bit := map[int]int{}
	for i := 1; i < len(c05); i++ {
		bit[c05[i]] = i
	}
	start := v.Start()
	var ml movegen.MoveList
	v.Generate(&start, &ml)
	m := ml.Moves[0]
	first := fmt.Sprintf("%d-%d", bit[int(m.From)], bit[int(m.To)])
	got := golden(t, "set-param name=variant value=russian\npos pos="+pydraughtsPos(v, &start)+` moves="`+first+`"`+"\nlevel depth=1\ngo think\n",
		infoRE, `done move=\d+-\d+( ponder=\S+)?`)
	if len(got) == 2 {
		p := start
		p.Play(m)
		mv := regexp.MustCompile(`done move=(\d+)-(\d+)`).FindStringSubmatch(got[1])
		ok := false
		var ml2 movegen.MoveList
		v.Generate(&p, &ml2)
		for _, x := range ml2.Slice() {
			ok = ok || (int(x.From) == c05[atoi(mv[1])] && int(x.To) == c05[atoi(mv[2])])
		}
		if !ok {
			t.Errorf("reply %s is not in 0.5 numbering", got[1])
		}
	}
	// explicit official: the 0.5 move is refused
	golden(t, "set-param name=variant value=russian\nset-param name=notation value=official\npos start moves=\""+first+"\"\nping\n",
		`error message="pos: moves: move 1: .*"`, `pong`)
}

// Issue 12 point 2: a rejected pos keeps the previous position (the
// variant's start when there was none), and the following go still gets
// its done: a pydraughts client never waits forever.
func TestRejectedPosStillAnswersGo(t *testing.T) {
	golden(t, "set-param name=variant value=russian\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"99-98\"\nlevel depth=1\ngo think\n",
		`error message="pos: moves: move 1: .*"`, infoRE, `done move=\d+-\d+( ponder=\S+)?`)
	golden(t, "pos pos=W:W29:B26,19,11,1\npos pos=Wxyz\nlevel depth=1\ngo think\n",
		`error message="pos: .*"`, infoRE, `done move=29x6x11x19x26 ponder=\S+`)
}

// Issue 12 point 3: under go ponder with a forced reply, ponder-hit is
// answered at once, with an info line first.
func TestForcedMovePonderHit(t *testing.T) {
	write, out, end := live(t, Options{})
	write("pos pos=W:W29:B26,19,11,1")
	write("level move-time=30")
	write("go ponder")
	waitFor(t, out, `info .*pv="29x6x11x19x26`)
	time.Sleep(50 * time.Millisecond)
	if strings.Contains(out.String(), "done") {
		t.Fatal("a ponder search answered before ponder-hit")
	}
	start := time.Now()
	write("ponder-hit")
	waitFor(t, out, `done move=29x6x11x19x26 ponder=\S+`)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("ponder-hit on a forced move answered after %v", el)
	}
	end(5 * time.Second)
}

// Issue 12 point 4: info lines a GUI shows: no mean-depth=0.0, no depth
// beyond maxInfoDepth in a dead-drawn endgame, nps in millions with one
// decimal, and multi-PV lines marked multipv=N.
func TestInfoLines(t *testing.T) {
	lines := session(t, "pos pos=W:WK29,K32:BK1,K4\nlevel move-time=0.5\ngo think\n")
	for _, l := range lines {
		if strings.Contains(l, "mean-depth=0.0") {
			t.Errorf("mean-depth 0: %s", l)
		}
		if m := regexp.MustCompile(`depth=(\d+)`).FindStringSubmatch(l); m != nil && atoi(m[1]) > maxInfoDepth {
			t.Errorf("depth beyond %d: %s", maxInfoDepth, l)
		}
		if m := regexp.MustCompile(`nps=(\S+)`).FindStringSubmatch(l); m != nil && !regexp.MustCompile(`^\d+\.\d$`).MatchString(m[1]) {
			t.Errorf("nps format: %s", l)
		}
	}
	write, out, end := live(t, Options{})
	write("set-param name=multipv value=3")
	write("pos start")
	write("go analyze")
	waitFor(t, out, `info depth=6 .*multipv=3 pv=`)
	write("stop")
	waitFor(t, out, "done move=")
	end(5 * time.Second)
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "info") && !regexp.MustCompile(` multipv=[123] pv="`).MatchString(l) {
			t.Errorf("multi-PV info without its line number: %s", l)
		}
	}
}

// Issue 12 point 5: a 51-character pos switches to International only
// while the client chose no variant, and not for good; an explicit variant
// wins.
func TestExplicitVariantWins(t *testing.T) {
	intl := movegen.International.Start()
	s51 := movegen.International.Hub(&intl)
	s33 := "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
	// no variant set: 51 characters are International, then 33 are Italian again
	golden(t, "pos pos="+s51+"\nlevel depth=1\ngo think\npos pos="+s33+"\nlevel depth=1\ngo think\n",
		infoRE, `done move=3\d-\d+( ponder=\S+)?`, infoRE, `done move=2\d-\d+( ponder=\S+)?`)
	// variant set: the 51-character string is refused, the 33 one searched
	golden(t, "set-param name=variant value=russian\npos pos="+s51+"\npos pos="+s33+"\nlevel depth=1\ngo think\n",
		`error message="pos: a 51-character position string is for a 10x10 board, but variant=russian was set \(32 squares\)"`,
		infoRE, `done move=\d+-\d+( ponder=\S+)?`)
}

// Issue 12 point 8: go think with no level thinks DefaultMoveTime (README:
// "one second"); the bounds are loose.
func TestDefaultThinkTime(t *testing.T) {
	start := time.Now()
	session(t, "set-param name=book value=false\npos start\ngo think\n")
	if el := time.Since(start); el > DefaultMoveTime+3*time.Second || el < DefaultMoveTime/2 {
		t.Errorf("go think with no level took %v, want about %v", el, DefaultMoveTime)
	}
}

// Issue 12 point 6: every level answers with a legal move within its caps;
// level 1 searches at most its node cap.
func TestStrengthLevels(t *testing.T) {
	for _, l := range levels[:len(levels)-1] {
		lines := session(t, "set-param name=level value="+l.name+"\npos start\nlevel move-time=0.3\ngo think\n")
		if last := lines[len(lines)-1]; !regexp.MustCompile(`^done move=2\d-[12]\d`).MatchString(last) {
			t.Errorf("level %s: %q", l.name, last)
		}
	}
	lines := session(t, "set-param name=level value=1\npos start\ngo think\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^done move=\d+-\d+`).MatchString(last) {
		t.Fatalf("level 1: %q", last)
	}
	for _, l := range lines {
		if m := regexp.MustCompile(`nodes=(\d+)`).FindStringSubmatch(l); m != nil && atoi(m[1]) > 2*int(levels[0].nodes) {
			t.Errorf("level 1 searched %s nodes: %s", m[1], l)
		}
	}
	// below max the book is not used: the answer comes from a search
	for _, l := range lines {
		if strings.HasPrefix(l, "info") && strings.Contains(l, " nodes=0 ") {
			t.Errorf("level 1 answered from the book: %s", l)
		}
	}
	golden(t, "set-param name=level value=9\nping\n", `error message="set-param: level value '9' is not one of 1, 2, 3, 4, 5, 6, 7, 8, max"`, `pong`)
}

// Issue 12 point 6: level 1 plays legal, non-suicidal moves: it never
// puts a man en prise for nothing. Each move is judged as a one-ply search
// with captures resolved sees it (the static evaluation after it, or the
// forced exchange it allows, searched at full strength); a move that leaves
// the opponent a capture never comes out two men below the best move, and
// a man below in at most one position in five. (Level 1 may miss deeper
// shots: that is what makes it weak.)
func TestLevelOneNotSuicidal(t *testing.T) {
	v := movegen.Italian
	judge := search.New(v, 16)
	p := v.Start()
	positions, manDown := 0, 0
	for ply := 0; ply < 30; ply++ {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		if ml.N == 0 {
			break
		}
		judged := map[movegen.Move]int{}
		hangs := map[movegen.Move]bool{}
		best := -search.Mate
		for _, m := range ml.Slice() {
			c := p
			c.Play(m)
			var replies movegen.MoveList
			v.Generate(&c, &replies)
			hangs[m] = replies.N > 0 && replies.Moves[0].Captured != 0
			j := -eval.Evaluate(v, &c) // nothing to take: the position stands
			if hangs[m] {
				// the forced exchange: the opponent's captures, then captures resolved
				judge.NewGame()
				j = -judge.Search(search.NewControl(false), search.Game{Pos: c}, search.Limits{Depth: 1}, nil).Score
			}
			judged[m] = j
			best = max(best, j)
		}
		fen := v.FEN(&p)
		lines := session(t, "set-param name=level value=1\npos pos="+fen+"\ngo think\n")
		text := regexp.MustCompile(`^done move=(\S+)`).FindStringSubmatch(lines[len(lines)-1])
		if text == nil {
			t.Fatalf("%s: %q", fen, lines[len(lines)-1])
		}
		m, err := v.ParseMove(&p, text[1])
		if err != nil {
			t.Fatalf("%s: illegal %s", fen, text[1])
		}
		if hangs[m] && judged[m] <= best-200 {
			t.Errorf("%s: level 1 played %s, giving two men away (%d against the best %d)", fen, text[1], judged[m], best)
		}
		if hangs[m] && judged[m] <= best-100 {
			t.Logf("%s: level 1 played %s, a man en prise (%d against the best %d)", fen, text[1], judged[m], best)
			manDown++
		}
		positions++
		p.Play(ml.Moves[(ply*7)%ml.N]) // walk on through varied positions
	}
	// Its own search sees every such exchange; a man given away is a
	// deeper line its 100 nodes did not finish, not noise. Rare, not never.
	if manDown*5 > positions {
		t.Errorf("level 1 put a man en prise in %d of %d positions", manDown, positions)
	}
}
