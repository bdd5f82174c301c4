package eval

import "github.com/damaengine/damaengine/movegen"

// GenericEvaluate is the generic evaluation seen from the side to move: the
// baseline the external match test (match_test.go) plays the variants'
// own evaluations against.
func GenericEvaluate(v *movegen.Variant, p *movegen.Position) int {
	s := genericWhite(v, p)
	if p.Side == movegen.Black {
		return -s
	}
	return s
}
