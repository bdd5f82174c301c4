package tune

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/damaengine/damaengine/movegen"
)

// TestStats writes a positions file of three known International records
// and checks what Stats counts: the pieces, the kings, and the one
// position where the side not to move has a capture pending.
func TestStats(t *testing.T) {
	v := movegen.International
	fens := []string{
		"W:W31,32:B19",       // 3 pieces; Black's 19 does not touch 31 or 32
		"W:W28:B17,22,K5",    // 4 pieces, a king; 17 guards 22, and Black to move would take 28 with 22
		"B:W31,32,33,34:B19", // 5 pieces, Black to move; White's men do not touch 19
	}
	c := NewCodec(v)
	h := &PosHeader{Variant: v, Record: c.Size(), Kind: "merged"}
	h.set("positions", "3")
	b := []byte(h.line())
	rec := make([]byte, c.Size())
	for _, f := range fens {
		p, err := v.ParseFEN(f)
		if err != nil {
			t.Fatal(err)
		}
		if v.HasCapture(&p) {
			t.Fatalf("%s: a capture for the side to move; a record is quiet", f)
		}
		if err := c.Encode(rec, &Record{Pos: p}); err != nil {
			t.Fatal(err)
		}
		b = append(b, rec...)
	}
	path := filepath.Join(t.TempDir(), "s.pos")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Stats(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 3 || st.Header.Variant != v {
		t.Fatalf("%d records of %v, want 3 of International", st.Records, st.Header.Variant)
	}
	want := map[int]PieceStats{3: {Records: 1}, 4: {Records: 1, WithKings: 1, Threatened: 1}, 5: {Records: 1}}
	for n, got := range st.ByPieces {
		if got != want[n] {
			t.Errorf("%d pieces: %+v, want %+v", n, got, want[n])
		}
	}
	if _, err := Stats(filepath.Join(t.TempDir(), "none.pos")); err == nil {
		t.Error("a missing file gave no error")
	}
}
