package tune

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
)

// The streaming network fit (issue 45): the model of net.go (the
// hand-written score plus one hidden layer over the pieces by square, read
// from both sides), fitted on a positions file too large for memory.
//
// The file is read in chunks of streamChunk records, in an order shuffled
// each epoch, each chunk's rows shuffled in turn; only the chunk being
// trained on and the validation rows are in memory. The validation rows
// are the positions IsValidation picks by a hash of the position (never
// trained on), the first streamValid of them met in the file. Each
// mini-batch is cut into streamSlices fixed slices whose gradients are
// computed by as many goroutines as there are cores and added in slice
// order, so the fit gives the same bytes for the same data, flags and
// seed on any number of cores. The step size decays linearly to a tenth
// of --rate over the fit. After each epoch the state (weights, Adam's
// moments, the epoch) is written to the checkpoint, from which a stopped
// fit goes on.

const (
	streamChunk  = 1 << 16 // records a chunk
	streamSlices = 16      // slices of a mini-batch
	streamValid  = 200_000 // validation rows kept at most
)

// StreamConfig configures FitNetStream.
type StreamConfig struct {
	Hidden int  // hidden units (eval.CheckNetHidden)
	Tempo  bool // fit tempo weights too (eval/nettempo.go)
	// Threats fits a network with threat inputs (eval/netthreat.go). A
	// fit with them from a network without them (Init) starts their
	// weights at zero: the network it starts from, unchanged.
	Threats bool
	// Buckets, above 1, fits that many sets of output (and tempo) weights,
	// one for each range of the piece count (eval/netbucket.go).
	Buckets int
	K       float64 // scale of the win probability, centi-men (0: fitted to the results)
	Lambda  float64 // weight of the game result in the target; the rest the search score
	Epochs  int
	Batch   int
	Rate    float64
	Seed    uint64
	// Limit, if above 0, uses only the first Limit records of the file
	// (for fits on less data).
	Limit int64
	// Threads is the goroutines of the gradient (0: every core).
	Threads int
	// Checkpoint, if not empty, is written after each epoch and read at
	// the start.
	Checkpoint string
	// Init, if not nil, is the network a new fit starts from (NetStateOf a
	// weights file's) instead of random weights: its hidden units and
	// output buckets must be the fit's, and it has tempo weights only if
	// the fit does (a fit with Tempo from a network without them starts
	// them at zero). A checkpoint, when there is one, takes precedence.
	Init *NetState
	// Patterns, if not empty, are sets of pattern tables (eval.PatSet)
	// kept as they are and added to each row's base: the network is
	// fitted over the hand-written evaluation and the tables (tune fit
	// --patterns; a checkpoint does not record them, so a fit continued
	// from one must name the same tables).
	Patterns []eval.PatSet
	// Valid, if not empty, is a positions file of other games (another
	// shard or seed) whose first rows are the validation set; the data
	// file is then trained on whole. Without it the validation rows are
	// the data's positions a hash of the position holds out, which share
	// their games (and the results of those games) with training rows.
	Valid string
	// stopAfter, if above 0, stops the fit after that epoch (tests: a
	// fit interrupted there).
	stopAfter int
}

// StreamProgress is FitNetStream's report after each epoch (Epoch 0: the
// start, with the base's losses; also when a checkpoint is continued).
type StreamProgress struct {
	Epoch, Epochs   int
	Loss, Valid     float64
	Rows            int64 // training rows seen this epoch
	Elapsed, Remain time.Duration
	K               float64
	ValidRows       int
	// InitValid is, at Epoch 0 of a fit from StreamConfig.Init, the
	// starting network's validation loss (0 otherwise).
	InitValid float64
	// Resumed is, at Epoch 0, the epochs a checkpoint had already done
	// (0: the fit starts afresh).
	Resumed int
}

// streamRow is one decoded row: its inputs in both views, base and target.
type streamRow struct {
	a, b   []int32
	base   float32
	target float32
	side   float32 // +1 White to move, −1 Black
	bucket int     // output bucket (eval.NetBucket)
}

// streamer holds what the workers share.
type streamer struct {
	v        *movegen.Variant
	codec    *Codec
	cfg      StreamConfig
	inputs   int
	st       *NetState
	gW1, gB1 [streamSlices][]float32
	gW2, gT  [streamSlices][]float32
	loss     [streamSlices]float64
	rows     [streamSlices]int
	scratch  [streamSlices]*rowScratch
	pat      eval.PatternSets // StreamConfig.Patterns, or none
}

// rowScratch is one slice's buffers.
type rowScratch struct {
	ha, hb []float32
	row    streamRow
	rec    Record
}

// decodeRow decodes record raw into s.row; ok false for a validation row
// when training (valid false) or a training row when valid is true.
func (sm *streamer) decodeRow(raw []byte, s *rowScratch, k float64, valid bool) bool {
	if err := sm.codec.Decode(raw, &s.rec); err != nil {
		return false
	}
	p := &s.rec.Pos
	if sm.cfg.Valid == "" && IsValidation(mix64(p.Key)) != valid {
		return false
	}
	var base int
	s.row.a, s.row.b, base = eval.NetInputs(sm.v, p, s.row.a[:0], s.row.b[:0])
	if sm.cfg.Threats {
		s.row.a, s.row.b = eval.NetThreatInputs(sm.v, p, s.row.a, s.row.b)
	}
	base += sm.pat.White(p)
	s.row.base = float32(base)
	s.row.side = 1
	s.row.bucket = eval.NetBucket(sm.v, p, sm.cfg.Buckets)
	if p.Side == movegen.Black {
		s.row.side = -1
	}
	s.row.target = float32(recordTarget(&s.rec, sm.cfg.Lambda, k))
	return true
}

// forward returns the score of row r (centi-men) with the hidden sums in
// ha, hb.
func (st *NetState) forward(r *streamRow, ha, hb []float32) float64 {
	h := st.Hidden
	copy(ha, st.B1)
	copy(hb, st.B1)
	for _, i := range r.a {
		row := st.W1[int(i)*h : int(i)*h+h]
		for j := range ha {
			ha[j] += row[j]
		}
	}
	for _, i := range r.b {
		row := st.W1[int(i)*h : int(i)*h+h]
		for j := range hb {
			hb[j] += row[j]
		}
	}
	var o float32
	w2 := st.W2[r.bucket*h : r.bucket*h+h]
	for j := range ha {
		o += w2[j] * (clip01(ha[j]) - clip01(hb[j]))
	}
	if st.T != nil {
		var t float32
		tw := st.T[r.bucket*h : r.bucket*h+h]
		for j := range ha {
			t += tw[j] * (clip01(ha[j]) + clip01(hb[j]))
		}
		o += r.side * t
	}
	return float64(r.base) + netUnit*float64(o)
}

// backward adds row r's gradient, scaled by d (dLoss/dz · netUnit / batch),
// into the slice's buffers.
func (st *NetState) backward(r *streamRow, ha, hb []float32, d float32, gW1, gB1, gW2, gT []float32) {
	h := st.Hidden
	off := r.bucket * h
	w2, gw2 := st.W2[off:off+h], gW2[off:off+h]
	var tw, gt []float32
	if st.T != nil {
		tw, gt = st.T[off:off+h], gT[off:off+h]
	}
	for j := 0; j < h; j++ {
		gw2[j] += d * (clip01(ha[j]) - clip01(hb[j]))
		// dz/dA_j and dz/dB_j (in the linear zone): W2 ± side·T.
		wa, wb := w2[j], -w2[j]
		if tw != nil {
			gt[j] += d * r.side * (clip01(ha[j]) + clip01(hb[j]))
			wa += r.side * tw[j]
			wb += r.side * tw[j]
		}
		var da, db float32
		if ha[j] > 0 && ha[j] < 1 {
			da = d * wa
		}
		if hb[j] > 0 && hb[j] < 1 {
			db = d * wb
		}
		gB1[j] += da + db
		ha[j], hb[j] = da, db // reused as the first layer's deltas
	}
	for _, i := range r.a {
		row := gW1[int(i)*h : int(i)*h+h]
		for j := range row {
			row[j] += ha[j]
		}
	}
	for _, i := range r.b {
		row := gW1[int(i)*h : int(i)*h+h]
		for j := range row {
			row[j] += hb[j]
		}
	}
}

// streamState is a checkpoint: the network, Adam's moments and steps, and
// the epochs done.
type streamState struct {
	epoch, step        int
	st                 *NetState
	aW1, aB1, aW2, aT  adam
	tempo              bool
	buckets            int // output buckets, 1 for one set
	hidden, inputs     int
	seed               uint64
	k                  float64
	lambda, rate       float64
	batch, epochs      int
	limit, fileRecords int64
}

// streamMagic opens a checkpoint; streamMagicV2's (before output buckets)
// are read as one bucket.
const (
	streamMagic   = "damaengine-fit-stream v3\n"
	streamMagicV2 = "damaengine-fit-stream v2\n"
)

// vectors returns the state's vectors in the order a checkpoint holds them.
func (s *streamState) vectors() [][]float32 {
	v := [][]float32{s.st.W1, s.st.B1, s.st.W2, s.aW1.m, s.aW1.v, s.aB1.m, s.aB1.v, s.aW2.m, s.aW2.v}
	if s.tempo {
		v = append(v, s.st.T, s.aT.m, s.aT.v)
	}
	return v
}

func (s *streamState) write(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := func(x any) {
		if err == nil {
			err = binary.Write(f, binary.LittleEndian, x)
		}
	}
	if _, err = f.WriteString(streamMagic); err != nil {
		f.Close()
		return err
	}
	w(int64(s.epoch))
	w(int64(s.step))
	w(int64(s.hidden))
	w(int64(s.inputs))
	w(s.seed)
	w(s.k)
	w(s.lambda)
	w(s.rate)
	w(int64(s.batch))
	w(int64(s.epochs))
	w(s.limit)
	w(s.fileRecords)
	w(s.tempo)
	w(int64(s.buckets))
	for _, v := range s.vectors() {
		w(v)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// readStreamState reads a checkpoint made for the same fit as want (its
// settings must agree).
func readStreamState(path string, want *streamState) (*streamState, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	magic := make([]byte, len(streamMagic))
	if _, err := io.ReadFull(f, magic); err != nil || (string(magic) != streamMagic && string(magic) != streamMagicV2) {
		return nil, fmt.Errorf("tune: %s is not a streaming fit's checkpoint", path)
	}
	var hdr [12]int64
	var flt [4]float64
	rd := func(x any) {
		if err == nil {
			err = binary.Read(f, binary.LittleEndian, x)
		}
	}
	s := &streamState{}
	var seed uint64
	rd(&hdr[0])
	rd(&hdr[1])
	rd(&hdr[2])
	rd(&hdr[3])
	rd(&seed)
	rd(&flt[0])
	rd(&flt[1])
	rd(&flt[2])
	rd(&hdr[4])
	rd(&hdr[5])
	rd(&hdr[6])
	rd(&hdr[7])
	rd(&s.tempo)
	s.buckets = 1
	if string(magic) == streamMagic {
		var b int64
		rd(&b)
		s.buckets = int(b)
	}
	if err != nil {
		return nil, fmt.Errorf("tune: %s: %v", path, err)
	}
	s.epoch, s.step, s.hidden, s.inputs, s.seed = int(hdr[0]), int(hdr[1]), int(hdr[2]), int(hdr[3]), seed
	s.k, s.lambda, s.rate, s.batch, s.epochs, s.limit, s.fileRecords = flt[0], flt[1], flt[2], int(hdr[4]), int(hdr[5]), hdr[6], hdr[7]
	if s.hidden != want.hidden || s.inputs != want.inputs || s.seed != want.seed || s.lambda != want.lambda || s.rate != want.rate ||
		s.batch != want.batch || s.epochs != want.epochs || s.limit != want.limit || s.fileRecords != want.fileRecords || s.tempo != want.tempo || s.buckets != want.buckets ||
		(want.k > 0 && s.k != want.k) {
		return nil, fmt.Errorf("tune: %s was made by another fit (other data or settings): remove it or name another --checkpoint", path)
	}
	n1, n2 := s.inputs*s.hidden, s.buckets*s.hidden
	s.st = &NetState{Hidden: s.hidden, W1: make([]float32, n1), B1: make([]float32, s.hidden), W2: make([]float32, n2)}
	if s.buckets > 1 {
		s.st.Buckets = s.buckets
	}
	s.aW1, s.aB1, s.aW2 = newAdam(n1), newAdam(s.hidden), newAdam(n2)
	if s.tempo {
		s.st.T, s.aT = make([]float32, n2), newAdam(n2)
	}
	for _, v := range s.vectors() {
		rd(v)
	}
	if err != nil {
		return nil, fmt.Errorf("tune: %s: %v", path, err)
	}
	return s, nil
}

// FitNetStream fits a network of cfg.Hidden units on the positions file at
// path and returns it with the scale K used. progress, if not nil, is
// called at the start and after each epoch.
func FitNetStream(cfg StreamConfig, path string, progress func(StreamProgress)) (*NetState, float64, error) {
	if err := eval.CheckNetHidden(cfg.Hidden); err != nil {
		return nil, 0, fmt.Errorf("tune: %v", err)
	}
	if err := eval.CheckNetBuckets(cfg.Buckets); err != nil {
		return nil, 0, fmt.Errorf("tune: %v", err)
	}
	if cfg.Epochs <= 0 || cfg.Batch <= 0 || cfg.Rate <= 0 || cfg.K < 0 || cfg.Lambda < 0 || cfg.Lambda > 1 {
		return nil, 0, errors.New("tune: the fit needs epochs, batch and rate above 0, K ≥ 0 and λ in [0, 1]")
	}
	pr, err := OpenPositions(path)
	if err != nil {
		return nil, 0, err
	}
	defer pr.Close()
	v := pr.Header.Variant
	if eval.NetSquares(v) == 0 {
		return nil, 0, fmt.Errorf("tune: %s has no network layout", v.RulesName())
	}
	eval.HandWrittenOnly(v) // the base of every row is the hand-written evaluation
	n := pr.Len()
	if cfg.Limit > 0 && cfg.Limit < n {
		n = cfg.Limit
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("tune: %s holds no positions", path)
	}
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	size := int64(pr.Header.Record)
	kinds := eval.NetInputKinds(v)
	if cfg.Threats {
		kinds += eval.NetThreatKinds
	}
	sm := &streamer{v: v, codec: pr.Codec, cfg: cfg, inputs: kinds * eval.NetSquares(v)}
	if sm.pat, err = eval.NewPatternSets(v, cfg.Patterns); err != nil {
		return nil, 0, fmt.Errorf("tune: %v", err)
	}
	chunks, readChunk := pr.chunks(n)
	vchunks, vread, closeValid, err := validChunks(cfg.Valid, pr, chunks, readChunk)
	if err != nil {
		return nil, 0, err
	}
	defer closeValid()
	// The validation rows: the first streamValid met, in file order.
	buf := make([]byte, streamChunk*size)
	var valid []streamRow
	var validRes []float32
	var validScore []int
	sc := &rowScratch{}
	for c := 0; c < vchunks && len(valid) < streamValid; c++ {
		b, err := vread(c, buf)
		if err != nil {
			return nil, 0, err
		}
		for i := 0; i+int(size) <= len(b) && len(valid) < streamValid; i += int(size) {
			if sm.decodeRow(b[i:i+int(size)], sc, 0, true) {
				r := sc.row
				r.a, r.b = append([]int32(nil), r.a...), append([]int32(nil), r.b...)
				valid = append(valid, r)
				validRes = append(validRes, float32(sc.rec.Result+1)/2)
				validScore = append(validScore, sc.rec.Score)
			}
		}
	}
	bases := make([]float32, len(valid))
	for i := range valid {
		bases[i] = valid[i].base
	}
	k, err := validK(cfg.K, bases, validRes)
	if err != nil {
		return nil, 0, err
	}
	for i := range valid {
		valid[i].target = float32(mixTarget(float64(validRes[i]), validScore[i], cfg.Lambda, k))
	}
	H := cfg.Hidden
	B := max(cfg.Buckets, 1)
	ss := &streamState{hidden: H, inputs: sm.inputs, tempo: cfg.Tempo, buckets: B, seed: cfg.Seed, k: k, lambda: cfg.Lambda, rate: cfg.Rate,
		batch: cfg.Batch, epochs: cfg.Epochs, limit: cfg.Limit, fileRecords: pr.Len()}
	if cfg.Checkpoint != "" {
		if got, err := readStreamState(cfg.Checkpoint, ss); err == nil {
			ss = got
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, 0, err
		}
	}
	if ss.st == nil {
		if in := cfg.Init; in != nil {
			w1 := in.W1
			if cfg.Threats && !in.Threats { // the threat inputs' weights from zero
				w1 = append(slices.Clone(w1), make([]float32, eval.NetThreatKinds*eval.NetSquares(v)*in.Hidden)...)
			}
			switch {
			case in.Threats && !cfg.Threats:
				return nil, 0, errors.New("tune: the starting network has threat inputs: fit with them (--threats)")
			case in.Hidden != H || len(in.B1) != H:
				return nil, 0, fmt.Errorf("tune: the starting network has %d hidden units, the fit %d", in.Hidden, H)
			case len(w1) != sm.inputs*H:
				return nil, 0, fmt.Errorf("tune: the starting network has %d first-layer weights, %s's layout %d", len(w1), v.RulesName(), sm.inputs*H)
			case max(in.Buckets, 1) != B || len(in.W2) != B*H:
				return nil, 0, fmt.Errorf("tune: the starting network has %d output buckets, the fit %d", max(in.Buckets, 1), B)
			case in.T != nil && !cfg.Tempo:
				return nil, 0, errors.New("tune: the starting network has tempo weights: fit with them (--tempo)")
			case in.T != nil && len(in.T) != B*H:
				return nil, 0, fmt.Errorf("tune: the starting network has %d tempo weights, want %d", len(in.T), B*H)
			}
			ss.st = &NetState{Hidden: H, W1: slices.Clone(w1), B1: slices.Clone(in.B1), W2: slices.Clone(in.W2),
				T: slices.Clone(in.T), Buckets: in.Buckets}
		} else {
			rng := rand.New(rand.NewPCG(cfg.Seed, 0x6e6574))
			ss.st = newNetState(sm.inputs, H, rng)
			scale := float32(math.Sqrt(float64(eval.NetBlock) / float64(H)))
			for j := range ss.st.W2 {
				ss.st.W2[j] *= scale
			}
			if B > 1 { // every bucket starts from the same output weights
				w2 := ss.st.W2
				ss.st.W2, ss.st.Buckets = make([]float32, 0, B*H), B
				for range B {
					ss.st.W2 = append(ss.st.W2, w2...)
				}
			}
		}
		ss.aW1, ss.aB1, ss.aW2 = newAdam(len(ss.st.W1)), newAdam(H), newAdam(B*H)
		if cfg.Tempo {
			if ss.st.T == nil {
				ss.st.T = make([]float32, B*H) // from zero: the symmetric network
			}
			ss.aT = newAdam(B * H)
		}
	}
	ss.st.Threats = cfg.Threats // a checkpoint's inputs were checked against the fit's
	sm.st = ss.st
	for i := range sm.gW1 {
		sm.gW1[i], sm.gB1[i], sm.gW2[i], sm.gT[i] = make([]float32, len(ss.st.W1)), make([]float32, H), make([]float32, B*H), make([]float32, B*H)
		sm.scratch[i] = &rowScratch{ha: make([]float32, H), hb: make([]float32, H)}
	}
	validLoss := func() float64 {
		if len(valid) == 0 {
			return 0
		}
		ha, hb := make([]float32, H), make([]float32, H)
		var sum float64
		for i := range valid {
			sum += crossEntropy(sigmoid(ss.st.forward(&valid[i], ha, hb)/k), float64(valid[i].target))
		}
		return sum / float64(len(valid))
	}
	if progress != nil {
		var base float64
		for i := range valid {
			base += crossEntropy(sigmoid(float64(valid[i].base)/k), float64(valid[i].target))
		}
		sp := StreamProgress{Epoch: 0, Epochs: cfg.Epochs, Valid: base / float64(max(len(valid), 1)), K: k, ValidRows: len(valid), Resumed: ss.epoch}
		if cfg.Init != nil && ss.epoch == 0 {
			sp.InitValid = validLoss()
		}
		progress(sp)
	}
	totalSteps := float64(cfg.Epochs) * float64(n) / float64(cfg.Batch)
	t0 := time.Now()
	startEpoch := ss.epoch
	var wg sync.WaitGroup
	for ep := ss.epoch + 1; ep <= cfg.Epochs; ep++ {
		order := chunkOrder(cfg.Seed, ep, chunks)
		var sum float64
		var seen int64
		for _, c := range order {
			b, err := readChunk(c, buf)
			if err != nil {
				return nil, 0, err
			}
			rows := len(b) / int(size)
			perm := rowOrder(cfg.Seed, ep, c, rows)
			for lo := 0; lo < rows; lo += cfg.Batch {
				batch := perm[lo:min(lo+cfg.Batch, rows)]
				per := (len(batch) + streamSlices - 1) / streamSlices
				// Slices to goroutines: slice s goes to worker s % threads.
				for w := 0; w < threads; w++ {
					wg.Add(1)
					go func(w int) {
						defer wg.Done()
						for s := w; s < streamSlices; s += threads {
							sm.loss[s], sm.rows[s] = 0, 0
							scr := sm.scratch[s]
							for _, ri := range batch[min(s*per, len(batch)):min((s+1)*per, len(batch))] {
								if !sm.decodeRow(b[ri*int(size):(ri+1)*int(size)], scr, k, false) {
									continue
								}
								z := ss.st.forward(&scr.row, scr.ha, scr.hb)
								p := sigmoid(z / k)
								y := float64(scr.row.target)
								sm.loss[s] += crossEntropy(p, y)
								sm.rows[s]++
								d := float32((p - y) / k * netUnit / float64(len(batch)))
								ss.st.backward(&scr.row, scr.ha, scr.hb, d, sm.gW1[s], sm.gB1[s], sm.gW2[s], sm.gT[s])
							}
						}
					}(w)
				}
				wg.Wait()
				for s := 1; s < streamSlices; s++ {
					addInto(sm.gW1[0], sm.gW1[s])
					addInto(sm.gB1[0], sm.gB1[s])
					addInto(sm.gW2[0], sm.gW2[s])
					addInto(sm.gT[0], sm.gT[s])
				}
				for s := 0; s < streamSlices; s++ {
					sum += sm.loss[s]
					seen += int64(sm.rows[s])
				}
				ss.step++
				rate := cfg.Rate * (1 - 0.9*min(float64(ss.step)/totalSteps, 1))
				ss.aW1.step(ss.st.W1, sm.gW1[0], rate, ss.step)
				ss.aB1.step(ss.st.B1, sm.gB1[0], rate, ss.step)
				ss.aW2.step(ss.st.W2, sm.gW2[0], rate, ss.step)
				if cfg.Tempo {
					ss.aT.step(ss.st.T, sm.gT[0], rate, ss.step)
				}
			}
		}
		ss.epoch = ep
		if cfg.Checkpoint != "" {
			if err := ss.write(cfg.Checkpoint); err != nil {
				return nil, 0, err
			}
		}
		if progress != nil {
			el := time.Since(t0)
			progress(StreamProgress{Epoch: ep, Epochs: cfg.Epochs, Loss: sum / float64(max(seen, 1)), Valid: validLoss(), Rows: seen,
				Elapsed: el, Remain: el / time.Duration(ep-startEpoch) * time.Duration(cfg.Epochs-ep), K: k, ValidRows: len(valid)})
		}
		if ep == cfg.stopAfter {
			break
		}
	}
	return ss.st, k, nil
}

// addInto adds src to dst and clears src.
func addInto(dst, src []float32) {
	src = src[:len(dst)]
	for i, x := range src {
		if x != 0 {
			dst[i] += x
			src[i] = 0
		}
	}
}

// chunks returns the number of chunks of streamChunk records in the first
// n records of pr and a function reading chunk c into buf.
func (pr *PosReader) chunks(n int64) (int, func(c int, buf []byte) ([]byte, error)) {
	size := int64(pr.Header.Record)
	st, _ := pr.f.Seek(0, io.SeekCurrent)
	off := st - int64(pr.r.Buffered())
	return int((n + streamChunk - 1) / streamChunk), func(c int, buf []byte) ([]byte, error) {
		lo := int64(c) * streamChunk
		hi := min(lo+streamChunk, n)
		buf = buf[:(hi-lo)*size]
		_, err := pr.f.ReadAt(buf, off+lo*size)
		return buf, err
	}
}

// validChunks returns where a fit's validation rows are read from: the
// positions file path (opened here, of pr's variant; closed by the
// function returned) or, when path is empty, the data's own chunks.
func validChunks(path string, pr *PosReader, chunks int, read func(int, []byte) ([]byte, error)) (int, func(int, []byte) ([]byte, error), func(), error) {
	if path == "" {
		return chunks, read, func() {}, nil
	}
	vr, err := OpenPositions(path)
	if err != nil {
		return 0, nil, nil, err
	}
	if vr.Header.Variant != pr.Header.Variant {
		vr.Close()
		return 0, nil, nil, fmt.Errorf("tune: the validation file %s is %s, the data %s", path, vr.Header.Variant.RulesName(), pr.Header.Variant.RulesName())
	}
	vc, vread := vr.chunks(vr.Len())
	return vc, vread, func() { vr.Close() }, nil
}

// mixTarget is a row's target: λ × the game's result (0, ½ or 1 for White)
// + (1 − λ) × the win probability of the search's score for White,
// sigmoid(score/k); the result alone when λ is 1 or k is not known yet.
func mixTarget(result float64, score int, lambda, k float64) float64 {
	if lambda >= 1 || k <= 0 {
		return result
	}
	return lambda*result + (1-lambda)/(1+math.Exp(-float64(score)/k))
}

// recordTarget is mixTarget of record r.
func recordTarget(r *Record, lambda, k float64) float64 {
	return mixTarget(float64(r.Result+1)/2, r.Score, lambda, k)
}

// validK returns k, or when k is 0 the K fitted to the validation rows'
// results (0 to 1) under their base scores.
func validK(k float64, base, result []float32) (float64, error) {
	if k != 0 {
		return k, nil
	}
	s := &Set{}
	for i := range base {
		s.Add(nil, nil, 0, base[i], result[i])
	}
	if s.Rows() == 0 {
		return 0, errors.New("tune: no validation positions to fit K on")
	}
	return FitK(s, 20, 2000), nil
}

// chunkOrder is the order of the chunks in epoch ep, and rowOrder the
// order of the rows of chunk c in it: the streaming fits' shuffle, fixed
// by the seed.
func chunkOrder(seed uint64, ep, chunks int) []int {
	return rand.New(rand.NewPCG(seed, uint64(ep))).Perm(chunks)
}

func rowOrder(seed uint64, ep, c, rows int) []int {
	return rand.New(rand.NewPCG(seed^uint64(ep)<<32, uint64(c))).Perm(rows)
}
