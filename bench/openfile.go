package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/damaengine/damaengine/movegen"
)

// LoadOpenings reads an opening file for variant v: either the JSON form
// of the embedded sets, or text with one opening per line — a PDN FEN, or
// moves from the start separated by spaces. Blank lines and lines starting
// with # are skipped.
func LoadOpenings(v *movegen.Variant, path string) ([]Opening, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(string(b)); strings.HasPrefix(t, "{") {
		var set openingSet
		if err := json.Unmarshal(b, &set); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if len(set.Standard) == 0 {
			return nil, fmt.Errorf("%s: no standard openings", path)
		}
		return set.positions(v, path, set.Standard)
	}
	var out []Opening
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.Contains(line, ":") && !strings.ContainsAny(line, " ") {
			p, err := v.ParseFEN(line)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
			out = append(out, Opening{Name: line, Pos: p})
			continue
		}
		p := v.Start()
		for _, tok := range strings.Fields(line) {
			m, err := v.ParseMove(&p, tok)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
			}
			p.Play(m)
		}
		out = append(out, Opening{Name: line, Pos: p})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no openings", path)
	}
	return out, nil
}
