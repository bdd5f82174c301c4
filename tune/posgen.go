package tune

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/damaengine/damaengine/bench"
	"github.com/damaengine/damaengine/movegen"
)

// Positions at scale: GeneratePositions plays the self-play games of one
// shard into a part file, Merge joins parts into one de-duplicated file.
//
// The games are numbered 0 .. Games−1 over all shards, and game g depends
// on nothing but the configuration and g: its opening (a fixed shuffle of
// the variant's embedded set, by Seed), its random plies (seeded by Seed
// and g) and the search, whose table and move-ordering state are cleared
// before each game (Engine.NewGame). Shard K of N plays the games g with
// g mod N = K−1, so the N parts together hold the same games whatever N
// is, and Merge, which sorts and de-duplicates, writes the same bytes from
// them.

// PosGenConfig configures GeneratePositions.
type PosGenConfig struct {
	GenConfig
	Shard, Shards int    // this part is shard Shard (1..Shards) of Shards
	EvalName      string // how the players evaluate, for the header
	// Sparse, when not 0 (MinSparse to MaxSparse), starts each game from a
	// random ending of 3 to Sparse pieces (sparseStart) instead of an
	// opening: the positions the openings' games seldom reach, so that a
	// network learns, say, that a lone king is worth more than a man.
	Sparse int
	// Starts, when not empty, are the positions games start from in place
	// of the openings (game g from a fixed shuffle of them by Seed, then
	// RandomPlies random moves): positions of other games, say the
	// endings of 10 to 16 pieces where games between close players are
	// decided, so that a set has more of them than games from the
	// openings give. StartsName names them in the header (LoadStarts).
	Starts     []movegen.Position
	StartsName string
}

// The bounds of PosGenConfig.Sparse.
const (
	MinSparse = 3
	MaxSparse = 24
)

// PosProgress is GeneratePositions' report after each game.
type PosProgress struct {
	Games, Total int // games of this shard done, and in all
	StartGames   int // games already done when this run began (a resumed part)
	Positions    int // records written
	Skipped      int // quiet positions a record cannot hold (none expected)
	Elapsed      time.Duration
	Rate         float64 // positions a second in this run
}

// header returns the header of cfg's part file.
func (cfg *PosGenConfig) header(size int) *PosHeader {
	h := &PosHeader{Variant: cfg.Variant, Record: size, Kind: "part"}
	h.set("shard", fmt.Sprintf("%d/%d", cfg.Shard, cfg.Shards))
	h.set("games", strconv.Itoa(cfg.Games))
	h.set("nodes", strconv.FormatUint(cfg.Nodes, 10))
	h.set("seed", strconv.FormatUint(cfg.Seed, 10))
	h.set("random-plies", strconv.Itoa(cfg.RandomPlies))
	h.set("eval", cfg.EvalName)
	if cfg.RandomMoves > 0 {
		h.set("random-moves", strconv.Itoa(cfg.RandomMoves))
	}
	if cfg.Jitter {
		h.set("jitter", "1")
	}
	if cfg.Sparse > 0 {
		h.set("sparse", strconv.Itoa(cfg.Sparse))
	}
	if len(cfg.Starts) > 0 {
		h.set("starts", strings.Join(strings.Fields(cfg.StartsName), "_"))
	}
	return h
}

// sparseStart returns the start of game g of a sparse part: 3 to most
// pieces (at least one a side, each side's count drawn piece by piece) on
// random squares of v's board, each a king with probability 1/3, no man on
// its own crown row (where it would have been crowned), and a random side
// to move with a legal move (drawn again otherwise). In Italian Damone
// each side's first piece is a Damone, as every game starts with one a
// side (and under the all-Damoni rule a side without one has lost), the
// others Pedine or Dame. It depends on seed and g only.
func sparseStart(v *movegen.Variant, most int, seed uint64, g int) movegen.Position {
	r := rand.New(rand.NewPCG(seed^0x5ba55e, uint64(g)))
	var squares []int
	for b := 0; b < 64; b++ {
		if v.Board()>>b&1 != 0 {
			squares = append(squares, b)
		}
	}
	var ml movegen.MoveList
	for {
		var p movegen.Position
		n := MinSparse + r.IntN(most-MinSparse+1)
		for i := 0; i < n; i++ {
			c := movegen.Color(r.IntN(2))
			if i < 2 {
				c = movegen.Color(i)
			}
			king := r.IntN(3) == 0
			super := i < 2 && v.HasDamoni()
			king = king || super
			for {
				b := squares[r.IntN(len(squares))]
				if p.Occupied()>>b&1 != 0 || (!king && v.CrownRank(c)>>b&1 != 0) {
					continue
				}
				p.Pieces[c] |= 1 << b
				if king {
					p.Kings |= 1 << b
				}
				if super {
					p.Super |= 1 << b
				}
				break
			}
		}
		p.Side = movegen.Color(r.IntN(2))
		p.Key = p.ComputeKey()
		if v.Generate(&p, &ml); ml.N > 0 {
			return p
		}
	}
}

// LoadStarts reads the positions of the positions file at path with lo to
// hi pieces on the board (a side to move with a move, none won or lost),
// in the file's order, for PosGenConfig.Starts; name says where they came
// from for the header ("FILE:LO-HI:N"). It refuses a file of another
// variant than v and a range that holds no position.
func LoadStarts(path string, v *movegen.Variant, lo, hi int) ([]movegen.Position, string, error) {
	pr, err := OpenPositions(path)
	if err != nil {
		return nil, "", err
	}
	defer pr.Close()
	if pr.Header.Variant != v {
		return nil, "", fmt.Errorf("tune: %s holds %s positions, not %s", path, pr.Header.Variant.RulesName(), v.RulesName())
	}
	var out []movegen.Position
	var r Record
	var ml movegen.MoveList
	for {
		if err := pr.Next(&r); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, "", err
		}
		n := bits.OnesCount64(r.Pos.Occupied())
		if n < lo || n > hi {
			continue
		}
		if v.Generate(&r.Pos, &ml); ml.N == 0 || (v.HasLossRule() && v.Lost(&r.Pos)) {
			continue
		}
		out = append(out, r.Pos)
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("tune: %s has no position of %d to %d pieces to start games from", path, lo, hi)
	}
	return out, fmt.Sprintf("%s:%d-%d:%d", filepath.Base(path), lo, hi, len(out)), nil
}

// shardGames returns the number of games of shard k (1-based) of n when
// there are total in all.
func shardGames(total, k, n int) int {
	if k > total {
		return 0
	}
	return (total-k)/n + 1
}

// posCheckpoint is the side file of a part: how far the part is complete.
type posCheckpoint struct {
	games, positions int
	bytes            int64
}

func readPosCheckpoint(path string) (posCheckpoint, error) {
	var c posCheckpoint
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	_, err = fmt.Sscanf(strings.TrimSpace(string(b)), "games=%d positions=%d bytes=%d", &c.games, &c.positions, &c.bytes)
	if err != nil {
		return c, fmt.Errorf("tune: checkpoint %s: %v", path, err)
	}
	return c, nil
}

func writePosCheckpoint(path string, c posCheckpoint) error {
	tmp := path + ".tmp"
	s := fmt.Sprintf("games=%d positions=%d bytes=%d\n", c.games, c.positions, c.bytes)
	if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// GeneratePositions plays shard cfg.Shard of cfg.Shards of the games and
// writes their quiet positions (no capture for the side to move, searched
// by the engine), labelled with the game's result and the search's score,
// to the part file at path. The part is checkpointed (path + ".ckpt") a few
// times a minute and at the end; a stopped run of the same configuration
// continues from its checkpoint. progress, if not nil, is called after
// each game.
func GeneratePositions(cfg PosGenConfig, path string, progress func(PosProgress)) error {
	if cfg.Variant == nil || cfg.Games < 1 || cfg.Nodes < 1 {
		return errors.New("tune: gen needs a variant, games ≥ 1 and nodes ≥ 1")
	}
	if cfg.Shards < 1 || cfg.Shard < 1 || cfg.Shard > cfg.Shards {
		return fmt.Errorf("tune: shard %d/%d: want K/N with 1 ≤ K ≤ N", cfg.Shard, cfg.Shards)
	}
	if err := cfg.checkRandomMoves(); err != nil {
		return err
	}
	if cfg.Sparse != 0 && (cfg.Sparse < MinSparse || cfg.Sparse > MaxSparse) {
		return fmt.Errorf("tune: sparse starts of at most %d pieces: want %d to %d", cfg.Sparse, MinSparse, MaxSparse)
	}
	if cfg.Sparse != 0 && len(cfg.Starts) > 0 {
		return errors.New("tune: games start from random endings (sparse) or from given positions (starts), not both")
	}
	ops, err := bench.Openings(cfg.Variant)
	if err != nil {
		return err
	}
	codec := NewCodec(cfg.Variant)
	h := cfg.header(codec.Size())
	ckPath := path + ".ckpt"
	var ck posCheckpoint
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() == 0 {
		if _, err := f.WriteString(h.line()); err != nil {
			return err
		}
		ck.bytes = int64(len(h.line()))
	} else {
		got, hl, err := readPosHeader(bufio.NewReader(f), path)
		if err != nil {
			return err
		}
		if got.line() != h.line() {
			return fmt.Errorf("tune: %s was made by %q, not %q: use another file", path, strings.TrimSpace(got.line()), strings.TrimSpace(h.line()))
		}
		if ck, err = readPosCheckpoint(ckPath); errors.Is(err, os.ErrNotExist) {
			ck = posCheckpoint{bytes: int64(hl)}
		} else if err != nil {
			return err
		}
		if ck.bytes > st.Size() || (ck.bytes-int64(hl))%int64(codec.Size()) != 0 {
			return fmt.Errorf("tune: %s is shorter than its checkpoint says (%d bytes): use another file", path, ck.bytes)
		}
	}
	if err := f.Truncate(ck.bytes); err != nil {
		return err
	}
	if _, err := f.Seek(ck.bytes, 0); err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	save := func() error {
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		return writePosCheckpoint(ckPath, ck)
	}
	eng := newEngine(cfg.Variant, cfg.TTLog2, cfg.Eval)
	order := rand.New(rand.NewPCG(cfg.Seed, 0x09e41)).Perm(len(ops))
	var startOrder []int
	if len(cfg.Starts) > 0 {
		startOrder = rand.New(rand.NewPCG(cfg.Seed, 0x57a875)).Perm(len(cfg.Starts))
	}
	total := shardGames(cfg.Games, cfg.Shard, cfg.Shards)
	start, lastSave := time.Now(), time.Now()
	startPositions, startGames := ck.positions, ck.games
	skipped := 0
	rec := make([]byte, codec.Size())
	for j := ck.games; j < total; j++ {
		g := cfg.Shard - 1 + j*cfg.Shards
		from := ops[order[g%len(ops)]].Pos
		if cfg.Sparse > 0 {
			from = sparseStart(cfg.Variant, cfg.Sparse, cfg.Seed, g)
		}
		if len(cfg.Starts) > 0 {
			from = cfg.Starts[startOrder[g%len(cfg.Starts)]]
		}
		game := playGame(cfg.GenConfig, eng, from, g)
		for _, s := range game.Positions {
			r := Record{Pos: s.Pos, Result: game.Result, Score: ScoreLabel(s.Score, s.Pos.Side)}
			if err := codec.Encode(rec, &r); err != nil {
				skipped++
				continue
			}
			if _, err := w.Write(rec); err != nil {
				return err
			}
			ck.positions++
			ck.bytes += int64(len(rec))
		}
		ck.games = j + 1
		if time.Since(lastSave) > 10*time.Second || ck.games == total {
			if err := save(); err != nil {
				return err
			}
			lastSave = time.Now()
		}
		if progress != nil {
			el := time.Since(start)
			progress(PosProgress{Games: ck.games, Total: total, StartGames: startGames, Positions: ck.positions, Skipped: skipped, Elapsed: el,
				Rate: float64(ck.positions-startPositions) / max(el.Seconds(), 1e-9)})
		}
	}
	return save()
}

// mergeItem is one record of Merge: the hash of its position, and where its
// position's key (the record with its labels zeroed) and its bytes are.
type mergeItem struct {
	h   uint64
	off int64 // record offset in the arena; its key is at the same offset in keys
}

// MergeStats says what Merge did.
type MergeStats struct {
	Read, Written, Duplicates int64
	// Relabelled is the records the relabel function changed.
	Relabelled int64
}

// Merge joins the part files into one merged positions file at out: every
// distinct position once (of the records of one position, the one whose
// bytes hash lowest: the choice depends on the records only), ordered by
// a fixed hash of the position (a pseudo-random order, so a reader that
// streams the file sees the games mixed). The same records in any split
// or order of parts give the same bytes. All records are held in memory
// (16 bytes each, plus 32 to sort them).
//
// relabel, if not nil, sees every record written (after the duplicates
// are dropped) and may change its labels, returning true when it did:
// the endgame tables' exact values for the positions they hold (tune
// merge --egdb-path). The header then counts them (tables=N). It must not
// change the position, and should depend on the position only, so that
// the bytes stay the same for any split.
//
// future, if above 0, first replaces the search score of every record of a
// part by the mean of its own and those of the next future records of the
// same game (futureScores), before the parts are joined; the header then
// says so (future=N). It refuses a merged file or a part of sparse starts,
// whose games futureScores cannot tell apart.
func Merge(out string, parts []string, relabel func(r *Record) bool, future int) (MergeStats, error) {
	var st MergeStats
	if len(parts) == 0 {
		return st, errors.New("tune: merge needs at least one part")
	}
	var v *movegen.Variant
	var arena []byte
	for _, p := range parts {
		pr, err := OpenPositions(p)
		if err != nil {
			return st, err
		}
		if v == nil {
			v = pr.Header.Variant
		} else if pr.Header.Variant != v {
			pr.Close()
			return st, fmt.Errorf("tune: %s holds %s positions, %s %s ones", p, pr.Header.Variant.RulesName(), parts[0], v.RulesName())
		}
		if future > 0 {
			kind := pr.Header.Kind + " file"
			if _, sparse := pr.Header.Fields["sparse"]; sparse {
				kind = "part of sparse starts"
			}
			if _, starts := pr.Header.Fields["starts"]; starts {
				kind = "part of games from given starts"
			}
			if kind != "part file" {
				pr.Close()
				return st, fmt.Errorf("tune: %s: --future needs parts of games from openings, in the order played (this is a %s)", p, kind)
			}
		}
		size := pr.Header.Record
		n := pr.Len()
		base := len(arena)
		arena = slices.Grow(arena, int(n)*size)[:base+int(n)*size]
		for i := int64(0); i < n; i++ {
			if err := pr.Raw(arena[base+int(i)*size : base+int(i+1)*size]); err != nil {
				pr.Close()
				return st, fmt.Errorf("tune: %s: %v", p, err)
			}
		}
		pr.Close()
		if future > 0 {
			if err := futureScores(NewCodec(v), arena[base:], future); err != nil {
				return st, fmt.Errorf("tune: %s: %v", p, err)
			}
		}
	}
	codec := NewCodec(v)
	size := codec.Size()
	n := len(arena) / size
	st.Read = int64(n)
	keys := make([]byte, len(arena))
	items := make([]mergeItem, n)
	var r Record
	for i := 0; i < n; i++ {
		rec := arena[i*size : (i+1)*size]
		if err := codec.Decode(rec, &r); err != nil {
			return st, err
		}
		r.Result, r.Score = -1, -MaxLabelScore // the labels' zero digits
		k := keys[i*size : (i+1)*size]
		if err := codec.Encode(k, &r); err != nil {
			return st, err
		}
		items[i] = mergeItem{h: hashBytes(k), off: int64(i * size)}
	}
	key := func(it mergeItem) []byte { return keys[it.off : it.off+int64(size)] }
	rec := func(it mergeItem) []byte { return arena[it.off : it.off+int64(size)] }
	slices.SortFunc(items, func(a, b mergeItem) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		if c := bytes.Compare(key(a), key(b)); c != 0 {
			return c
		}
		ha, hb := hashBytes(rec(a)), hashBytes(rec(b))
		switch {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return bytes.Compare(rec(a), rec(b))
	})
	f, err := os.Create(out)
	if err != nil {
		return st, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	distinct := int64(0)
	for i := range items {
		if i == 0 || items[i].h != items[i-1].h || !bytes.Equal(key(items[i]), key(items[i-1])) {
			distinct++
			if relabel == nil {
				continue
			}
			b := rec(items[i])
			if err := codec.Decode(b, &r); err != nil {
				return st, err
			}
			p := r.Pos
			if relabel(&r) {
				if r.Pos != p {
					return st, errors.New("tune: merge: the relabelling changed a position")
				}
				if err := codec.Encode(b, &r); err != nil {
					return st, fmt.Errorf("tune: merge: a relabelled record: %v", err)
				}
				st.Relabelled++
			}
		}
	}
	h := &PosHeader{Variant: v, Record: size, Kind: "merged"}
	h.set("positions", strconv.FormatInt(distinct, 10))
	if relabel != nil {
		h.set("tables", strconv.FormatInt(st.Relabelled, 10))
	}
	if future > 0 {
		h.set("future", strconv.Itoa(future))
	}
	if _, err := w.WriteString(h.line()); err != nil {
		return st, err
	}
	for i := range items {
		if i > 0 && items[i].h == items[i-1].h && bytes.Equal(key(items[i]), key(items[i-1])) {
			st.Duplicates++
			continue
		}
		if _, err := w.Write(rec(items[i])); err != nil {
			return st, err
		}
		st.Written++
	}
	if err := w.Flush(); err != nil {
		return st, err
	}
	return st, f.Close()
}

// futureScores replaces the search score of each record in recs (one
// part's records, in the order the generator wrote them) by the mean of
// its own score and the scores of the next k records of the same game,
// rounded toward zero to the even values a record holds: a label that
// knows where the game went in the next few moves, as searched then. The
// generator writes a game's positions in the order they were played, one
// game after another; a part has no game numbers, so a game is taken to
// end where the piece count rises or the result changes (pieces are never
// added in a game, and a new one starts from an opening). Two games run
// together only where one ended with no fewer pieces than the next began
// with and the same result, which the openings' games do not do.
func futureScores(c *Codec, recs []byte, k int) error {
	size := c.Size()
	n := len(recs) / size
	var game []Record // the records of the game being read, reused
	for s := 0; s < n; s += len(game) {
		game = game[:0]
		for i := s; i < n; i++ {
			var r Record
			if err := c.Decode(recs[i*size:(i+1)*size], &r); err != nil {
				return err
			}
			if len(game) > 0 {
				prev := &game[len(game)-1]
				if bits.OnesCount64(r.Pos.Occupied()) > bits.OnesCount64(prev.Pos.Occupied()) || r.Result != game[0].Result {
					break
				}
			}
			game = append(game, r)
		}
		// sum is the scores of game[i..min(i+k, len-1)], slid along.
		sum := 0
		for j := 0; j <= min(k, len(game)-1); j++ {
			sum += game[j].Score
		}
		for i := range game {
			r := game[i]
			m := sum / (min(i+k, len(game)-1) - i + 1)
			r.Score = m - m%2
			if err := c.Encode(recs[(s+i)*size:(s+i+1)*size], &r); err != nil {
				return err
			}
			sum -= game[i].Score
			if i+k+1 < len(game) {
				sum += game[i+k+1].Score
			}
		}
	}
	return nil
}
