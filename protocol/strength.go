package protocol

import (
	"fmt"
	"strings"

	"github.com/damaengine/damaengine/search"
)

// Strength is one of the Hub "level" parameter's strength levels, exported
// so that other front ends (the web page of package serve) play at the same
// strengths as a Hub client.
type Strength struct{ s strength }

// StrengthNames returns the names of the strength levels, weakest first;
// the last, "max", is full strength.
func StrengthNames() []string { return append([]string(nil), levelNames...) }

// LookupStrength returns the level called name, or an error naming the
// known levels.
func LookupStrength(name string) (Strength, error) {
	for _, l := range levels {
		if l.name == name {
			return Strength{l}, nil
		}
	}
	return Strength{}, fmt.Errorf("unknown level %q (known: %s)", name, strings.Join(levelNames, " "))
}

// Name returns the level's name.
func (s Strength) Name() string { return s.s.name }

// Limit caps lim by the level's nodes and time per move.
func (s Strength) Limit(lim search.Limits) search.Limits { return s.s.limit(lim) }

// Eval returns the evaluation a search at this level uses: the engine's own
// at the upper levels, with noise drawn from seed at the lower ones.
func (s Strength) Eval(seed uint64) search.EvalFunc { return s.s.evalFunc(seed) }
