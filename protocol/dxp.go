package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/pdn"
	"github.com/damaengine/damaengine/search"
)

// DXP, the DamExchange Protocol, is how International draughts engines
// (Scan, Kingsrow, Moby Dam, GWD) play each other over TCP: ASCII messages
// of at most 127 characters, each ended by a NUL byte, with fixed-width
// fields (zero-padded numbers, space-padded names). Colours are W (white)
// and Z (zwart, black). Squares are the International numbers 1-50.
//
//	R  game request  version(2) name(32) follower-colour(1) minutes(3) moves(3) A | B colour(1) board(50)
//	A  game accept   name(32) code(1: 0 accepted, 1-3 refused)
//	M  move          time(4) from(2) to(2) count(2) captured(2 each)
//	E  game end      reason(1: 0 unknown, 1 I lose, 2 draw, 3 I win) stop(1: 0 go on, 1 stop)
//	C  chat          text
//	B  take-back     move number(3) colour(1)
//	K  take-back answer code(1: 0 accepted, 1 not supported, 2 refused)

// DXPPort is the protocol's default TCP port.
const DXPPort = 27531

// maxDXP is the longest message DXP allows, without its NUL.
const maxDXP = 127

// DXPConfig configures one DXP session.
type DXPConfig struct {
	// Name is sent in the game request or accept (at most 32 characters).
	Name string
	// Initiator sends the game requests; a follower answers them.
	Initiator bool
	// Games is the number of games an initiator asks for (at least 1).
	Games int
	// Minutes and Moves are the time control an initiator asks for: Minutes
	// for Moves moves (0 moves: the whole game).
	Minutes, Moves int
	// MoveTime, if positive, caps the thinking time of each move.
	MoveTime time.Duration
	// Engine plays the moves; its variant must be International.
	Engine Searcher
	// PDN, if not nil, receives every finished game.
	PDN io.Writer
	// Log receives the session's log.
	Log zerolog.Logger
	// Timeout bounds the wait for the peer's move in a game (0: 10
	// minutes); IdleTimeout the wait for any other message: a game request
	// or accept, the peer's game end after ours (0: 2 minutes). A peer
	// silent for longer is dropped (its game saved as unfinished).
	Timeout     time.Duration
	IdleTimeout time.Duration
}

// dxpMsg is one received message.
type dxpMsg struct {
	kind byte
	body string
}

// DXP is one session over a connection.
type DXP struct {
	cfg   DXPConfig
	conn  io.ReadWriter
	msgs  chan dxpMsg
	errc  chan error
	log   zerolog.Logger
	v     *movegen.Variant
	games int
}

// NewDXP returns a session on conn.
func NewDXP(conn io.ReadWriter, cfg DXPConfig) *DXP {
	if cfg.Games < 1 {
		cfg.Games = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Minute
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 2 * time.Minute
	}
	if cfg.Name == "" {
		cfg.Name = "damaengine"
	}
	return &DXP{cfg: cfg, conn: conn, log: cfg.Log, v: movegen.International,
		msgs: make(chan dxpMsg, 16), errc: make(chan error, 1)}
}

// Games returns the number of games played to the end.
func (d *DXP) Games() int { return d.games }

// readLoop splits the stream into NUL-terminated messages. A message is
// never buffered beyond maxDXP bytes (plus line breaks some peers put
// first): the rest of an over-long one is skipped up to its NUL, and it
// arrives as a malformed message (kind 0).
func (d *DXP) readLoop() {
	br := bufio.NewReader(d.conn)
	buf := make([]byte, 0, maxDXP+1)
	n := 0 // bytes of the current message, over the cap included
	for {
		c, err := br.ReadByte()
		if err != nil {
			d.errc <- err
			close(d.msgs)
			return
		}
		if c != 0 {
			if (c == '\r' || c == '\n') && n == 0 {
				continue
			}
			n++
			if n <= maxDXP {
				buf = append(buf, c)
			}
			continue
		}
		switch {
		case n == 0:
		case n > maxDXP:
			d.log.Warn().Int("len", n).Msg("dxp: over-long message")
			d.msgs <- dxpMsg{kind: 0, body: fmt.Sprintf("message of %d bytes, longer than %d", n, maxDXP)}
		default:
			s := string(buf)
			d.log.Debug().Str("msg", s).Msg("dxp received")
			d.msgs <- dxpMsg{kind: s[0], body: s[1:]}
		}
		buf, n = buf[:0], 0
	}
}

// digits reads a field of decimal digits only (no sign, no space).
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func (d *DXP) send(s string) error {
	if len(s) > maxDXP {
		s = s[:maxDXP]
	}
	d.log.Debug().Str("msg", s).Msg("dxp sent")
	_, err := io.WriteString(d.conn, s+"\x00")
	return err
}

// next waits up to wait for the next message, answering chat and
// take-back requests on the way.
func (d *DXP) next(wait time.Duration) (dxpMsg, error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case m, ok := <-d.msgs:
			if !ok {
				err := <-d.errc
				d.errc <- err
				return m, err
			}
			switch m.kind {
			case 'C':
				d.log.Info().Str("chat", m.body).Msg("dxp chat")
				continue
			case 'B':
				d.log.Info().Str("request", m.body).Msg("dxp take-back refused: not supported")
				if err := d.send("K1"); err != nil {
					return m, err
				}
				continue
			case 'K':
				continue // we never ask for take-backs
			}
			return m, nil
		case <-timer.C:
			return dxpMsg{}, fmt.Errorf("dxp: no message from the peer for %v", wait)
		}
	}
}

func pad(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

func num(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) > width {
		return s[len(s)-width:]
	}
	return strings.Repeat("0", width-len(s)) + s
}

// gameSetup is what a game request fixes.
type gameSetup struct {
	ourColour movegen.Color
	minutes   int
	moves     int
	start     movegen.Position
	opponent  string
}

// Run plays the session: as initiator, Games game requests in turn with
// colours alternating; as follower, every request until the peer stops or
// closes the connection.
func (d *DXP) Run() error {
	go d.readLoop()
	if d.cfg.Initiator {
		for i := 0; i < d.cfg.Games; i++ {
			follower := "Z"
			ours := movegen.White
			if i%2 == 1 {
				follower, ours = "W", movegen.Black
			}
			req := "R01" + pad(d.cfg.Name, 32) + follower + num(d.cfg.Minutes, 3) + num(d.cfg.Moves, 3) + "A"
			if err := d.send(req); err != nil {
				return err
			}
			m, err := d.next(d.cfg.IdleTimeout)
			if err != nil {
				return err
			}
			if m.kind != 'A' || len(m.body) < 33 {
				return fmt.Errorf("dxp: expected a game accept, got %q", string(m.kind)+m.body)
			}
			if m.body[32] != '0' {
				return fmt.Errorf("dxp: game request refused (code %c)", m.body[32])
			}
			setup := gameSetup{ourColour: ours, minutes: d.cfg.Minutes, moves: d.cfg.Moves, start: d.v.Start(), opponent: strings.TrimSpace(m.body[:32])}
			last := i == d.cfg.Games-1
			if err := d.play(setup, last); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		m, err := d.next(d.cfg.IdleTimeout)
		if err != nil {
			return unless(err, io.EOF)
		}
		switch m.kind {
		case 'R':
			setup, code := d.parseRequest(m.body)
			if err := d.send("A" + pad(d.cfg.Name, 32) + code); err != nil {
				return err
			}
			if code != "0" {
				continue
			}
			if err := d.play(setup, false); err != nil {
				return err
			}
		case 'E':
			// a game end outside a game: acknowledge it
			if err := d.send("E01"); err != nil {
				return err
			}
			if len(m.body) >= 2 && m.body[1] == '1' {
				return nil
			}
		default:
			d.log.Warn().Str("msg", string(m.kind)+m.body).Msg("dxp: unexpected message outside a game ignored")
		}
	}
}

// parseRequest reads a game request; code "0" accepts it.
func (d *DXP) parseRequest(body string) (gameSetup, string) {
	var g gameSetup
	if len(body) < 2+32+1+3+3+1 {
		d.log.Warn().Str("body", body).Msg("dxp: short game request refused")
		return g, "3"
	}
	g.opponent = strings.TrimSpace(body[2:34])
	switch body[34] {
	case 'W':
		g.ourColour = movegen.White
	case 'Z':
		g.ourColour = movegen.Black
	default:
		return g, "1"
	}
	var ok1, ok2 bool
	g.minutes, ok1 = digits(body[35:38])
	g.moves, ok2 = digits(body[38:41])
	if !ok1 || !ok2 {
		d.log.Warn().Str("body", body).Msg("dxp: game request with a malformed time control refused")
		return g, "3"
	}
	g.start = d.v.Start()
	switch {
	case body[41] == 'A' && len(body) == 42:
	case body[41] == 'B' && len(body) == 42+1+50:
		var p movegen.Position
		switch body[42] {
		case 'W':
		case 'Z':
			p.Side = movegen.Black
		default:
			return g, "3"
		}
		for i := 0; i < 50; i++ {
			bit := uint64(1) << d.v.Bit(i+1)
			switch body[43+i] {
			case 'w':
				p.Pieces[movegen.White] |= bit
			case 'z':
				p.Pieces[movegen.Black] |= bit
			case 'W':
				p.Pieces[movegen.White] |= bit
				p.Kings |= bit
			case 'Z':
				p.Pieces[movegen.Black] |= bit
				p.Kings |= bit
			case 'e':
			default:
				return g, "3"
			}
		}
		q, err := d.v.ParseFEN(d.v.FEN(&p))
		if err == nil {
			err = playable(d.v, &q)
		}
		if err != nil {
			d.log.Warn().Err(err).Str("body", body).Msg("dxp: game request with an impossible position refused")
			return g, "3"
		}
		g.start = q
	default:
		d.log.Warn().Str("body", body).Msg("dxp: malformed game request refused")
		return g, "3"
	}
	if g.minutes <= 0 {
		g.minutes = 1
	}
	return g, "0"
}

// playable checks that a requested start position can be played: a man
// where it would be crowned and too many pieces are refused by ParseFEN;
// here, a side without pieces, or a side to move without a move (a game
// over before it starts).
func playable(v *movegen.Variant, p *movegen.Position) error {
	for c := movegen.White; c <= movegen.Black; c++ {
		if p.Pieces[c] == 0 {
			return fmt.Errorf("%s has no pieces", c)
		}
	}
	var ml movegen.MoveList
	v.Generate(p, &ml)
	if ml.N == 0 {
		return fmt.Errorf("%s, to move, has no legal move", p.Side)
	}
	return nil
}

// moveMsg writes m as a DXP move message.
func (d *DXP) moveMsg(m movegen.Move, used time.Duration) string {
	var sb strings.Builder
	sb.WriteString("M" + num(int(used.Seconds()+0.5), 4) + num(d.v.SquareNumber(int(m.From)), 2) + num(d.v.SquareNumber(int(m.To)), 2))
	var caps []int
	for c := m.Captured; c != 0; c &= c - 1 {
		b := 0
		for c&(1<<b) == 0 {
			b++
		}
		caps = append(caps, d.v.SquareNumber(b))
	}
	sb.WriteString(num(len(caps), 2))
	for _, c := range caps {
		sb.WriteString(num(c, 2))
	}
	return sb.String()
}

// parseMove finds the legal move a move message names.
func (d *DXP) parseMove(p *movegen.Position, body string) (movegen.Move, error) {
	if len(body) < 10 {
		return movegen.Move{}, fmt.Errorf("dxp: short move message %q", body)
	}
	field := func(i int) (int, bool) { return digits(body[i : i+2]) }
	_, ok0 := digits(body[:4])
	from, ok1 := field(4)
	to, ok2 := field(6)
	n, ok3 := field(8)
	if !ok0 || !ok1 || !ok2 || !ok3 || len(body) != 10+2*n {
		return movegen.Move{}, fmt.Errorf("dxp: malformed move message %q", body)
	}
	var caps uint64
	for i := 0; i < n; i++ {
		c, ok := field(10 + 2*i)
		if !ok || c < 1 || c > d.v.Squares || d.v.Bit(c) < 0 {
			return movegen.Move{}, fmt.Errorf("dxp: bad captured square in %q", body)
		}
		caps |= 1 << d.v.Bit(c)
	}
	var ml movegen.MoveList
	d.v.Generate(p, &ml)
	for _, m := range ml.Slice() {
		if d.v.SquareNumber(int(m.From)) == from && d.v.SquareNumber(int(m.To)) == to && m.Captured == caps {
			return m, nil
		}
	}
	return movegen.Move{}, fmt.Errorf("dxp: move %d-%d taking %d is not legal in %s", from, to, n, d.v.FEN(p))
}

// play plays one game; last tells an initiator to ask the follower to
// stop after it. The game is kept in a movegen.Game: only moves change it,
// and its Status decides the end. A game cut off by a dropped connection
// is still written to the PDN, as unfinished.
func (d *DXP) play(g gameSetup, last bool) error {
	v := d.v
	rec := movegen.NewGame(v, g.start)
	eng := d.cfg.Engine
	eng.NewGame()
	game := &pdn.Game{Variant: v, Start: g.start}
	game.SetTag("Event", "DXP match")
	game.SetTag("Date", time.Now().Format("2006.01.02"))
	white, black := d.cfg.Name, g.opponent
	if g.ourColour == movegen.Black {
		white, black = black, white
	}
	game.SetTag("White", white)
	game.SetTag("Black", black)
	budget := time.Duration(g.minutes) * time.Minute
	var used time.Duration
	ourMoves := 0
	stop := "0" // the initiator asks the follower to stop after its last game
	if d.cfg.Initiator && last {
		stop = "1"
	}
	save := func(result, comment string) {
		game.Moves = append([]movegen.Move(nil), rec.Moves()...)
		game.Result, game.Comment = result, comment
		if d.cfg.PDN != nil {
			// one Write a game, so that the games of sessions served at
			// once (ServeDXP) never interleave
			var buf bytes.Buffer
			err := pdn.Write(&buf, game)
			if err == nil {
				_, err = d.cfg.PDN.Write(buf.Bytes())
			}
			if err != nil {
				d.log.Error().Err(err).Msg("dxp: writing PDN")
			}
		}
	}
	dropped := func(err error) error {
		d.log.Warn().Err(err).Int("plies", rec.Plies()).Msg("dxp: connection lost during a game")
		save(pdn.Unfinished, "connection lost: "+err.Error())
		return err
	}
	// finish ends a game the record (or the peer's illegal move) decided:
	// our game end with our reason, the peer's in answer, then the game is
	// saved with the record's result, whatever the peer answers (an answer
	// that disagrees is noted in the comment).
	finish := func(result, reason, comment string) error {
		d.games++
		if err := d.send("E" + reason + stop); err != nil {
			save(result, comment)
			return err
		}
		for {
			m, err := d.next(d.cfg.IdleTimeout)
			if err != nil {
				save(result, comment)
				return err
			}
			if m.kind != 'E' {
				d.log.Warn().Str("msg", clip(string(m.kind)+m.body, 200)).Msg("dxp: message while waiting for game end ignored")
				continue
			}
			if len(m.body) > 0 && m.body[0] != '0' && m.body[0] != mirrorReason(reason[0]) {
				d.log.Warn().Str("ours", reason).Str("theirs", clip(m.body, 20)).Msg("dxp: the peer's game end disagrees with the record")
				comment += fmt.Sprintf(" (the opponent answered %s: %s; the record stands)", quoteClip("E"+m.body), reasonText(m.body[0]))
			}
			save(result, comment)
			return nil
		}
	}
	result := func(winner movegen.Color) string {
		if winner == movegen.White {
			return pdn.WhiteWins
		}
		return pdn.BlackWins
	}
	for {
		p := rec.Position()
		if st := rec.Status(); st.Over() {
			if st.Draw() {
				return finish(pdn.DrawResult, "2", st.String())
			}
			reason := "1" // I lose
			if st.Winner == g.ourColour {
				reason = "3"
			}
			return finish(result(st.Winner), reason, st.String())
		}
		var m movegen.Move
		if p.Side == g.ourColour {
			lim := search.Limits{HasClock: true, Time: budget - used, MoveTime: d.cfg.MoveTime}
			if g.moves > 0 {
				lim.MovesToGo = max(g.moves-ourMoves, 1)
			}
			start := time.Now()
			res := eng.Search(search.NewControl(false), search.GameOf(rec), lim, nil)
			el := time.Since(start)
			used += el
			ourMoves++
			m = res.Move
			if err := d.send(d.moveMsg(m, el)); err != nil {
				return dropped(err)
			}
		} else {
			msg, err := d.next(d.cfg.Timeout)
			if err != nil {
				return dropped(err)
			}
			switch msg.kind {
			case 'M':
				mv, err := d.parseMove(&p, msg.body)
				if err != nil {
					d.log.Warn().Err(err).Msg("dxp: illegal move from the peer")
					return finish(result(g.ourColour), "3", "illegal move by the opponent: "+err.Error())
				}
				m = mv
			case 'E':
				// The game is not over by the rules (the record's end is
				// checked before every wait): the peer's claim is judged
				// against the record, never taken as it stands.
				claim := byte('0')
				if len(msg.body) > 0 {
					claim = msg.body[0]
				}
				res, reply, comment := judgeClaim(claim, g.ourColour, rec.Plies())
				d.log.Info().Str("msg", clip(msg.body, 20)).Str("recorded", res).Msg("dxp: peer ended the game")
				d.games++
				save(res, comment)
				return d.send("E" + reply + stop)
			default:
				// Not a move: the game record does not change.
				d.log.Warn().Str("msg", clip(string(msg.kind)+msg.body, 200)).Msg("dxp: unexpected message in a game ignored")
				continue
			}
		}
		if err := rec.Play(m); err != nil {
			return fmt.Errorf("dxp: %v", err)
		}
	}
}

// mirrorReason is the game-end reason the peer gives when it agrees with
// ours: our "I lose" is its "I win", a draw is a draw.
func mirrorReason(r byte) byte {
	switch r {
	case '1':
		return '3'
	case '3':
		return '1'
	}
	return r
}

// reasonText names a game-end reason, as the sender means it.
func reasonText(r byte) string {
	switch r {
	case '0':
		return "no result"
	case '1':
		return "it loses"
	case '2':
		return "a draw"
	case '3':
		return "it wins"
	}
	return "an unknown reason"
}

// judgeClaim decides what a game end the peer sends in the middle of a game
// (by the rules, not over) is recorded as, the reason answered and the
// game's comment. "I lose" is the peer's resignation, its loss; a claimed
// win or draw the rules do not give is recorded as disputed, unfinished
// (never as our loss); no result is an unfinished game.
func judgeClaim(claim byte, ours movegen.Color, plies int) (result, reply, comment string) {
	switch claim {
	case '1':
		res := pdn.WhiteWins
		if ours == movegen.Black {
			res = pdn.BlackWins
		}
		return res, "3", fmt.Sprintf("the opponent resigned after %d plies", plies)
	case '2', '3':
		return pdn.Unfinished, "0", fmt.Sprintf("disputed: the opponent claimed %s (E%c) after %d plies, but by the rules the game was not over", map[byte]string{'2': "a draw", '3': "a win"}[claim], claim, plies)
	}
	return pdn.Unfinished, "0", fmt.Sprintf("the opponent ended the game with no result after %d plies", plies)
}

// DXPServer configures ServeDXP.
type DXPServer struct {
	// Config is each session's configuration; its Engine is not used.
	Config DXPConfig
	// NewEngine makes the engine of each connection (its variant
	// International).
	NewEngine func() Searcher
	// MaxPeers caps the connections served at once (default 4). A
	// connection beyond it is told so in a chat message, its game request
	// refused (code 3), and closed.
	MaxPeers int
	// Games, if not nil, is called with the number of games each session
	// played, one call at a time.
	Games func(int)
}

// refuseWait bounds the wait for the game request of a connection refused
// for being over the cap, so that the refusal can answer it.
const refuseWait = 5 * time.Second

// ServeDXP accepts connections on ln and runs a DXP session on each, up to
// srv.MaxPeers at once, each with its own engine and game record, until ln
// is closed; it then closes the connections under way (their games saved
// as unfinished), waits for their sessions and returns nil. A session that
// fails (a dropped or silent peer, say) is logged and ends alone; the
// others go on.
func ServeDXP(ln net.Listener, srv DXPServer) error {
	cfg := srv.Config
	log := cfg.Log
	if srv.MaxPeers <= 0 {
		srv.MaxPeers = 4
	}
	if cfg.PDN != nil {
		cfg.PDN = &lockedWriter{w: cfg.PDN}
	}
	var mu sync.Mutex // guards active and calls of srv.Games
	var wg sync.WaitGroup
	active := map[net.Conn]bool{}
	refusing := make(chan struct{}, 16) // refusals under way
	for {
		conn, err := ln.Accept()
		if err != nil {
			mu.Lock()
			for c := range active {
				c.Close()
			}
			mu.Unlock()
			wg.Wait()
			return unless(err, net.ErrClosed)
		}
		peer := conn.RemoteAddr().String()
		mu.Lock()
		full := len(active) >= srv.MaxPeers
		if !full {
			active[conn] = true
		}
		mu.Unlock()
		if full {
			log.Warn().Str("peer", peer).Int("max", srv.MaxPeers).Msg("dxp: connection refused: all places taken")
			select {
			case refusing <- struct{}{}:
				go func() {
					defer func() { <-refusing }()
					refuseDXP(conn, cfg, srv.MaxPeers)
				}()
			default:
				conn.Close() // too many refusals under way to explain each
			}
			continue
		}
		log.Info().Str("peer", peer).Msg("dxp: connection accepted")
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cfg
			c.Engine = srv.NewEngine()
			d := NewDXP(conn, c)
			if err := d.Run(); err != nil {
				log.Warn().Err(err).Str("peer", peer).Msg("dxp: session ended")
			}
			mu.Lock() // the place is free before the peer sees the close
			delete(active, conn)
			if srv.Games != nil {
				srv.Games(d.Games())
			}
			mu.Unlock()
			conn.Close()
		}()
	}
}

// refuseDXP tells a connection over the cap why it is not served: a chat
// message, then the refusal of its game request (code 3), and closes it.
func refuseDXP(conn net.Conn, cfg DXPConfig, most int) {
	defer conn.Close()
	name := cfg.Name
	if name == "" {
		name = "damaengine"
	}
	conn.SetDeadline(time.Now().Add(refuseWait))
	io.WriteString(conn, fmt.Sprintf("Cserver busy: %d games under way, at most %d at once; try again later\x00", most, most))
	br := bufio.NewReader(io.LimitReader(conn, 4096))
	for {
		msg, err := br.ReadString(0)
		if err != nil {
			return
		}
		if strings.HasPrefix(strings.TrimLeft(msg, "\r\n"), "R") {
			io.WriteString(conn, "A"+pad(name, 32)+"3\x00")
			return
		}
	}
}

// lockedWriter makes a writer safe for the sessions served at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// unless returns err, or nil when err is the expected end (errors.Is).
func unless(err, end error) error {
	if errors.Is(err, end) {
		return nil
	}
	return err
}
