package eval

import (
	"fmt"
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The network evaluation: the variant's hand-written evaluation plus a
// small neural network over the pieces, in place of the linear learned
// correction (learned.go) where a network file is in use.
//
// Inputs: four blocks of one input per playable square (NetKinds: own men,
// the other side's men, own kings, the other side's kings; Italian Damone
// has six, NetKindsDamone: its Dame are the kings, and its Damoni, the
// highest rank, a fifth and sixth block of their own), read twice:
// view A from White's side (White's pieces are "own", squares numbered as
// the layout numbers them from White's view) and view B from Black's
// (Black's pieces are "own", each square numbered as its rotation is).
// Both views go through the same first layer, H hidden units with a
// clipped linear activation (0 below 0, 1 above 1), and the output is
//
//	Σ_j W2[j] · (clip(A_j) − clip(B_j))
//
// so that a position and its colour-mirror score exactly opposite, by
// construction. A colour's view B is the mirrored position's view A.
//
// Integer form: the first layer's weights and biases are int16 in units of
// 1/NetQ (an activation of 1 is NetQ), the output weights int32 in units
// of 1/NetOutScale centi-man per activation unit; the score in centi-men
// is Σ W2[j]·(clipA_j − clipB_j) / (NetQ·NetOutScale), truncated toward
// zero (which keeps it antisymmetric).
//
// Speed: the first layer's sums (the accumulator) are kept as 16-bit
// lanes packed four to a uint64. Packing is linear (a vector x packs to
// Σ x_i·2^(16i), modulo 2^64), so a packed row added or subtracted adds or
// subtracts every lane at once. The bias row carries 2^15 in every lane
// besides the biases, so a lane holds its sum + 2^15: as long as each sum
// stays within int16, which loading checks for every position (netBound),
// every lane is in [0, 2^16) and the word is exactly its lanes' digits,
// each read by a shift and a mask. The search keeps one accumulator per
// ply and updates it from its parent's by the pieces that changed
// (Net.Update): a move changes two to a few squares, so an evaluation
// costs a few row additions and the output layer instead of a pass over
// every piece.
//
// Kernels: on amd64 a network of one block a view (NetBlock hidden units,
// as every embedded network) updates and scores with SSE2
// (netout_amd64.s), which every amd64 processor has. A wider network (2 to
// netBlocks blocks a view, up to MaxNetHidden units) has AVX2 kernels
// (netwide_amd64.s), used when the processor has AVX2 and the operating
// system saves the YMM registers (CPUID and XGETBV, checked once), and
// while netWideKernels is on. Its rows are kept a second time in lanes
// (each weight in its own 16-bit lane, lanesBlock): VPADDW and VPSUBW add
// and subtract lane by lane modulo 2^16, which is exact because every
// lane's final value, its sum + 2^15, is within [0, 2^16) (netBound).
// Update collects the byte offsets of the changed pieces' rows (a move
// changes two to a few; captures up to about twenty) in a small array, and
// one call walks the accumulator four blocks (four YMM registers) at a
// time, applying every row; Refresh does the same with every piece's row
// onto the bias. Output clips both views' lanes with VPMAXSW and
// VPMINSW, takes their differences and multiplies them by the output
// weights as int16 (split in two halves as for one block, so weights up to
// ±65,534 take it) with VPMADDWD, summing in int32 lanes and then in
// int64. Packed words and lanes give the same accumulator bytes (each lane
// its sum + 2^15), so the two forms mix freely: a network without the
// kernels, an update changing more pieces than netMaxChanges and an
// output weight beyond the halves take the portable code (updateBlocks,
// outputBlocks), which is exact too.

// NetQ is the integer value of an activation of 1 (the clip's top),
// 1 << netQBits.
const (
	NetQ     = 1 << netQBits
	netQBits = 8
)

// NetOutScale is the output weights' units per centi-man.
const NetOutScale = 64

// NetKinds is the number of input blocks: own men, other men, own kings,
// other kings.
const NetKinds = 4

// NetKindsDamone is the number of input blocks of an Italian Damone
// network: NetKinds (its Dame as the kings) and own and other Damoni.
const NetKindsDamone = 6

// NetBlock is the hidden units of one block: a network has a whole number
// of blocks (each four words of four lanes), the unit its loops run over.
const NetBlock = 16

// MaxNetHidden is the largest hidden layer a network file may have. An
// accumulator (NetAcc) is then 1 KiB; the search keeps one a ply.
const MaxNetHidden = 256

// netBlocks is the most blocks one view has.
const netBlocks = MaxNetHidden / NetBlock

// CheckNetHidden returns an error unless a network may have h hidden
// units: a multiple of NetBlock from NetBlock to MaxNetHidden.
func CheckNetHidden(h int) error {
	if h < NetBlock || h > MaxNetHidden || h%NetBlock != 0 {
		return fmt.Errorf("%d hidden units, want a multiple of %d from %d to %d", h, NetBlock, NetBlock, MaxNetHidden)
	}
	return nil
}

// netBlock is one block's packed sums: 16 lanes in four words.
type netBlock [4]uint64

// NetWeights are a network's weights in integer form: W1 by input (kind ×
// squares + square) then hidden unit, B1 and W2 by hidden unit.
type NetWeights struct {
	Hidden int
	W1     []int16 // kinds (NetKinds, or NetKindsDamone) × squares × Hidden
	B1     []int16 // Hidden
	W2     []int32 // Hidden
	// T, if not nil, are the tempo weights (Hidden of them, nettempo.go):
	// a version 3 weights file.
	T []int32
	// Buckets, above 1, is the number of output buckets (netbucket.go):
	// W2 and T then hold Buckets × Hidden weights, bucket by bucket (a
	// version 4 file). 0 or 1: one set.
	Buckets int
	// Pats, if not empty, are sets of pattern tables added to the score
	// (pattern.go), each of its own shape: one 4 x 4 set is a version 5
	// file, one of another shape version 6, more than one version 7.
	Pats []PatSet
	// Threats marks a network with threat inputs (netthreat.go):
	// NetThreatKinds more blocks of W1 after the pieces' (a version 8
	// file).
	Threats bool
}

// buckets returns the number of sets of output weights nw has.
func (nw *NetWeights) buckets() int { return max(nw.Buckets, 1) }

// NetAcc is the first layer's sums of a position, both views packed: view
// A in blocks [0, nb), view B in [nb, 2nb), nb = hidden/NetBlock. Its last
// block (netThreatSlot) holds, for a network with threat inputs, the
// position's threat sets as Refresh or Update found them (netthreat.go),
// which the next Update starts from.
type NetAcc [2*netBlocks + 1]netBlock

// netThreatSlot is the block of a NetAcc that holds its threat sets.
const netThreatSlot = 2 * netBlocks

// Net is a network ready to evaluate with: the rows of packed first-layer
// weights by piece kind and bit.
type Net struct {
	hand func(p *movegen.Position) int // the variant's hand-written evaluation (White)
	nb   int                           // blocks per view
	// v is the network's rule set, kinds its piece kinds (the first
	// threat kind, when threats is set: a network with threat inputs,
	// netthreat.go).
	v       *movegen.Variant
	kinds   int
	threats bool
	// damone marks an Italian Damone network (six kinds): its updates take
	// the portable code, which reads the Damoni (updateWide's offsets
	// know four kinds).
	damone bool
	// rows[((k*64)+b)*2nb : +2nb] is what a piece of kind k (0 White man,
	// 1 Black man, 2 White king, 3 Black king; Damone: 4 White Damone, 5
	// Black Damone) on bit b adds to both views' blocks.
	rows []netBlock
	// one is rows again as a fixed-size array (Go cannot view a
	// []netBlock as one), for a network of one block a view (NetBlock
	// hidden units, as every embedded network): the portable update1
	// indexes it without bounds checks. Nil for larger networks.
	one *[NetKinds][64][2]netBlock
	// lanes is one again with each weight in its own 16-bit lane
	// (lanesBlock), for netUpdate16's SSE2 kernel; nil without it.
	lanes *[NetKinds][64][2]netBlock
	// out16 is the output weights split in two int16 halves (w =
	// out16[0][j] + out16[1][j]) for netOutput16's SSE2 kernel, when the
	// network is one block and every weight fits (netOutputFits); nil
	// otherwise.
	out16 *[2][16]int16
	// wide is rows again in lanes (lanesBlock), block by block, for
	// netUpdateWide's AVX2 kernel: a network of two blocks a view or more
	// built while netWideKernels was on; nil otherwise.
	wide []netBlock
	// outWide is the output weights in two int16 halves for
	// netOutputWide's AVX2 kernel, the first halves for every hidden unit
	// then the second (w = outWide[j] + outWide[Hidden+j]), when wide is
	// there and every weight fits (splitOutputWide); nil otherwise.
	// outTwo says some second half is not zero.
	outWide []int16
	outTwo  bool
	// tw is the tempo weights (nil: none) and tempoWide the same as int16
	// for netTempoWide's AVX2 kernel, when wide is there and every one
	// fits (nil otherwise); see nettempo.go.
	tw        []int32
	tempoWide []int16
	// tempoPM is W2 + T then W2 − T as int16 for netOutTempoWide, the
	// output and tempo terms in one pass, when tempoWide is there and
	// every one fits (nil otherwise).
	tempoPM []int16
	bias    NetAcc
	w2      [netBlocks][4][4]int64 // by block, word, lane
	w2q     int64                  // NetQ × Σ w2, which Output's lanes carry in excess
	raw     NetWeights
	// heads, for a network of output buckets (netbucket.go), is one Net a
	// bucket sharing this one's first layer, each with its own output
	// fields above (this one's stay empty: White and full read the
	// position's head); start is the number of pieces at the start.
	heads []*Net
	start int
	// pat, if not empty, are pattern tables added to the score
	// (pattern.go), a set of each shape the network carries.
	pat PatternSets
}

// netLaneBias is added to every lane of the accumulator (see the notes
// above): a lane holds its sum + netLaneBias.
const netLaneBias = 1 << 15

// netSets returns the piece sets of a position by input kind: White men,
// Black men, White kings, Black kings, then Italian Damone's White and
// Black Damoni (Position.Super, empty in every other variant; a Damone is
// in Kings too, and is read in its own set only).
func netSets(p *movegen.Position) [NetKindsDamone]uint64 {
	w, b, k, s := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings, p.Super
	return [NetKindsDamone]uint64{w &^ k, b &^ k, w & k &^ s, b & k &^ s, w & s, b & s}
}

// netKinds returns the number of input kinds of l's networks.
func (l *layout) netKinds() int {
	if l.damone {
		return NetKindsDamone
	}
	return NetKinds
}

// lanesBlock puts the 16 values x (each within int16) in one block's
// lanes as they are, unlike packBlocks: lane j holds x[j] mod 2^16, so a
// lane-by-lane add (PADDW) adds the row; a negative value does not borrow
// from the next lane as it does in a packed word.
func lanesBlock(x []int64) netBlock {
	var b netBlock
	for j := 0; j < NetBlock; j++ {
		b[j/4] |= uint64(uint16(x[j])) << (16 * (j % 4))
	}
	return b
}

// packBlocks packs x (hidden values) into blocks, four 16-bit lanes a
// word: hidden unit j is lane j%4 of word (j/4)%4 of block j/16.
func packBlocks(dst []netBlock, x []int64) {
	for i := range dst {
		for wd := range dst[i] {
			var p int64
			for l := 3; l >= 0; l-- {
				p = p<<16 + x[16*i+4*wd+l]
			}
			dst[i][wd] = uint64(p)
		}
	}
}

// newNet builds the network of weights nw for layout l, checking that no
// position can overflow a 16-bit lane.
func newNet(l *layout, nw NetWeights) (*Net, error) {
	h := nw.Hidden
	if err := CheckNetHidden(h); err != nil {
		return nil, fmt.Errorf("eval network: %v", err)
	}
	if err := CheckNetBuckets(nw.Buckets); err != nil {
		return nil, fmt.Errorf("eval network: %v", err)
	}
	nbk, kinds := nw.buckets(), l.netKinds()
	if nw.Threats {
		kinds += NetThreatKinds
	}
	if len(nw.W1) != kinds*l.nsq*h || len(nw.B1) != h || len(nw.W2) != nbk*h {
		return nil, fmt.Errorf("eval network: %d, %d, %d weights; want %d, %d, %d",
			len(nw.W1), len(nw.B1), len(nw.W2), kinds*l.nsq*h, h, nbk*h)
	}
	if nw.T != nil && len(nw.T) != nbk*h {
		return nil, fmt.Errorf("eval network: %d tempo weights, want %d", len(nw.T), nbk*h)
	}
	if j, b := netBound(l.nsq, l.netKinds(), nw); b > 32767 {
		return nil, fmt.Errorf("eval network: hidden unit %d can reach %d, beyond the 16-bit accumulator", j, b)
	}
	nb := h / NetBlock
	n := &Net{hand: l.hand, nb: nb, v: l.v, kinds: l.netKinds(), threats: nw.Threats, damone: l.damone, rows: make([]netBlock, kinds*64*2*nb), raw: nw}
	pts, err := NewPatternSets(l.v, nw.Pats)
	if err != nil {
		return nil, err
	}
	n.pat = pts
	if nb > 1 && netWideKernels {
		n.wide = make([]netBlock, len(n.rows))
	}
	x := make([]int64, h)
	for b := 0; b < 64; b++ {
		sa, sb := l.sqW[b], l.sqB[b]
		if sa < 0 || sb < 0 {
			continue
		}
		for k := 0; k < kinds; k++ {
			// View A: White's pieces are own (kinds 0, 2 and 4 stay), read
			// on White's numbering; view B: Black's pieces are own (the
			// colours swap: 0↔1, 2↔3, 4↔5, and so the threat kinds'
			// pairs), on the rotated numbering.
			row := n.rows[(k*64+b)*2*nb : (k*64+b+1)*2*nb]
			for _, v := range [2]struct {
				kind, sq, off int
			}{{k, int(sa), 0}, {k ^ 1, int(sb), nb}} {
				in := (v.kind*l.nsq + v.sq) * h
				for j := range x {
					x[j] = int64(nw.W1[in+j])
				}
				packBlocks(row[v.off:v.off+nb], x)
				if n.wide != nil {
					wide := n.wide[(k*64+b)*2*nb+v.off:]
					for i := 0; i < nb; i++ {
						wide[i] = lanesBlock(x[NetBlock*i:])
					}
				}
				if nb == 1 && haveNetKernels && !l.damone && k < NetKinds {
					if n.lanes == nil {
						n.lanes = new([NetKinds][64][2]netBlock)
					}
					n.lanes[k][b][v.off] = lanesBlock(x)
				}
			}
		}
	}
	for j := range x {
		x[j] = int64(nw.B1[j]) + netLaneBias
	}
	packBlocks(n.bias[:nb], x)
	packBlocks(n.bias[nb:2*nb], x)
	if nb == 1 && !l.damone {
		n.one = new([NetKinds][64][2]netBlock)
		for k := range n.one {
			for b := range n.one[k] {
				copy(n.one[k][b][:], n.rows[(k*64+b)*2:])
			}
		}
	}
	if nbk == 1 {
		n.setOutput(nw.W2, nw.T)
		return n, nil
	}
	n.start = startPieces(l.v)
	n.heads = make([]*Net, nbk)
	for b := range n.heads {
		m := *n
		m.heads = nil
		w2 := nw.W2[b*h : (b+1)*h]
		var t []int32
		if nw.T != nil {
			t = nw.T[b*h : (b+1)*h]
		}
		m.raw = NetWeights{Hidden: h, W2: w2, T: t}
		m.setOutput(w2, t)
		n.heads[b] = &m
	}
	return n, nil
}

// setOutput puts in n the output weights w2 and the tempo weights t (nil:
// none), Hidden of each, in the forms the kernels and the portable code
// read.
func (n *Net) setOutput(w2, t []int32) {
	if n.nb == 1 && haveNetKernels && netOutputFits(w2) {
		n.out16 = splitOutput(w2)
	}
	if n.wide != nil {
		n.outWide, n.outTwo = splitOutputWide(w2)
	}
	n.setTempo(w2, t)
	n.w2q = 0
	for j := range w2 {
		n.w2[j/16][j/4%4][j%4] = int64(w2[j])
		n.w2q += NetQ * int64(w2[j])
	}
}

// netBound returns the hidden unit whose sum can grow largest in magnitude
// over all positions, and that bound: the bias plus, square by square, the
// largest weight of any of the kinds piece kinds there (one piece a
// square), and with threat inputs the largest of each pair of threat
// kinds (a piece can be a jumper and taken, of its own colour only).
func netBound(nsq, kinds int, nw NetWeights) (int, int) {
	h := nw.Hidden
	worst, wj := -1, 0
	for j := 0; j < h; j++ {
		s := abs16(nw.B1[j])
		for sq := 0; sq < nsq; sq++ {
			m := 0
			for k := 0; k < kinds; k++ {
				m = max(m, abs16(nw.W1[(k*nsq+sq)*h+j]))
			}
			s += m
			if nw.Threats {
				for k := kinds; k < kinds+NetThreatKinds; k += 2 {
					s += max(abs16(nw.W1[(k*nsq+sq)*h+j]), abs16(nw.W1[((k+1)*nsq+sq)*h+j]))
				}
			}
		}
		if s > worst {
			worst, wj = s, j
		}
	}
	return wj, worst
}

func abs16(x int16) int {
	if x < 0 {
		return -int(x)
	}
	return int(x)
}

// Refresh sets acc to the first layer's sums of p, from its pieces.
func (n *Net) Refresh(acc *NetAcc, p *movegen.Position) {
	if n.threats {
		defer n.refreshThreats(acc, p)
	}
	if n.wide != nil && netWideKernels && n.refreshWide(acc, p) {
		return
	}
	// Without kernels: the packed rows of p's pieces added to the bias
	// word by word.
	m := 2 * n.nb
	a := acc[:m:m]
	copy(a, n.bias[:m])
	for k, set := range netSets(p) {
		for x := set; x != 0; x &= x - 1 {
			b := bits.TrailingZeros64(x) & 63
			addBlocks(a, n.rows[(k*64+b)*m:(k*64+b+1)*m])
		}
	}
}

// addBlocks adds the blocks r to a, lane by lane (len(r) ≥ len(a)).
func addBlocks(a, r []netBlock) {
	r = r[:len(a)]
	for i := range a {
		x, y := &a[i], &r[i]
		x[0] += y[0]
		x[1] += y[1]
		x[2] += y[2]
		x[3] += y[3]
	}
}

// subBlocks subtracts the blocks r from a, lane by lane.
func subBlocks(a, r []netBlock) {
	r = r[:len(a)]
	for i := range a {
		x, y := &a[i], &r[i]
		x[0] -= y[0]
		x[1] -= y[1]
		x[2] -= y[2]
		x[3] -= y[3]
	}
}

// Update sets acc to the sums of p from prev, the sums of q: it subtracts
// the pieces of q that p does not have and adds those p has that q has
// not (a move's from square, its captures, its landing square; q may be
// any position, an ancestor several plies up as the search gives it, the
// more pieces that differ the more rows).
func (n *Net) Update(acc, prev *NetAcc, q, p *movegen.Position) {
	if n.threats {
		n.updateThreats(acc, prev, q, p)
		return
	}
	if n.lanes != nil {
		// The piece sets by kind as netSets gives them, written out: an
		// array of them would be kept in memory, not registers.
		qw, qb, qk := q.Pieces[movegen.White], q.Pieces[movegen.Black], q.Kings
		pw, pb, pk := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
		qwm, qbm, qwk, qbk := qw&^qk, qb&^qk, qw&qk, qb&qk
		pwm, pbm, pwk, pbk := pw&^pk, pb&^pk, pw&pk, pb&pk
		ch := [2 * NetKinds]uint64{qwm &^ pwm, qbm &^ pbm, qwk &^ pwk, qbk &^ pbk,
			pwm &^ qwm, pbm &^ qbm, pwk &^ qwk, pbk &^ qbk}
		netUpdate16((*[2]netBlock)(acc[:2]), (*[2]netBlock)(prev[:2]), n.lanes, &ch)
		return
	}
	if n.one != nil {
		n.update1(acc, prev, q, p)
		return
	}
	if n.wide != nil && netWideKernels && !n.damone {
		n.updateWide(acc, prev, q, p)
		return
	}
	n.updateBlocks(acc, prev, q, p)
}

// updateBlocks is Update without kernels for a network of any size: the
// packed rows of the pieces that changed, word by word.
func (n *Net) updateBlocks(acc, prev *NetAcc, q, p *movegen.Position) {
	m := 2 * n.nb
	a, pv := acc[:m:m], prev[:m:m]
	for i := range a {
		a[i] = pv[i]
	}
	sq, sp := netSets(q), netSets(p)
	for k := range sq {
		n.changeRows(a, k, sq[k], sp[k])
	}
}

// changeRows subtracts from a (an accumulator's 2nb blocks) the rows of
// kind k on the bits of was that now has not, and adds those of now that
// was has not.
func (n *Net) changeRows(a []netBlock, k int, was, now uint64) {
	m := 2 * n.nb
	for x := was &^ now; x != 0; x &= x - 1 {
		b := bits.TrailingZeros64(x) & 63
		subBlocks(a, n.rows[(k*64+b)*m:(k*64+b+1)*m])
	}
	for x := now &^ was; x != 0; x &= x - 1 {
		b := bits.TrailingZeros64(x) & 63
		addBlocks(a, n.rows[(k*64+b)*m:(k*64+b+1)*m])
	}
}

// netMaxChanges is the most rows updateWide (pieces) and updateThreats
// (pieces and threat inputs) hand netUpdateWide at once; an update
// changing more takes the portable code.
const netMaxChanges = 64

// netBlockBytes is the size of a netBlock: 16 lanes, one YMM register.
const netBlockBytes = 32

// updateWide is Update with the AVX2 kernel (n.wide): the byte offsets of
// the rows of the pieces q has and p has not, then of those p has and q
// has not, in one fixed array, and one call applying them all. A move
// changes two or three squares, so the offsets are found square by square
// over the squares whose contents differ (a piece's kind is 2·king +
// black, the order of the table's rows), not set by set.
func (n *Net) updateWide(acc, prev *NetAcc, q, p *movegen.Position) {
	qw, qb, qk := q.Pieces[movegen.White], q.Pieces[movegen.Black], q.Kings
	pw, pb, pk := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings
	changed := (qw ^ pw) | (qb ^ pb) | (qk ^ pk)
	var offs [netMaxChanges]uint32
	row := uint32(2 * n.nb * netBlockBytes)
	c := rowOffs(&offs, 0, changed&(qw|qb), qb, qk, row)
	nsub := c
	c = rowOffs(&offs, c, changed&(pw|pb), pb, pk, row)
	if c > netMaxChanges {
		n.updateBlocks(acc, prev, q, p)
		return
	}
	netUpdateWide(&acc[0], &prev[0], &n.wide[0], &offs[0], nsub, c-nsub, 2*n.nb)
}

// rowOffs writes into offs from index c the byte offsets of the rows of
// the pieces on the bits of set (black and kings telling their kinds) and
// returns the next index (past netMaxChanges the writes wrap around: the
// caller then takes another path).
func rowOffs(offs *[netMaxChanges]uint32, c int, set, black, kings uint64, row uint32) int {
	for ; set != 0; set &= set - 1 {
		sq := uint(bits.TrailingZeros64(set))
		kind := black>>sq&1 | (kings>>sq&1)<<1
		offs[c&(netMaxChanges-1)] = uint32(kind<<6|uint64(sq)) * row
		c++
	}
	return c
}

// kindOffs is rowOffs for rows of one kind k, the bits of set.
func kindOffs(offs *[netMaxChanges]uint32, c int, set uint64, k int, row uint32) int {
	for ; set != 0; set &= set - 1 {
		offs[c&(netMaxChanges-1)] = uint32(k*64+bits.TrailingZeros64(set)) * row
		c++
	}
	return c
}

// refreshWide is Refresh with the AVX2 kernel: the rows of every piece of
// p (at most one a bit, 64) added to the bias by one call. It returns
// false, acc untouched, for a p with more (not a position: a square of two
// colours), which Refresh's portable code takes.
func (n *Net) refreshWide(acc *NetAcc, p *movegen.Position) bool {
	var offs [64]uint32
	row := uint32(2 * n.nb * netBlockBytes)
	c := 0
	for k, set := range netSets(p) {
		for x := set; x != 0; x &= x - 1 {
			offs[c&63] = uint32(k*64+bits.TrailingZeros64(x)&63) * row
			c++
		}
	}
	if c > len(offs) {
		return false
	}
	netUpdateWide(&acc[0], &n.bias[0], &n.wide[0], &offs[0], 0, c, 2*n.nb)
	return true
}

// update1 is Update for a one-block network: the two views' eight words
// are held in variables (an array would live in memory) while the rows
// of the pieces that changed are added and subtracted.
func (n *Net) update1(acc, prev *NetAcc, q, p *movegen.Position) {
	rows := n.one
	a, b := &prev[0], &prev[1]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
	sq, sp := netSets(q), netSets(p)
	for k := range sq {
		for x := sq[k] &^ sp[k]; x != 0; x &= x - 1 {
			r := &rows[k][bits.TrailingZeros64(x)&63]
			a0, a1, a2, a3 = a0-r[0][0], a1-r[0][1], a2-r[0][2], a3-r[0][3]
			b0, b1, b2, b3 = b0-r[1][0], b1-r[1][1], b2-r[1][2], b3-r[1][3]
		}
		for x := sp[k] &^ sq[k]; x != 0; x &= x - 1 {
			r := &rows[k][bits.TrailingZeros64(x)&63]
			a0, a1, a2, a3 = a0+r[0][0], a1+r[0][1], a2+r[0][2], a3+r[0][3]
			b0, b1, b2, b3 = b0+r[1][0], b1+r[1][1], b2+r[1][2], b3+r[1][3]
		}
	}
	acc[0] = netBlock{a0, a1, a2, a3}
	acc[1] = netBlock{b0, b1, b2, b3}
}

// Output returns the network's score of the sums acc, centi-men, White's
// view (without the tempo term: see White), for a network of one set of
// output weights (a network of output buckets: the head's).
func (n *Net) Output(acc *NetAcc) int {
	return int(n.outputSum(acc) / (NetQ * NetOutScale))
}

// outputSum is Output before the division by NetQ·NetOutScale: the exact
// Σ_j W2[j]·(clip(A_j) − clip(B_j)).
func (n *Net) outputSum(acc *NetAcc) int64 {
	if n.out16 != nil {
		return int64(netOutput16((*[2]netBlock)(acc[:2]), n.out16))
	}
	if n.one != nil {
		return n.output1(acc)
	}
	if n.outWide != nil && netWideKernels {
		return netOutputWide(acc, &n.outWide[0], n.nb, n.outTwo)
	}
	return n.outputBlocks(acc)
}

// outputBlocks is outputSum without kernels for a network of any size:
// the clipped lanes four to a word, their differences by the output
// weights.
func (n *Net) outputBlocks(acc *NetAcc) int64 {
	nb := n.nb
	var s int64
	for i := 0; i < nb; i++ {
		a, b, w := &acc[i&(netBlocks-1)], &acc[(nb+i)&(2*netBlocks-1)], &n.w2[i&(netBlocks-1)]
		for k := range a {
			// The lanes of d are clip(A_j) − clip(B_j) + NetQ, in [0,
			// 2·NetQ]: adding and subtracting them word-wide neither
			// carries nor borrows.
			d := clipLanes(a[k]) + (netQLanes - clipLanes(b[k]))
			v := &w[k]
			s += v[0]*int64(d&0x3FF) + v[1]*int64(d>>16&0x3FF) + v[2]*int64(d>>32&0x3FF) + v[3]*int64(d>>48)
		}
	}
	return s - n.w2q
}

// netOutputFits reports whether the output weights w2 of a one-block
// network suit netOutput16: each the sum of two int16 halves within
// ±32,767, so within ±65,534. A half's product with a difference of
// activations (at most NetQ = 2^8 in magnitude) is below 2^23, a pair of
// them below 2^24, and the sum of all 32 below 2^28, in int32.
func netOutputFits(w2 []int32) bool {
	for _, x := range w2 {
		if x < -2*32767 || x > 2*32767 {
			return false
		}
	}
	return len(w2) == NetBlock
}

// splitOutput splits the output weights w2 (as netOutputFits allows)
// into two int16 halves: w2[j] = h[0][j] + h[1][j], the first clamped to
// ±32,767.
func splitOutput(w2 []int32) *[2][16]int16 {
	h := new([2][16]int16)
	for j, x := range w2[:NetBlock] {
		lo := min(max(x, -32767), 32767)
		h[0][j], h[1][j] = int16(lo), int16(x-lo)
	}
	return h
}

// splitOutputWide splits the output weights w2 in two int16 halves as
// splitOutput does, for netOutputWide: every unit's first half, then every
// second half (w2[j] = h[j] + h[len(w2)+j]), and whether a second half is
// not zero. Nil when a weight is beyond ±65,534 (two halves' range).
// Within it the kernel's int32 lanes cannot overflow: a lane adds a pair
// of products below 2^23 each a block and half, 2 × 16 blocks at most, so
// stays below 2^29, and the lanes are summed in int64 (netwide_amd64.s).
func splitOutputWide(w2 []int32) (h []int16, two bool) {
	for _, x := range w2 {
		if x < -2*32767 || x > 2*32767 {
			return nil, false
		}
	}
	h = make([]int16, 2*len(w2))
	for j, x := range w2 {
		lo := min(max(x, -32767), 32767)
		h[j], h[len(w2)+j] = int16(lo), int16(x-lo)
		two = two || x != lo
	}
	return h, two
}

// output1 is outputSum for a one-block network, its four words written
// out.
func (n *Net) output1(acc *NetAcc) int64 {
	a, b, w := &acc[0], &acc[1], &n.w2[0]
	d0 := clipLanes(a[0]) + (netQLanes - clipLanes(b[0]))
	d1 := clipLanes(a[1]) + (netQLanes - clipLanes(b[1]))
	d2 := clipLanes(a[2]) + (netQLanes - clipLanes(b[2]))
	d3 := clipLanes(a[3]) + (netQLanes - clipLanes(b[3]))
	s := lanesDot(&w[0], d0) + lanesDot(&w[1], d1) + lanesDot(&w[2], d2) + lanesDot(&w[3], d3)
	return s - n.w2q
}

// lanesDot is the dot product of the output weights v with the four
// lanes of d (each at most 2·NetQ, ten bits).
func lanesDot(v *[4]int64, d uint64) int64 {
	return v[0]*int64(d&0x3FF) + v[1]*int64(d>>16&0x3FF) + v[2]*int64(d>>32&0x3FF) + v[3]*int64(d>>48)
}

// Lane constants: 1, NetQ and 0x7FFF in every lane.
const (
	netOnes   = 0x0001000100010001
	netQLanes = NetQ * netOnes
	netLow15  = 0x7FFF * netOnes
)

// clipLanes returns the activations of the four lanes of x (each a sum +
// netLaneBias), each clipped to [0, NetQ], four to a word. A lane's top
// bit says its sum is not negative, and its low 15 bits are then the
// sum; adding 0x7FFF − NetQ to those sets the top bit exactly when the
// sum is above NetQ (no lane can carry: 0x7FFF + 0x7FFF − NetQ < 2^16).
func clipLanes(x uint64) uint64 {
	pos := x >> 15 & netOnes
	t := x & netLow15
	big := (t + (0x7FFF-NetQ)*netOnes) >> 15 & netOnes
	z := t&^(big<<16-big) | big<<netQBits
	return z & (pos<<16 - pos)
}

// White is the evaluation of p with the network, White's view, given the
// first layer's sums acc of p: the hand-written evaluation plus Output,
// plus the tempo term for a network that has one (nettempo.go).
func (n *Net) White(p *movegen.Position, acc *NetAcc) int {
	n = n.head(p)
	s := n.hand(p)
	s += n.pat.White(p)
	if n.tw != nil {
		return s + n.withTempo(acc, p.Side)
	}
	return s + n.Output(acc)
}

// full is the network's score of p computed from its pieces, with its
// pattern tables when pat is true and it has them.
func (n *Net) full(p *movegen.Position, pat bool) int {
	var acc NetAcc
	n.Refresh(&acc, p)
	n = n.head(p)
	s := 0
	if pat {
		s = n.pat.White(p)
	}
	if n.tw != nil {
		return s + n.withTempo(&acc, p.Side)
	}
	return s + n.Output(&acc)
}

// EvaluateWhiteWithout is EvaluateWhite less the term of the network's
// pattern tables of shape s, if it has a set of that shape: the base tune
// patterns --keep fits a new set of shape s over, the network's sets of
// other shapes in it.
func EvaluateWhiteWithout(v *movegen.Variant, p *movegen.Position, s PatShape) int {
	e := EvaluateWhite(v, p)
	if n := ActiveNet(v); n != nil {
		for _, pt := range n.head(p).pat {
			if pt.g.shape == s {
				e -= pt.White(p)
			}
		}
	}
	return e
}

// EvaluateWhiteNoPatterns is EvaluateWhite without the pattern tables of
// the network in use, if it has any: the base the tuner fits new tables
// over.
func EvaluateWhiteNoPatterns(v *movegen.Variant, p *movegen.Position) int {
	if n := ActiveNet(v); n != nil {
		return n.hand(p) + n.full(p, false)
	}
	return EvaluateWhite(v, p)
}

// Weights returns the network's weights (not to be modified).
func (n *Net) Weights() NetWeights { return n.raw }

// ActiveNet returns the network v's evaluation uses now, or nil when it
// uses none (hand-written or linear learned weights). A search takes it
// once at its start, as weights change only between searches.
func ActiveNet(v *movegen.Variant) *Net {
	if l := layoutOf(v); l != nil {
		l.ensure()
		if t := l.cur.Load(); t != nil {
			return t.net
		}
	}
	return nil
}

// NetInputs appends to a and b the active inputs of p's view A and view B
// (kind × squares + square, as NetWeights.W1 is indexed), for the tuner,
// and returns them with the hand-written evaluation of p (White's view).
// For a variant without a learned layout it returns a, b unchanged and 0.
func NetInputs(v *movegen.Variant, p *movegen.Position, a, b []int32) ([]int32, []int32, int) {
	l := layoutOf(v)
	if l == nil {
		return a, b, 0
	}
	for k, set := range netSets(p) {
		for x := set; x != 0; x &= x - 1 {
			bt := bits.TrailingZeros64(x) & 63
			a = append(a, int32(k*l.nsq+int(l.sqW[bt])))
			b = append(b, int32((k^1)*l.nsq+int(l.sqB[bt])))
		}
	}
	return a, b, l.hand(p)
}

// NetSquares returns the playable squares of v's layout (the network's
// inputs are NetInputKinds times as many), or 0 when v has none.
func NetSquares(v *movegen.Variant) int {
	if l := layoutOf(v); l != nil {
		return l.nsq
	}
	return 0
}

// NetInputKinds returns the number of input kinds of v's networks:
// NetKindsDamone for the Italian Damone rule sets, NetKinds for the others.
func NetInputKinds(v *movegen.Variant) int {
	if l := layoutOf(v); l != nil {
		return l.netKinds()
	}
	return NetKinds
}
