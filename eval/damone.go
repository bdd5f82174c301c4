package eval

import (
	"math/bits"

	"github.com/damaengine/damaengine/movegen"
)

// The Italian Damone evaluation (rules.md §2), on the Italian 8x8 layout
// (movegen/board.go: 32 squares in 36 bits, ghosts 4, 13, 22, 31; up-right
// is a shift by -4, up-left -5, down-left +4, down-right +5). The package
// documentation (doc.go, "Italian Damone evaluation") describes every
// term; keep the two in step.
//
// Position.Kings holds the Dame and the Damoni, Position.Super the Damoni.
// A White Pedina steps up-left (forward, towards a8), up-right or
// down-left; it becomes a Dama on c8 or a6 (squares 2 and 9, bits 1 and
// 9), a Dama becomes a Damone on a8 (square 1, bit 0). Black mirrors it.
//
// One function (damoneSide) scores either side: every step it takes is
// one of the four diagonal shifts, used all four at once (mobility, "can
// be taken now"), so it is the same for both colours; what depends on the
// colour lives in tables, White's built from White's point of view and
// Black's as the same weights on the rotated bit (b ↔ 35-b). So the
// evaluation is colour-symmetric by construction.

// Damone piece values, in centi-men.
const (
	// DamaValue is the value of a Dama. It steps one square in all four
	// directions like an Italian king, and like one it cannot be taken by
	// the Pedine; it may become a Damone; only the two enemy Dame and the
	// enemy Damone can take it. As the Italian king, KingValue (280).
	DamaValue = KingValue
	// DamoneValue is the value of a Damone. It moves like a Dama, takes
	// every piece, and only the enemy Damone can take it: with one Damone a
	// side, it is immune to everything but one piece. Worth a Dama and
	// more than half again (a Dama plus almost two Pedine).
	DamoneValue = 450

	// DamoneLost is the score of a side left without a Damone under the
	// "all Damoni captured" rule (DamoneAllDamoni): it has lost.
	DamoneLost = 5000
)

// Damone weights, in centi-men.
const (
	dmPhaseLo = 4  // at or below this many pieces: pure endgame
	dmPhaseHi = 16 // at or above: pure middlegame (16 at the start)

	dmCentreMG = 4 // Pedina on c4, e4, d5 or f5
	dmCentreEG = 0

	dmKingCentre = 2 // Dama or Damone, per step of centrality (0-6)
	dmKingMob    = 3 // Dama or Damone, per empty square diagonally next to it

	// The "all Damoni" rule: a side with one Damone left against an enemy
	// Damone, which alone can take it, pays dmLone; if the enemy Damone
	// could take it right now, dmLoneThreat with the owner to move (it
	// must flee) or dmLoneHit with the enemy to move (the game is lost).
	dmLone       = 60
	dmLoneThreat = 150
	dmLoneHit    = 1000

	dmTrade = 2 // trade-down: material × dmTrade / (pieces + 2)
)

var (
	// dmAdvMG and dmAdvEG are the bonus of a Pedina by the number of its
	// steps (on an empty board) to the nearer of its promotion squares,
	// index 0 unused; farther than the table reaches earns 0.
	dmAdvMG = []int{0, 16, 11, 7, 4, 2, 1}
	dmAdvEG = []int{0, 40, 28, 19, 12, 7, 4, 2, 1}
	// dmToDamone is the bonus of a Dama, not attacked by an enemy Dama or
	// Damone, by its king distance to the Damone square (a8 for White).
	dmToDamone = []int{0, 30, 20, 13, 8, 4, 2}
)

var (
	// dmPed[n][c] is the Pedine's table of colour c with n pieces on the
	// board, as bit planes (weights 0-63).
	dmPed [25][2][manPlanes]uint64
	// dmDama[c] is the Dama's table of colour c (distance to its Damone
	// square), as bit planes.
	dmDama [2][manPlanes]uint64
	// dmTradeK[n] is the trade-down factor ×1024 with n pieces.
	dmTradeK [25]int
	// dmPedDist[b] is the steps a White Pedina on bit b needs to reach c8
	// or a6 on an empty board (-1: never; 0: the square itself).
	dmPedDist [36]int
)

func init() {
	// Steps of a White Pedina to a promotion square: relax until stable.
	for b := range dmPedDist {
		dmPedDist[b] = -1
	}
	dmPedDist[1], dmPedDist[9] = 0, 0 // c8, a6
	for changed := true; changed; {
		changed = false
		for b := 0; b < 36; b++ {
			if !sqValid(b) || b == 1 || b == 9 {
				continue
			}
			for _, t := range [3]int{b - 4, b - 5, b + 4} { // up-right, up-left, down-left
				if t < 0 || !sqValid(t) || dmPedDist[t] < 0 {
					continue
				}
				if d := dmPedDist[t] + 1; dmPedDist[b] < 0 || d < dmPedDist[b] {
					dmPedDist[b] = d
					changed = true
				}
			}
		}
	}
	for n := range dmPed {
		var w [36]int
		for b := 0; b < 36; b++ {
			if !sqValid(b) {
				continue
			}
			var mg, eg int
			if d := dmPedDist[b]; d > 0 {
				if d < len(dmAdvMG) {
					mg = dmAdvMG[d]
				}
				if d < len(dmAdvEG) {
					eg = dmAdvEG[d]
				}
			}
			r, f := 7-sqRow(b), sqFile(b)
			if (r == 3 && (f == 2 || f == 4)) || (r == 4 && (f == 3 || f == 5)) {
				mg += dmCentreMG
				eg += dmCentreEG
			}
			w[b] = blendPhase(mg, eg, n, dmPhaseLo, dmPhaseHi)
		}
		dmPed[n][0] = planes(w[:], "Damone Pedina")
		dmPed[n][1] = rotPlanes(dmPed[n][0])
		dmTradeK[n] = tradeFactor(dmTrade, n)
	}
	var w [36]int
	for b := 0; b < 36; b++ {
		if !sqValid(b) {
			continue
		}
		if d := max(sqFile(b), sqRow(b)); d < len(dmToDamone) {
			w[b] = dmToDamone[d]
		}
	}
	dmDama[0] = planes(w[:], "Damone Dama")
	dmDama[1] = rotPlanes(dmDama[0])
}

// damoneWhite is the Damone evaluation from White's point of view; loss
// is the "all Damoni captured" rule.
func damoneWhite(p *movegen.Position, loss bool) int {
	w, b, k, sp := p.Pieces[movegen.White], p.Pieces[movegen.Black], p.Kings, p.Super
	k &= w | b
	sp &= k
	if loss {
		ws, bs := w&sp != 0, b&sp != 0
		switch {
		case !ws && !bs: // the side to move has lost (movegen's Lost)
			if p.Side == movegen.White {
				return -DamoneLost
			}
			return DamoneLost
		case !ws:
			return -DamoneLost
		case !bs:
			return DamoneLost
		}
	}
	wp, bp := w&^k, b&^k
	wd, bd := w&k&^sp, b&k&^sp
	ws, bs := w&sp, b&sp
	nwp, nbp := bits.OnesCount64(wp), bits.OnesCount64(bp)
	nwd, nbd := bits.OnesCount64(wd), bits.OnesCount64(bd)
	nws, nbs := bits.OnesCount64(ws), bits.OnesCount64(bs)
	n := min(nwp+nbp+nwd+nbd+nws+nbs, 24)

	mat := (nwp-nbp)*Man + (nwd-nbd)*DamaValue + (nws-nbs)*DamoneValue
	s := mat + mat*dmTradeK[n]/1024 // signed /1024 truncates: symmetric

	empty := movegen.Board8 &^ (w | b)
	wt, bt := p.Side == movegen.White, p.Side == movegen.Black
	s += damoneSide(wp, wd, ws, bd, bs, empty, &dmPed[n][0], &dmDama[0], wt, loss) -
		damoneSide(bp, bd, bs, wd, ws, empty, &dmPed[n][1], &dmDama[1], bt, loss)
	return s
}

// dmHit returns the pieces among targets that a piece of attackers could
// take now by a short jump: attacker diagonally next to the target, the
// square beyond it empty.
func dmHit(targets, attackers, empty uint64) uint64 {
	return (attackers>>4)&targets&(empty<<4) |
		(attackers>>5)&targets&(empty<<5) |
		(attackers<<4)&targets&(empty>>4) |
		(attackers<<5)&targets&(empty>>5)
}

// damoneSide scores one side, whose Pedine, Dame and Damoni are p, d, s,
// against the enemy Dame od and Damoni os, on a board with empty squares
// empty: the Pedine's way to promotion (table ped), the Dame's way to the
// Damone square (table dama, safe Dame only), the centrality and mobility
// of its Dame and Damoni, and under the all-Damoni rule (loss) the danger
// to a lone Damone (toMove: this side is to move).
func damoneSide(p, d, s, od, os, empty uint64, ped, dama *[manPlanes]uint64, toMove, loss bool) int {
	v := 0
	if p != 0 {
		v += sum(ped, p)
	}
	if k := d | s; k != 0 {
		v += dmKingCentre * (bits.OnesCount64(k&itCentW[0]) +
			bits.OnesCount64(k&itCentW[1])<<1 +
			bits.OnesCount64(k&itCentW[2])<<2)
		v += dmKingMob * (bits.OnesCount64(k>>4&empty) + bits.OnesCount64(k>>5&empty) +
			bits.OnesCount64(k<<4&empty) + bits.OnesCount64(k<<5&empty))
	}
	if d != 0 {
		safe := d
		if od|os != 0 {
			safe &^= dmHit(d, od|os, empty)
		}
		v += sum(dama, safe)
	}
	if loss && os != 0 && s&(s-1) == 0 && s != 0 {
		v -= dmLone
		if dmHit(s, os, empty) != 0 {
			if toMove {
				v -= dmLoneThreat
			} else {
				v -= dmLoneHit
			}
		}
	}
	return v
}
