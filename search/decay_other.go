//go:build !amd64

package search

// decayHistory divides every history score by 4 (truncating toward zero)
// before a search: the scores of earlier searches still order the moves,
// a quarter as much (decay_amd64.go does it four values at a time).
func decayHistory(h *[2][64][64]int32) { decayHistoryGo(h) }
