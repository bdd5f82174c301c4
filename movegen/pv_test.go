package movegen

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

func TestVariantsQuick(t *testing.T) {
	b, _ := os.ReadFile("testdata/perft-start.json")
	var m map[string]json.RawMessage
	json.Unmarshal(b, &m)
	for _, v := range []*Variant{Italian, English, Russian, Brazilian, Spanish, International} {
		var want []uint64
		json.Unmarshal(m[v.Name], &want)
		pf := NewPerfter(v)
		p := v.Start()
		d := 11
		if v == International {
			d = 9
		}
		st := time.Now()
		got := pf.Perft(&p, d)
		el := time.Since(st)
		t.Logf("%s perft(%d)=%d want %d  %.1fM/s", v.Name, d, got, want[d-1], float64(got)/el.Seconds()/1e6)
	}
}
