package bench

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/damaengine/damaengine/movegen"
)

//go:embed openings/*.json
var openingFiles embed.FS

// openingSet is the JSON form of an opening set: "all" maps a name to a PDN
// FEN, "standard" lists the names meant for play.
type openingSet struct {
	All      map[string]string `json:"all"`
	Standard []string          `json:"standard"`
}

// Opening is a named start position.
type Opening struct {
	Name string
	Pos  movegen.Position
}

// files names the embedded opening set of each variant.
var files = map[string]string{
	"italian": "openings/italian-11piece.json",
}

// Openings returns the standard openings of variant v in a fixed order.
func Openings(v *movegen.Variant) ([]Opening, error) {
	name, ok := files[v.Name]
	if !ok {
		return nil, fmt.Errorf("no opening set for %s", v.Name)
	}
	b, err := openingFiles.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var set openingSet
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	names := set.Standard
	if len(names) == 0 {
		for n := range set.All {
			names = append(names, n)
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, errA := strconv.Atoi(names[i])
		b, errB := strconv.Atoi(names[j])
		if errA == nil && errB == nil {
			return a < b
		}
		return names[i] < names[j]
	})
	out := make([]Opening, 0, len(names))
	for _, n := range names {
		fen, ok := set.All[n]
		if !ok {
			return nil, fmt.Errorf("%s: standard opening %q not in the set", name, n)
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("%s: opening %q: %v", name, n, err)
		}
		out = append(out, Opening{Name: n, Pos: p})
	}
	return out, nil
}
