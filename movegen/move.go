package movegen

// Move is one legal move: the mover's from and to bits and the set of bits
// it captures. Two capture paths with the same from, to and captured set are
// the same move (rules.md, "Common to all"); the path itself is not stored
// and is rebuilt from the position when a move is written out.
type Move struct {
	// Captured is the set of captured pieces' bits (zero for a quiet move).
	Captured uint64
	// From and To are board bits. A king capture may end where it began.
	From, To uint8
	// Promote is set when the moving man becomes a king.
	Promote bool
}

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// MaxMoves bounds the moves of one position in every supported variant.
const MaxMoves = 256

// MoveList is a fixed-size list filled by the generator; it never
// allocates. Moves[:N] are valid.
type MoveList struct {
	N     int
	Moves [MaxMoves]Move
}

// Slice returns the valid moves.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// keepCapture is how every generator records a finished capture m with
// priority score (larger is better; equal scores are free choices): a
// better score empties the list first, a worse one is dropped, and with
// dedup a capture already listed by another path (same from, to and
// captured set) is dropped too. best holds the best score so far.
func (l *MoveList) keepCapture(best *uint32, score uint32, m Move, dedup bool) {
	if score < *best {
		return
	}
	if score > *best {
		*best = score
		l.N = 0
	} else if dedup {
		for i := 0; i < l.N; i++ {
			if x := &l.Moves[i]; x.Captured == m.Captured && x.To == m.To && x.From == m.From {
				return
			}
		}
	}
	l.Moves[l.N] = m
	l.N++
}
