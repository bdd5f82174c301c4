package eval

import (
	"bytes"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// The weights file of a learned evaluation, little-endian. Version 1 holds
// the linear correction's weights:
//
//	magic    "DAMW"
//	version  uint16 (1)
//	variant  uint8 length, then the variant's name
//	layout   uint16 playable squares, uint16 pattern regions, uint32 features
//	weights  2 × features int16: mg and eg of feature 0, of feature 1, …
//	checksum uint32 CRC-32 (IEEE) of every byte before it
//
// Weights are in units of 1/WeightScale centi-man. A file is about 4 bytes
// per feature: 7 KiB for Italian (1,774 features), 12 KiB for
// International (3,025).
//
// Version 2 holds a network (net.go) instead:
//
//	magic    "DAMW"
//	version  uint16 (2)
//	variant  uint8 length, then the variant's name
//	layout   uint16 playable squares, uint16 hidden units (H)
//	W1       kinds × squares × H int16 (kinds: NetKinds, Damone NetKindsDamone), by input then hidden unit
//	B1       H int16
//	W2       H int32
//	checksum uint32 CRC-32 (IEEE) of every byte before it
//
// About 400 bytes per hidden unit on 10x10: 13 KiB at H = 32.
//
// Version 3 is version 2 with the tempo weights (nettempo.go) after W2:
//
//	T        H int32
//
// then the checksum. Version 4 is a network of output buckets
// (netbucket.go):
//
//	magic    "DAMW"
//	version  uint16 (4)
//	variant  uint8 length, then the variant's name
//	layout   uint16 playable squares, uint16 hidden units (H), uint16 buckets (B, 2 to MaxNetBuckets), uint8 tempo (0 or 1)
//	W1       kinds × squares × H int16 (kinds: NetKinds, Damone NetKindsDamone), by input then hidden unit
//	B1       H int16
//	W2       B × H int32, bucket by bucket
//	T        B × H int32, when tempo is 1
//	checksum uint32 CRC-32 (IEEE) of every byte before it
//
// Version 5 is a network with pattern tables (pattern.go): version 4's
// layout (B may be 1) with the number of pattern windows after the tempo
// flag, and the tables after T:
//
//	layout   uint16 squares, uint16 H, uint16 B (1 to MaxNetBuckets), uint8 tempo, uint16 windows (W)
//	…        W1, B1, W2, T as in version 4
//	patterns a bitmap of W × PatConfigs × 2 bits (bit i of byte i/8: weight
//	         i is not zero), then the weights that are not zero, int16 each
//	checksum uint32 CRC-32 (IEEE) of every byte before it
//
// Most configurations of a window never occur in play, so their weights
// stay zero: Italian's tables (25 windows, 328,050 weights) take about
// 300 KB so.
//
// Version 6 is version 5 with the windows' shape (PatShape: 0 for 4 x 4,
// 1 for 4 x 6, 2 for 4 x 6 in the centre band) as a uint8 after their
// number; version 5 is 4 x 4.
//
// Version 7 carries several sets of tables (PatSet), each of its own
// shape: after the tempo flag, their number S (uint8, 2 to MaxPatSets)
// and each one's windows and shape; after T, each set's bitmap and
// weights in the same order:
//
//	layout   uint16 squares, uint16 H, uint16 B, uint8 tempo, uint8 S, S × (uint16 windows, uint8 shape)
//	…        W1, B1, W2, T as in version 4
//	patterns S × (bitmap, weights), each as in version 5
//
// Version 8 is version 7 with flags in place of the tempo flag (bit 0:
// tempo weights; bit 1: threat inputs, netthreat.go, whose NetThreatKinds
// blocks W1 holds after the pieces') and S from 0 to MaxPatSets. It is
// written for a network with threat inputs only, so the files of the
// versions before stay as they were.

// weightsMagic opens every weights file.
const weightsMagic = "DAMW"

// WeightsVersion is the version of the weights file format of the linear
// correction; NetVersion a network's.
const (
	WeightsVersion  = 1
	NetVersion      = 2
	TempoVersion    = 3
	BucketVersion   = 4
	PatternVersion  = 5
	PatShapeVersion = 6
	PatSetsVersion  = 7
	ThreatVersion   = 8
)

// maxWeightsFile bounds what a weights file may hold (24 MiB, above any
// layout's size: International's 4 x 6 pattern tables with every weight
// set would take 18 MB, its 4 x 4 ones 2.6 MB), so a wrong file is
// refused before it is read whole.
const maxWeightsFile = 24 << 20

//go:embed weights
var embedded embed.FS

// loadEmbedded returns l's embedded weights, eval/weights/VARIANT.dw,
// laid out, or nil when it has none. A broken embedded file is a build
// error the tests catch (TestEmbeddedWeights); here it is skipped.
func loadEmbedded(l *layout) *weightTables {
	b, err := embedded.ReadFile("weights/" + WeightsName(l.v) + ".dw")
	if err != nil {
		return nil
	}
	t, err := readTables(l, bytes.NewReader(b))
	if err != nil {
		return nil
	}
	return t
}

// EmbeddedWeights reports whether v has embedded learned weights (its
// default evaluation is the learned one) and, if it has, an error when
// they do not load.
func EmbeddedWeights(v *movegen.Variant) (bool, error) {
	l := layoutOf(v)
	if l == nil {
		return false, nil
	}
	b, err := embedded.ReadFile("weights/" + WeightsName(v) + ".dw")
	if err != nil {
		return false, nil
	}
	_, err = readTables(l, bytes.NewReader(b))
	return true, err
}

// readTables reads a weights file of either version for layout l and lays
// it out for the evaluation.
func readTables(l *layout, r io.Reader) (*weightTables, error) {
	raw, nw, err := parseWeights(l, r)
	if err != nil {
		return nil, err
	}
	if nw != nil {
		n, err := newNet(l, *nw)
		if err != nil {
			return nil, err
		}
		return &weightTables{net: n}, nil
	}
	return l.tables(raw), nil
}

// LoadWeights reads a weights file for v from r and puts it in use for v.
// On any error (no learned layout for v, not a weights file, another
// variant's file, a truncated or corrupted file) the weights in use stay
// as they were, and the error says what was wrong. It is safe to call
// while searches run: each evaluation sees either the old or the new
// weights.
func LoadWeights(v *movegen.Variant, r io.Reader) error {
	l := layoutOf(v)
	if l == nil {
		return fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	t, err := readTables(l, r)
	if err != nil {
		return err
	}
	l.use(t)
	return nil
}

// LoadWeightsFile reads a weights file from r and puts it in use for the
// variant it names, which it returns. Errors are those of LoadWeights; on
// an error every variant keeps the weights it had.
func LoadWeightsFile(r io.Reader) (*movegen.Variant, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxWeightsFile+1))
	if err != nil {
		return nil, fmt.Errorf("eval weights: %v", err)
	}
	if len(b) >= 7 && string(b[:4]) == weightsMagic && len(b) >= 7+int(b[6]) {
		name := string(b[7 : 7+int(b[6])])
		for _, v := range learnedVariants {
			if WeightsName(v) == name {
				if err := LoadWeights(v, bytes.NewReader(b)); err != nil {
					return nil, err
				}
				return v, nil
			}
		}
		if v, err := movegen.Lookup(name); err == nil && v.Name == name {
			return nil, fmt.Errorf("eval weights: %v has no learned evaluation", v)
		}
		return nil, fmt.Errorf("eval weights: the file is for %q, which is not a variant", name)
	}
	// Not a weights file (or a truncated one): let the parser say which.
	_, _, err = parseWeights(layoutOf(movegen.Italian), bytes.NewReader(b))
	return nil, err
}

// ReadWeights reads and checks a weights file of the linear correction
// for v from r and returns its values (mg and eg interleaved by feature, in
// units of 1/WeightScale centi-man) without putting them in use. Its
// errors are LoadWeights', and a network file is refused.
func ReadWeights(v *movegen.Variant, r io.Reader) ([]int16, error) {
	l := layoutOf(v)
	if l == nil {
		return nil, fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	raw, nw, err := parseWeights(l, r)
	if err == nil && nw != nil {
		return nil, errors.New("eval weights: a network file, not linear weights")
	}
	return raw, err
}

// ReadNet reads and checks a network weights file for v from r and returns
// its weights without putting them in use (a fit starting from them: tune
// fit --init). Its errors are LoadWeights', and a file of the linear
// correction is refused.
func ReadNet(v *movegen.Variant, r io.Reader) (*NetWeights, error) {
	l := layoutOf(v)
	if l == nil {
		return nil, fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	_, nw, err := parseWeights(l, r)
	if err != nil {
		return nil, err
	}
	if nw == nil {
		return nil, errors.New("eval weights: linear weights, not a network")
	}
	if _, err := newNet(l, *nw); err != nil {
		return nil, err
	}
	return nw, nil
}

// WriteNet writes the network nw as v's weights file to w (version 2; 3
// with tempo weights; 4 with output buckets; 5 to 7 with pattern tables),
// after checking that it loads.
func WriteNet(w io.Writer, v *movegen.Variant, nw NetWeights) error {
	l := layoutOf(v)
	if l == nil {
		return fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	if _, err := newNet(l, nw); err != nil {
		return err
	}
	ver := uint16(NetVersion)
	if nw.T != nil {
		ver = TempoVersion
	}
	if nw.buckets() > 1 {
		ver = BucketVersion
	}
	switch {
	case nw.Threats:
		ver = ThreatVersion
	case len(nw.Pats) > 1:
		ver = PatSetsVersion
	case len(nw.Pats) == 1 && nw.Pats[0].Shape != PatSquare:
		ver = PatShapeVersion
	case len(nw.Pats) == 1:
		ver = PatternVersion
	}
	buf := weightsHeader(ver, v)
	le := binary.LittleEndian
	buf.Write(le.AppendUint16(nil, uint16(l.nsq)))
	buf.Write(le.AppendUint16(nil, uint16(nw.Hidden)))
	if ver >= BucketVersion {
		buf.Write(le.AppendUint16(nil, uint16(nw.buckets())))
		flags := byte(0)
		if nw.T != nil {
			flags = 1
		}
		if nw.Threats {
			flags |= 2
		}
		buf.WriteByte(flags)
	}
	if ver >= PatSetsVersion {
		buf.WriteByte(byte(len(nw.Pats)))
	}
	for _, ps := range nw.Pats {
		buf.Write(le.AppendUint16(nil, uint16(len(ps.W)/(2*ps.Shape.Configs()))))
		if ver >= PatShapeVersion {
			buf.WriteByte(byte(ps.Shape))
		}
	}
	for _, x := range nw.W1 {
		buf.Write(le.AppendUint16(nil, uint16(x)))
	}
	for _, x := range nw.B1 {
		buf.Write(le.AppendUint16(nil, uint16(x)))
	}
	for _, x := range nw.W2 {
		buf.Write(le.AppendUint32(nil, uint32(x)))
	}
	for _, x := range nw.T {
		buf.Write(le.AppendUint32(nil, uint32(x)))
	}
	for _, ps := range nw.Pats {
		mask := make([]byte, (len(ps.W)+7)/8)
		for i, x := range ps.W {
			if x != 0 {
				mask[i/8] |= 1 << (i % 8)
			}
		}
		buf.Write(mask)
		for _, x := range ps.W {
			if x != 0 {
				buf.Write(le.AppendUint16(nil, uint16(x)))
			}
		}
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	_, err := w.Write(buf.Bytes())
	return err
}

// SetWeights puts in use for v the weights raw (mg and eg interleaved by
// feature, 2 × FeatureCount(v) values in units of 1/WeightScale centi-man).
func SetWeights(v *movegen.Variant, raw []int16) error {
	l := layoutOf(v)
	if l == nil {
		return fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	if len(raw) != 2*l.nFeat {
		return fmt.Errorf("eval weights: %d values for %v, want %d", len(raw), v, 2*l.nFeat)
	}
	l.use(l.tables(append([]int16(nil), raw...)))
	return nil
}

// ResetWeights puts v's default evaluation back in use: its embedded
// weights, or the hand-written evaluation alone when it has none.
func ResetWeights(v *movegen.Variant) {
	if l := layoutOf(v); l != nil {
		l.useDefaults()
	}
}

// HandWrittenOnly makes v use its hand-written evaluation alone until
// LoadWeights, SetWeights or ResetWeights.
func HandWrittenOnly(v *movegen.Variant) {
	if l := layoutOf(v); l != nil {
		l.use(nil)
	}
}

// WriteWeights writes raw (mg and eg interleaved by feature) as v's
// weights file to w.
func WriteWeights(w io.Writer, v *movegen.Variant, raw []int16) error {
	l := layoutOf(v)
	if l == nil {
		return fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	if len(raw) != 2*l.nFeat {
		return fmt.Errorf("eval weights: %d values for %v, want %d", len(raw), v, 2*l.nFeat)
	}
	buf := weightsHeader(WeightsVersion, v)
	le := binary.LittleEndian
	buf.Write(le.AppendUint16(nil, uint16(l.nsq)))
	buf.Write(le.AppendUint16(nil, uint16(len(l.winW))))
	buf.Write(le.AppendUint32(nil, uint32(l.nFeat)))
	for _, x := range raw {
		buf.Write(le.AppendUint16(nil, uint16(x)))
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	_, err := w.Write(buf.Bytes())
	return err
}

// weightsHeader starts a weights file of format version ver for v: the
// magic, the version and the variant's name.
func weightsHeader(ver uint16, v *movegen.Variant) *bytes.Buffer {
	var buf bytes.Buffer
	buf.WriteString(weightsMagic)
	buf.Write(binary.LittleEndian.AppendUint16(nil, ver))
	name := WeightsName(v)
	buf.WriteByte(byte(len(name)))
	buf.WriteString(name)
	return &buf
}

// WeightsName is the name of v's weights, its rule set's name
// (Variant.RulesName: "damone-all-damoni" for Damone with the all-Damoni
// rule). It names the embedded file (eval/weights/NAME.dw) and is written
// in every weights file.
func WeightsName(v *movegen.Variant) string { return v.RulesName() }

// errTruncated is the error of a file that ends early.
var errTruncated = errors.New("eval weights: truncated file")

// parseWeights reads and checks a weights file for layout l: the linear
// correction's values (version 1) or a network's weights (version 2).
func parseWeights(l *layout, r io.Reader) ([]int16, *NetWeights, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxWeightsFile+1))
	if err != nil {
		return nil, nil, fmt.Errorf("eval weights: %v", err)
	}
	if len(b) == 0 {
		return nil, nil, errors.New("eval weights: empty file")
	}
	if len(b) > maxWeightsFile {
		return nil, nil, fmt.Errorf("eval weights: file larger than %d bytes: not a weights file", maxWeightsFile)
	}
	if len(b) < len(weightsMagic) || string(b[:4]) != weightsMagic {
		if len(b) < len(weightsMagic) && strings.HasPrefix(weightsMagic, string(b)) {
			return nil, nil, errTruncated
		}
		return nil, nil, errors.New("eval weights: not a weights file (no DAMW header)")
	}
	le := binary.LittleEndian
	pos := 4
	need := func(n int) bool { return len(b)-pos >= n }
	if !need(3) {
		return nil, nil, errTruncated
	}
	ver := le.Uint16(b[pos:])
	if ver < WeightsVersion || ver > ThreatVersion {
		return nil, nil, fmt.Errorf("eval weights: format version %d, this build reads %d to %d", ver, WeightsVersion, ThreatVersion)
	}
	nl := int(b[pos+2])
	pos += 3
	if !need(nl) {
		return nil, nil, errTruncated
	}
	name := string(b[pos : pos+nl])
	pos += nl
	if want := WeightsName(l.v); name != want {
		return nil, nil, fmt.Errorf("eval weights: the file is for %q, not %s", name, want)
	}
	if ver >= NetVersion {
		nw, err := parseNet(l, b, pos, ver)
		return nil, nw, err
	}
	if !need(8) {
		return nil, nil, errTruncated
	}
	nsq, nwin, nf := int(le.Uint16(b[pos:])), int(le.Uint16(b[pos+2:])), int(le.Uint32(b[pos+4:]))
	pos += 8
	if nsq != l.nsq || nwin != len(l.winW) || nf != l.nFeat {
		return nil, nil, fmt.Errorf("eval weights: layout %d squares, %d regions, %d features; %s needs %d, %d, %d",
			nsq, nwin, nf, WeightsName(l.v), l.nsq, len(l.winW), l.nFeat)
	}
	if !need(4*nf + 4) {
		return nil, nil, fmt.Errorf("eval weights: truncated file: %d bytes, want %d", len(b), pos+4*nf+4)
	}
	raw := make([]int16, 2*nf)
	for i := range raw {
		raw[i] = int16(le.Uint16(b[pos+2*i:]))
	}
	pos += 4 * nf
	if sum := le.Uint32(b[pos:]); sum != crc32.ChecksumIEEE(b[:pos]) {
		return nil, nil, errors.New("eval weights: checksum mismatch (corrupted file)")
	}
	if pos+4 != len(b) {
		return nil, nil, fmt.Errorf("eval weights: %d bytes after the checksum", len(b)-pos-4)
	}
	return raw, nil, nil
}

// parseNet reads the rest of a network file of version ver (2 to 8) b
// from pos, after its variant's name.
func parseNet(l *layout, b []byte, pos int, ver uint16) (*NetWeights, error) {
	le := binary.LittleEndian
	if len(b)-pos < 4 {
		return nil, errTruncated
	}
	nsq, h := int(le.Uint16(b[pos:])), int(le.Uint16(b[pos+2:]))
	pos += 4
	if nsq != l.nsq {
		return nil, fmt.Errorf("eval weights: a network of %d squares; %s has %d", nsq, WeightsName(l.v), l.nsq)
	}
	if err := CheckNetHidden(h); err != nil {
		return nil, fmt.Errorf("eval weights: a network of %v", err)
	}
	tempo, threats, nbk := ver == TempoVersion, false, 1
	if ver >= BucketVersion {
		if len(b)-pos < 3 {
			return nil, errTruncated
		}
		nbk = int(le.Uint16(b[pos:]))
		lo := 2
		if ver >= PatternVersion {
			lo = 1
		}
		if ver == ThreatVersion {
			if nbk < 1 || nbk > MaxNetBuckets || b[pos+2] > 3 || b[pos+2]&2 == 0 {
				return nil, fmt.Errorf("eval weights: a network of %d output buckets and flags %d; want 1 to %d and 2 or 3", nbk, b[pos+2], MaxNetBuckets)
			}
			threats = true
		} else if nbk < lo || nbk > MaxNetBuckets || b[pos+2] > 1 {
			return nil, fmt.Errorf("eval weights: a network of %d output buckets and tempo flag %d; want %d to %d and 0 or 1", nbk, b[pos+2], lo, MaxNetBuckets)
		}
		tempo = b[pos+2]&1 == 1
		pos += 3
	}
	var sets []PatSet // each set's shape, with room for its weights
	if ver >= PatternVersion {
		ns := 1
		if ver >= PatSetsVersion {
			if len(b)-pos < 1 {
				return nil, errTruncated
			}
			ns = int(b[pos])
			pos++
			lo := 2
			if ver == ThreatVersion {
				lo = 0
			}
			if ns < lo || ns > MaxPatSets {
				return nil, fmt.Errorf("eval weights: %d sets of pattern tables; a version %d file has %d to %d", ns, ver, lo, MaxPatSets)
			}
		}
		for range ns {
			if len(b)-pos < 2 {
				return nil, errTruncated
			}
			nwin := int(le.Uint16(b[pos:]))
			pos += 2
			shape := PatSquare
			if ver >= PatShapeVersion {
				if len(b)-pos < 1 {
					return nil, errTruncated
				}
				if b[pos] >= PatShapes || (ver == PatShapeVersion && b[pos] == byte(PatSquare)) {
					return nil, fmt.Errorf("eval weights: pattern shape %d; a version %d file has %s", b[pos], ver,
						map[uint16]string{PatShapeVersion: "1 (4x6) or 2 (4x6c)", PatSetsVersion: "0 (4x4), 1 (4x6) or 2 (4x6c)", ThreatVersion: "0 (4x4), 1 (4x6) or 2 (4x6c)"}[ver])
				}
				shape = PatShape(b[pos])
				pos++
			}
			if want := PatternWindows(l.v, shape); nwin != want {
				return nil, fmt.Errorf("eval weights: %d pattern windows of shape %v; %s has %d", nwin, shape, WeightsName(l.v), want)
			}
			for _, o := range sets {
				if o.Shape == shape {
					return nil, fmt.Errorf("eval weights: two sets of %v pattern tables", shape)
				}
			}
			sets = append(sets, PatSet{Shape: shape, W: make([]int16, nwin*shape.Configs()*2)})
		}
	}
	kinds := l.netKinds()
	if threats {
		kinds += NetThreatKinds
	}
	n1 := kinds * nsq * h
	nt := 0
	if tempo {
		nt = nbk * h
	}
	if want := pos + 2*n1 + 2*h + 4*nbk*h + 4*nt + 4; len(b) < want {
		return nil, fmt.Errorf("eval weights: truncated file: %d bytes, want %d", len(b), want)
	}
	nw := &NetWeights{Hidden: h, W1: make([]int16, n1), B1: make([]int16, h), W2: make([]int32, nbk*h), Threats: threats}
	if nbk > 1 {
		nw.Buckets = nbk
	}
	for i := range nw.W1 {
		nw.W1[i] = int16(le.Uint16(b[pos+2*i:]))
	}
	pos += 2 * n1
	for i := range nw.B1 {
		nw.B1[i] = int16(le.Uint16(b[pos+2*i:]))
	}
	pos += 2 * h
	for i := range nw.W2 {
		nw.W2[i] = int32(le.Uint32(b[pos+4*i:]))
	}
	pos += 4 * len(nw.W2)
	if tempo {
		nw.T = make([]int32, nt)
		for i := range nw.T {
			nw.T[i] = int32(le.Uint32(b[pos+4*i:]))
		}
		pos += 4 * nt
	}
	for _, ps := range sets {
		n := len(ps.W)
		nm := (n + 7) / 8
		if len(b)-pos < nm+4 {
			return nil, errTruncated
		}
		mask := b[pos : pos+nm]
		pos += nm
		set := 0
		for _, x := range mask {
			set += bits.OnesCount8(x)
		}
		if len(b)-pos < 2*set+4 {
			return nil, fmt.Errorf("eval weights: truncated file: %d bytes, want %d", len(b), pos+2*set+4)
		}
		for k, m := range mask {
			for ; m != 0; m &= m - 1 {
				if i := 8*k + bits.TrailingZeros8(m); i < n {
					ps.W[i] = int16(le.Uint16(b[pos:]))
					pos += 2
				}
			}
		}
	}
	nw.Pats = sets
	if len(b)-pos < 4 {
		return nil, errTruncated
	}
	if sum := le.Uint32(b[pos:]); sum != crc32.ChecksumIEEE(b[:pos]) {
		return nil, errors.New("eval weights: checksum mismatch (corrupted file)")
	}
	if pos+4 != len(b) {
		return nil, fmt.Errorf("eval weights: %d bytes after the checksum", len(b)-pos-4)
	}
	return nw, nil
}
