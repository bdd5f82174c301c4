package eval

import (
	"github.com/damaengine/damaengine/movegen"
)

// The tempo term of a network (weights file version 3): besides the
// output weights W2, which read the two views' difference, a network may
// have tempo weights T, which read their sum for the side to move:
//
//	White's score = hand + (Σ_j W2[j]·(clip(A_j) − clip(B_j)) + s·Σ_j T[j]·(clip(A_j) + clip(B_j))) / (NetQ·NetOutScale)
//
// with s = +1 when White is to move and −1 when Black is. This is the
// same as giving the side to move's view and the other view output
// weights of their own (W2 + T and W2 − T): the network can then tell
// whose move it is, which a draughts position's value often turns on
// (the opposition of the endings, a shot the side to move has). It stays
// exactly antisymmetric: the colour mirror swaps the views and the side
// to move, so the difference and s change sign and the sum does not.
// The division is done once, on the whole sum, truncating toward zero.
//
// Written per view, the same sum is Σ_j (W2[j] + s·T[j])·clip(A_j) −
// Σ_j (W2[j] − s·T[j])·clip(B_j): with W2 + T and W2 − T kept as int16
// (when every one fits), the AVX2 kernel netOutTempoWide reads each
// activation once for both terms.

// setTempo puts the tempo weights t (nil: none) beside the output weights
// w2 in n (newNet has checked their number); the AVX2 kernel netTempoWide
// takes them when every one fits int16, and netOutTempoWide when W2 ± T do
// too.
func (n *Net) setTempo(w2, t []int32) {
	if t == nil {
		return
	}
	n.tw = append([]int32(nil), t...)
	if n.wide == nil {
		return
	}
	w := make([]int16, len(t))
	for j, x := range t {
		if x < -32767 || x > 32767 {
			return
		}
		w[j] = int16(x)
	}
	n.tempoWide = w
	pm := make([]int16, 2*len(t))
	for j, x := range t {
		p, m := w2[j]+x, w2[j]-x
		if p < -32767 || p > 32767 || m < -32767 || m > 32767 {
			return
		}
		pm[j], pm[len(t)+j] = int16(p), int16(m)
	}
	n.tempoPM = pm
}

// withTempo is the network's part of White's score with the tempo term,
// side to move side.
func (n *Net) withTempo(acc *NetAcc, side movegen.Color) int {
	if n.tempoPM != nil && netWideKernels {
		h := n.raw.Hidden
		wa, wb := &n.tempoPM[0], &n.tempoPM[h] // White to move: s = +1
		if side == movegen.Black {
			wa, wb = wb, wa
		}
		return int(netOutTempoWide(acc, wa, wb, n.nb) / (NetQ * NetOutScale))
	}
	t := n.tempoSum(acc)
	if side == movegen.Black {
		t = -t
	}
	return int((n.outputSum(acc) + t) / (NetQ * NetOutScale))
}

// tempoSum returns Σ_j T[j]·(clip(A_j) + clip(B_j)).
func (n *Net) tempoSum(acc *NetAcc) int64 {
	if n.tempoWide != nil && netWideKernels {
		return netTempoWide(acc, &n.tempoWide[0], n.nb)
	}
	var s int64
	for j, w := range n.tw {
		s += int64(w) * int64(laneClip(acc, j)+laneClip(acc, n.nb*NetBlock+j))
	}
	return s
}

// laneClip returns the activation of lane i of acc (hidden unit i of view
// A for i < hidden, of view B from nb·NetBlock on): its sum clipped to [0,
// NetQ].
func laneClip(acc *NetAcc, i int) int {
	x := int(uint16(acc[i/NetBlock][i/4%4]>>(16*(i%4)))) - netLaneBias
	return min(max(x, 0), NetQ)
}
