package eval

import (
	"bytes"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// The weights file of a learned evaluation (version 1), little-endian:
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

// weightsMagic opens every weights file.
const weightsMagic = "DAMW"

// WeightsVersion is the version of the weights file format.
const WeightsVersion = 1

// maxWeightsFile bounds what a weights file may hold (1 MiB, far above any
// layout's size), so a wrong file is refused before it is read whole.
const maxWeightsFile = 1 << 20

//go:embed weights
var embedded embed.FS

// loadEmbedded puts in use the embedded weights, eval/weights/VARIANT.dw,
// of each variant that has them. A broken embedded file is a build error
// the tests catch (TestEmbeddedWeights); here it is skipped.
func loadEmbedded() {
	for _, v := range learnedVariants {
		l := layoutOf(v)
		if l == nil {
			continue
		}
		b, err := embedded.ReadFile("weights/" + WeightsName(v) + ".dw")
		if err != nil {
			continue
		}
		raw, err := parseWeights(l, bytes.NewReader(b))
		if err != nil {
			continue
		}
		l.def = l.tables(raw)
		l.cur.Store(l.def)
	}
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
	_, err = parseWeights(l, bytes.NewReader(b))
	return true, err
}

// LoadWeights reads a weights file for v from r and puts it in use for v.
// On any error (no learned layout for v, not a weights file, another
// variant's file, a truncated or corrupted file) the weights in use stay
// as they were, and the error says what was wrong. It is safe to call
// while searches run: each evaluation sees either the old or the new
// weights.
func LoadWeights(v *movegen.Variant, r io.Reader) error {
	raw, err := ReadWeights(v, r)
	if err != nil {
		return err
	}
	l := layoutOf(v)
	l.cur.Store(l.tables(raw))
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
	_, err = parseWeights(layoutOf(movegen.Italian), bytes.NewReader(b))
	return nil, err
}

// ReadWeights reads and checks a weights file for v from r and returns its
// values (mg and eg interleaved by feature, in units of 1/WeightScale
// centi-man) without putting them in use. Its errors are LoadWeights'.
func ReadWeights(v *movegen.Variant, r io.Reader) ([]int16, error) {
	l := layoutOf(v)
	if l == nil {
		return nil, fmt.Errorf("eval weights: %v has no learned evaluation", v)
	}
	return parseWeights(l, r)
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
	l.cur.Store(l.tables(append([]int16(nil), raw...)))
	return nil
}

// ResetWeights puts v's default evaluation back in use: its embedded
// weights, or the hand-written evaluation alone when it has none.
func ResetWeights(v *movegen.Variant) {
	if l := layoutOf(v); l != nil {
		l.cur.Store(l.def)
	}
}

// HandWrittenOnly makes v use its hand-written evaluation alone until
// LoadWeights, SetWeights or ResetWeights.
func HandWrittenOnly(v *movegen.Variant) {
	if l := layoutOf(v); l != nil {
		l.cur.Store(nil)
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
	var buf bytes.Buffer
	buf.WriteString(weightsMagic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint16(nil, WeightsVersion))
	name := WeightsName(v)
	buf.WriteByte(byte(len(name)))
	buf.WriteString(name)
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

// WeightsName is the name of v's weights, its rule set's name
// (Variant.RulesName: "damone-all-damoni" for Damone with the all-Damoni
// rule). It names the embedded file (eval/weights/NAME.dw) and is written
// in every weights file.
func WeightsName(v *movegen.Variant) string { return v.RulesName() }

// errTruncated is the error of a file that ends early.
var errTruncated = errors.New("eval weights: truncated file")

// parseWeights reads and checks a weights file for layout l.
func parseWeights(l *layout, r io.Reader) ([]int16, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxWeightsFile+1))
	if err != nil {
		return nil, fmt.Errorf("eval weights: %v", err)
	}
	if len(b) == 0 {
		return nil, errors.New("eval weights: empty file")
	}
	if len(b) > maxWeightsFile {
		return nil, fmt.Errorf("eval weights: file larger than %d bytes: not a weights file", maxWeightsFile)
	}
	if len(b) < len(weightsMagic) || string(b[:4]) != weightsMagic {
		if len(b) < len(weightsMagic) && strings.HasPrefix(weightsMagic, string(b)) {
			return nil, errTruncated
		}
		return nil, errors.New("eval weights: not a weights file (no DAMW header)")
	}
	le := binary.LittleEndian
	pos := 4
	need := func(n int) bool { return len(b)-pos >= n }
	if !need(3) {
		return nil, errTruncated
	}
	if ver := le.Uint16(b[pos:]); ver != WeightsVersion {
		return nil, fmt.Errorf("eval weights: format version %d, this build reads %d", ver, WeightsVersion)
	}
	nl := int(b[pos+2])
	pos += 3
	if !need(nl) {
		return nil, errTruncated
	}
	name := string(b[pos : pos+nl])
	pos += nl
	if want := WeightsName(l.v); name != want {
		return nil, fmt.Errorf("eval weights: the file is for %q, not %s", name, want)
	}
	if !need(8) {
		return nil, errTruncated
	}
	nsq, nwin, nf := int(le.Uint16(b[pos:])), int(le.Uint16(b[pos+2:])), int(le.Uint32(b[pos+4:]))
	pos += 8
	if nsq != l.nsq || nwin != len(l.winW) || nf != l.nFeat {
		return nil, fmt.Errorf("eval weights: layout %d squares, %d regions, %d features; %s needs %d, %d, %d",
			nsq, nwin, nf, WeightsName(l.v), l.nsq, len(l.winW), l.nFeat)
	}
	if !need(4*nf + 4) {
		return nil, fmt.Errorf("eval weights: truncated file: %d bytes, want %d", len(b), pos+4*nf+4)
	}
	raw := make([]int16, 2*nf)
	for i := range raw {
		raw[i] = int16(le.Uint16(b[pos+2*i:]))
	}
	pos += 4 * nf
	if sum := le.Uint32(b[pos:]); sum != crc32.ChecksumIEEE(b[:pos]) {
		return nil, errors.New("eval weights: checksum mismatch (corrupted file)")
	}
	if pos+4 != len(b) {
		return nil, fmt.Errorf("eval weights: %d bytes after the checksum", len(b)-pos-4)
	}
	return raw, nil
}
