package tune

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// Game is one recorded self-play game: its number, its result from White's
// side (+1, 0, -1) and its quiet positions.
type Game struct {
	Index     int
	Result    int
	Positions []Sample
}

// Sample is one quiet position (no capture for the side to move) and the
// search's score of it for the side to move, in centi-men.
type Sample struct {
	Pos   movegen.Position
	Score int
}

// header is the first line of a games file: what made it. A file is only
// continued by the same configuration.
func (c *GenConfig) header() string {
	h := fmt.Sprintf("%snodes=%d seed=%d random-plies=%d", gamesPrefix(c.Variant), c.Nodes, c.Seed, c.RandomPlies)
	if c.RandomMoves > 0 {
		h += fmt.Sprintf(" random-moves=%d", c.RandomMoves)
	}
	return h
}

// gamesPrefix is how the first line of a games file of v starts: the
// format's version and the rule set's name. Version 2, used for the Damone
// rule sets only, adds each position's Damoni (Position.Super) as a sixth
// field; version 1 files of Damone (made before, without the Damoni, so
// every Damone read as a Dama) are refused.
func gamesPrefix(v *movegen.Variant) string {
	if v.HasDamoni() {
		return versionPrefix(2, v)
	}
	return versionPrefix(1, v)
}

// versionPrefix is the start of the first line of a version ver games
// file of v.
func versionPrefix(ver int, v *movegen.Variant) string {
	return fmt.Sprintf("damaengine-games v%d variant=%s ", ver, v.RulesName())
}

// openGamesFile opens the games file at path to append the games of the
// configuration whose first line is header, and returns it with the
// number of games already in it: a missing or empty file is started with
// header; a file left by an interrupted run of the same configuration is
// continued: its complete lines are kept, a torn last line is cut off.
func openGamesFile(path, header string) (f *os.File, games int, err error) {
	games, keep, err := scanGames(path, header)
	if err != nil {
		return nil, 0, err
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return nil, 0, err
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return nil, 0, err
	}
	if keep == 0 {
		if _, err := f.WriteString(header + "\n"); err != nil {
			f.Close()
			return nil, 0, err
		}
	}
	return f, games, nil
}

// appendGame appends the line of game g of v: "g INDEX RESULT" then, per
// position, " WHITE:BLACK:KINGS:SIDE:SCORE" (bitboards in hex), and for the
// Damone rule sets ":DAMONI" after SCORE (version 2, see gamesPrefix).
func appendGame(v *movegen.Variant, b []byte, g *Game) []byte {
	damoni := v.HasDamoni()
	b = append(b, "g "...)
	b = strconv.AppendInt(b, int64(g.Index), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(g.Result), 10)
	for _, s := range g.Positions {
		p := &s.Pos
		b = append(b, ' ')
		b = strconv.AppendUint(b, p.Pieces[movegen.White], 16)
		b = append(b, ':')
		b = strconv.AppendUint(b, p.Pieces[movegen.Black], 16)
		b = append(b, ':')
		b = strconv.AppendUint(b, p.Kings, 16)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(p.Side), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(s.Score), 10)
		if damoni {
			b = append(b, ':')
			b = strconv.AppendUint(b, p.Super, 16)
		}
	}
	return append(b, '\n')
}

// parseGame parses one game line of variant v.
func parseGame(v *movegen.Variant, line string) (Game, error) {
	fs := strings.Fields(line)
	if len(fs) < 3 || fs[0] != "g" {
		return Game{}, errors.New("not a game line")
	}
	var g Game
	var err error
	if g.Index, err = strconv.Atoi(fs[1]); err != nil {
		return g, err
	}
	if g.Result, err = strconv.Atoi(fs[2]); err != nil || g.Result < -1 || g.Result > 1 {
		return g, fmt.Errorf("bad result %q", fs[2])
	}
	fields := 5
	if v.HasDamoni() {
		fields = 6
	}
	for _, f := range fs[3:] {
		parts := strings.Split(f, ":")
		if len(parts) != fields {
			return g, fmt.Errorf("bad position %q", f)
		}
		var s Sample
		var x [3]uint64
		for j := 0; j < 3; j++ {
			if x[j], err = strconv.ParseUint(parts[j], 16, 64); err != nil {
				return g, fmt.Errorf("bad position %q", f)
			}
		}
		side, err1 := strconv.Atoi(parts[3])
		score, err2 := strconv.Atoi(parts[4])
		if err1 != nil || err2 != nil || side < 0 || side > 1 {
			return g, fmt.Errorf("bad position %q", f)
		}
		if x[0]&x[1] != 0 || (x[0]|x[1])&^v.Board() != 0 || x[2]&^(x[0]|x[1]) != 0 {
			return g, fmt.Errorf("position %q is not a %s position", f, v.Name)
		}
		s.Pos.Pieces[movegen.White], s.Pos.Pieces[movegen.Black], s.Pos.Kings = x[0], x[1], x[2]
		if fields == 6 {
			if s.Pos.Super, err = strconv.ParseUint(parts[5], 16, 64); err != nil || s.Pos.Super&^x[2] != 0 {
				return g, fmt.Errorf("bad position %q (the Damoni must be kings)", f)
			}
		}
		s.Pos.Side = movegen.Color(side)
		s.Pos.Key = s.Pos.ComputeKey()
		s.Score = score
		g.Positions = append(g.Positions, s)
	}
	return g, nil
}

// scanGames checks the games file at path against header and returns the
// number of complete game lines and the byte length they end at (0, 0
// for a missing or empty file). A last line without its newline is torn
// and not counted.
func scanGames(path, header string) (games int, keep int64, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	first := true
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			return games, keep, nil // a torn last line is dropped
		}
		if err != nil {
			return 0, 0, err
		}
		if first {
			if strings.TrimSpace(line) != header {
				return 0, 0, fmt.Errorf("tune: %s was made by %q, not %q: use another file", path, strings.TrimSpace(line), header)
			}
			first = false
		} else {
			games++
		}
		keep += int64(len(line))
	}
}

// ReadGames reads every complete game of variant v from the games file at
// path (a torn last line is skipped).
func ReadGames(v *movegen.Variant, path string) ([]Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var out []Game
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if n == 1 {
			if !strings.HasPrefix(line, gamesPrefix(v)) {
				if v.HasDamoni() && strings.HasPrefix(line, versionPrefix(1, v)) {
					return nil, fmt.Errorf("tune: %s is a version 1 %s games file, which does not keep the Damoni (every Damone reads as a Dama): make it again with tune gen", path, v.RulesName())
				}
				return nil, fmt.Errorf("tune: %s is not a %s games file (first line %q)", path, v.RulesName(), strings.TrimSpace(line))
			}
			continue
		}
		g, err := parseGame(v, line)
		if err != nil {
			return nil, fmt.Errorf("tune: %s line %d: %v", path, n, err)
		}
		out = append(out, g)
	}
	return out, nil
}
