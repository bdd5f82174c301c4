package search

// decayHistory4 divides p[0:n] by 4 in place (n a multiple of 4),
// truncating toward zero; decay_amd64.s.
//
//go:noescape
func decayHistory4(p *int32, n int)

// decayHistory divides every history score by 4 (truncating toward zero)
// before a search: the scores of earlier searches still order the moves,
// a quarter as much. At the 1,000 nodes of a generator's search the
// 8,192 divisions done one by one were 7 % of its instructions, so they
// are done four at a time (the same values: TestDecayHistory).
func decayHistory(h *[2][64][64]int32) {
	decayHistory4(&h[0][0][0], 2*64*64)
}
