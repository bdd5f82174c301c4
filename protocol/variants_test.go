package protocol

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
)

// pydraughtsPos writes p the way pydraughts 0.6 does (protocol.md, the 8x8
// orientation trap), independently of wire.go: English turned round with
// "w" for Black; Russian and Brazilian numbered from the top left;
// others in official order.
func pydraughtsPos(v *movegen.Variant, p *movegen.Position) string {
	n := v.Squares
	bitOf := make([]int, n+1)
	white := movegen.White
	switch v.Name {
	case "english":
		white = movegen.Black
		for i := 1; i <= n; i++ {
			bitOf[i] = v.Bit(n + 1 - i)
		}
	case "russian", "brazilian":
		i := 1
		for r := 7; r >= 0; r-- {
			for f := 0; f < 8; f++ {
				if (f+r)%2 == 0 { // a1 dark
					bitOf[i] = v.BitAt(f, r)
					i++
				}
			}
		}
	case "turkish": // 65 characters, char 1 = a8, row by row from the top
		i := 1
		for r := 7; r >= 0; r-- {
			for f := 0; f < 8; f++ {
				bitOf[i] = v.BitAt(f, r)
				i++
			}
		}
	default:
		for i := 1; i <= n; i++ {
			bitOf[i] = v.Bit(i)
		}
	}
	var sb strings.Builder
	if p.Side == white {
		sb.WriteByte('W')
	} else {
		sb.WriteByte('B')
	}
	for i := 1; i <= n; i++ {
		b := uint64(1) << bitOf[i]
		c := byte('e')
		switch {
		case p.Pieces[white]&b != 0:
			c = 'w'
		case p.Pieces[white^1]&b != 0:
			c = 'b'
		}
		if c != 'e' && p.Kings&b != 0 {
			c -= 'a' - 'A'
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// TestVariantGames plays a short game per variant through the protocol the
// way pydraughts drives it: set-param variant, the start position as a
// pydraughts string with the whole move list each turn, go think; every
// reply must be legal.
func TestVariantGames(t *testing.T) {
	for _, v := range movegen.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			plies := 40
			if testing.Short() {
				plies = 12
			}
			pos := func(p *movegen.Position) string { return pydraughtsPos(v, p) }
			if !v.HasHubString() {
				pos = func(p *movegen.Position) string { return v.FEN(p) }
			}
			playWire(t, v, "pydraughts", plies, pos)
		})
	}
}

// TestInternationalWithoutSetParam drives a 10x10 game with 51-character
// strings and no set-param: the engine must switch by itself.
func TestInternationalWithoutSetParam(t *testing.T) {
	v := movegen.International
	playWire(t, v, "", 10, func(p *movegen.Position) string { return v.Hub(p) })
}

func playWire(t *testing.T, v *movegen.Variant, notation string, plies int, posString func(*movegen.Position) string) {
	pr, pw := pipe()
	out := &syncBuffer{}
	h := NewHub(pr, out, Options{Log: zerolog.Nop()})
	go h.Run()
	defer pw.Close()
	send := func(s string) { pw.Write([]byte(s + "\n")) }
	if notation != "" {
		send("set-param name=variant value=" + strings.ToUpper(v.Name[:1]) + v.Name[1:])
		send("set-param name=notation value=" + notation)
	}
	send("set-param name=tt-size value=16")
	start := v.Start()
	startString := posString(&start)
	p := start
	var moves []string
	doneRE := regexp.MustCompile(`done move=(\S+)`)
	for ply := 0; ply < plies; ply++ {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		if ml.N == 0 {
			return
		}
		cmd := "pos pos=" + startString
		if len(moves) > 0 {
			cmd += ` moves="` + strings.Join(moves, " ") + `"`
		}
		send(cmd)
		send("level depth=3")
		send("go think")
		want := ply + 1
		deadline := time.Now().Add(20 * time.Second)
		var all [][]string
		for time.Now().Before(deadline) {
			all = doneRE.FindAllStringSubmatch(out.String(), -1)
			if len(all) >= want || strings.Contains(out.String(), "error") {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if strings.Contains(out.String(), "error") || len(all) < want {
			t.Fatalf("%s ply %d: no done:\n%s", v.Name, ply, out.String())
		}
		text := all[want-1][1]
		m, err := v.ParseMove(&p, text) // pydraughts numbering = official numbers here
		if err != nil {
			t.Fatalf("%s ply %d, %s: engine played %q: %v", v.Name, ply, v.FEN(&p), text, err)
		}
		if v.HasHubString() && ply == 0 {
			if got := fmt.Sprint(len(posString(&p))); got != fmt.Sprint(v.Squares+1) {
				t.Fatalf("position string length %s", got)
			}
		}
		p.Play(m)
		moves = append(moves, text)
	}
	if len(moves) != plies {
		t.Errorf("%s: %d plies played, want %d", v.Name, len(moves), plies)
	}
}

// TestPydraughts05Numbering: with notation=pydraughts-0.5 Russian moves
// travel in pydraughts' internal numbering (1 = b8 … 29 = a1), and English
// moves as 33 minus the English square number.
func TestPydraughts05Numbering(t *testing.T) {
	for _, name := range []string{"russian", "english"} {
		v, _ := movegen.Lookup(name)
		internal := []int{0}
		for r := 7; r >= 0; r-- {
			for f := 0; f < 8; f++ {
				if b := v.BitAt(f, r); b >= 0 {
					internal = append(internal, b)
				}
			}
		}
		if name == "english" {
			internal = []int{0}
			for i := 1; i <= 32; i++ {
				internal = append(internal, v.Bit(33-i))
			}
		}
		lines := session(t, "set-param name=variant value="+name+"\nset-param name=notation value=pydraughts-0.5\npos start\nlevel depth=2\ngo think\n")
		last := lines[len(lines)-1]
		m := regexp.MustCompile(`^done move=(\d+)-(\d+)`).FindStringSubmatch(last)
		if m == nil {
			t.Fatalf("%s: %q", name, last)
		}
		from, to := atoi(m[1]), atoi(m[2])
		p := v.Start()
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		ok := false
		for _, mv := range ml.Slice() {
			ok = ok || (int(mv.From) == internal[from] && int(mv.To) == internal[to])
		}
		if !ok {
			t.Errorf("%s: %s is not a legal first move in pydraughts' internal numbering", name, last)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
