package search

import "math/bits"

func popcount(b uint64) int { return bits.OnesCount64(b) }
