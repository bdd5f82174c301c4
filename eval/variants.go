package eval

import "github.com/damaengine/damaengine/movegen"

// diagWeights are the weights of one variant's table-driven evaluation, in
// centi-men, from White's point of view in the variant's own coordinates
// (file 0 = a, rank 0 = White's first rank; a man's advancement is its
// rank). The package documentation (doc.go) describes each term; keep the
// two in step.
type diagWeights struct {
	king   int  // value of a king
	flying bool // kings fly (Russian, Brazilian, Spanish, International)

	phaseLo, phaseHi int // pieces: at or below lo pure endgame, at or above hi pure middlegame

	advMG, advEG     []int // advancement bonus by rank 0 .. ranks-2
	tempoMG, tempoEG int   // per rank advanced

	centreRanks, centreFiles [2]int // the centre squares (inclusive bands)
	centreMG, centreEG       int

	guard []int // back-rank man by file (MG; half in EG; 0 once the opponent has a king)

	exposedRanks [2]int // ranks where an unsupported man is over-extended
	exposedMG    int    // penalty (EG 0)

	breakthrough []int // free man by distance to the crowning rank (index 0 unused); half once the opponent has a king

	outpostRanks         [2]int // ranks of outposts (off the side edges)
	outpostMG, outpostEG int

	wingMG, wingEG, wingCap int // wing imbalance d ≥ 2 costs min(w·(d-1)², cap)

	kingCentre, kingStep int // short kings: per step of centrality, per empty neighbour
	kingRay, longDiag    int // flying kings: per square on their rays, king on the long diagonal

	trade int // trade-down: material × trade / (pieces + 2)
}

// King values, in centi-men. A short king (English) is worth a man and a
// bit more; a flying king dominates the board, and on 10x10 even more
// squares than on 8x8, so it is worth about three men.
const (
	englishKing       = 140 // checkers programs use 1.3-1.5 men
	flying8King       = 300 // Russian, Brazilian, Spanish
	internationalKing = 320
)

// The weights of each variant.
var (
	// englishWeights: English draughts / checkers, a1 dark, short kings,
	// men forward only. Back rank a1 c1 e1 g1 (29-32); the "bridge" c1 + g1
	// (30 and 32) is the classic guard.
	englishWeights = diagWeights{
		king: englishKing, phaseLo: 6, phaseHi: 22,
		advMG: []int{0, 0, 0, 0, 2, 4, 6}, advEG: []int{0, 2, 4, 7, 11, 15, 20},
		tempoMG: 2, tempoEG: -1,
		centreRanks: [2]int{3, 4}, centreFiles: [2]int{2, 5}, centreMG: 6, centreEG: 2,
		guard:        []int{2, 0, 8, 0, 4, 0, 8, 0},
		exposedRanks: [2]int{4, 6}, exposedMG: 8,
		breakthrough: []int{0, 16, 10, 5},
		kingCentre:   2, kingStep: 3,
		trade: 2,
	}
	// russianWeights: Russian draughts, a1 dark, flying kings, men capture
	// backward; c1 and e1 are the key back-rank men.
	russianWeights = flying8Weights([]int{4, 0, 8, 0, 8, 0, 4, 0})
	// brazilianWeights: Brazilian draughts (International rules on 8x8):
	// the same board and weights as Russian.
	brazilianWeights = flying8Weights([]int{4, 0, 8, 0, 8, 0, 4, 0})
	// spanishWeights: Spanish draughts, h1 dark (back rank b1 d1 f1 h1),
	// flying kings, men capture forward only.
	spanishWeights = flying8Weights([]int{0, 4, 0, 8, 0, 8, 0, 4})
	// internationalWeights: International draughts, 10x10, a1 dark (back
	// rank 46-50 = a1 c1 e1 g1 i1), flying kings.
	internationalWeights = diagWeights{
		king: internationalKing, flying: true, phaseLo: 8, phaseHi: 32,
		advMG:   []int{0, 0, 0, 0, 0, 1, 2, 3, 4},
		advEG:   []int{0, 2, 4, 7, 11, 16, 23, 32, 43},
		tempoMG: 1, tempoEG: -1,
		// d4 f4 c5 e5 g5 (32 33 27 28 29); Black: 19 18 24 23 22.
		centreRanks: [2]int{3, 4}, centreFiles: [2]int{2, 6}, centreMG: 5, centreEG: 1,
		guard:        []int{2, 0, 6, 0, 8, 0, 6, 0, 2, 0},
		exposedRanks: [2]int{5, 8}, exposedMG: 8,
		breakthrough: []int{0, 50, 36, 24, 14, 6},
		outpostRanks: [2]int{5, 6}, outpostMG: 8, outpostEG: 2,
		wingMG: 3, wingEG: 1, wingCap: 60,
		kingRay: 1, longDiag: 25,
		trade: 2,
	}
)

// flying8Weights returns the weights of the 8x8 flying-king variants with
// the back-rank guard by file g.
func flying8Weights(g []int) diagWeights {
	return diagWeights{
		king: flying8King, flying: true, phaseLo: 6, phaseHi: 22,
		advMG: []int{0, 0, 0, 0, 2, 4, 6}, advEG: []int{0, 2, 5, 9, 15, 25, 40},
		tempoMG: 2, tempoEG: -1,
		centreRanks: [2]int{3, 4}, centreFiles: [2]int{2, 5}, centreMG: 6, centreEG: 2,
		guard:        g,
		exposedRanks: [2]int{4, 6}, exposedMG: 8,
		breakthrough: []int{0, 50, 32, 18, 8},
		kingRay:      1, longDiag: 25,
		trade: 2,
	}
}

// The evaluators, built once at package initialisation (nil would mean the
// variant's board does not fit the tables; EvaluateWhite then falls back
// to the generic evaluation, and TestDiagEvaluatorsBuilt fails).
var (
	evEnglish       = newDiagEval(movegen.English, &englishWeights)
	evRussian       = newDiagEval(movegen.Russian, &russianWeights)
	evBrazilian     = newDiagEval(movegen.Brazilian, &brazilianWeights)
	evSpanish       = newDiagEval(movegen.Spanish, &spanishWeights)
	evInternational = newDiagEval(movegen.International, &internationalWeights)
)

// evaluation returns e's entry in the table of evaluations: empty (the
// generic evaluation) when e could not be built.
func (e *diagEval) evaluation() evaluation {
	if e == nil {
		return evaluation{}
	}
	return evaluation{e.white, e.king, e.king}
}
