package tune

import (
	"errors"
	"io"
	"math/bits"
)

// PieceStats counts the records of a positions file with a given number
// of pieces on the board.
type PieceStats struct {
	Records int64
	// WithKings is the records with at least one king.
	WithKings int64
	// Threatened is the records where the side not to move could capture
	// if it were its turn: quiet for the side to move only, so that the
	// static evaluation of such a position is guessing at a shot.
	Threatened int64
}

// PosStats is what a positions file holds, by the number of pieces on the
// board (tune stats).
type PosStats struct {
	Header  *PosHeader
	Records int64
	// ByPieces[n] is the records with n pieces on the board.
	ByPieces [65]PieceStats
}

// Stats reads every record of the positions file at path and counts them
// by pieces, kings and pending captures: how much of a training set is,
// say, king endings of a few pieces, which self-play games that shuffle
// kings until the move rule ends them fill quickly.
func Stats(path string) (*PosStats, error) {
	pr, err := OpenPositions(path)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	v := pr.Header.Variant
	st := &PosStats{Header: pr.Header}
	var r Record
	for {
		if err := pr.Next(&r); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		n := bits.OnesCount64(r.Pos.Occupied())
		b := &st.ByPieces[n]
		b.Records++
		st.Records++
		if r.Pos.Kings != 0 {
			b.WithKings++
		}
		other := r.Pos
		other.Side ^= 1
		if v.HasCapture(&other) {
			b.Threatened++
		}
	}
	return st, nil
}
