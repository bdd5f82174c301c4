package movegen

import "testing"

// TestVariantIDs: every variant value has its own ID in 1..NumIDs-1.
func TestVariantIDs(t *testing.T) {
	seen := map[int]*Variant{}
	for _, v := range append(Variants(), DamoneAllDamoni) {
		id := v.ID()
		if id < 1 || id >= NumIDs || seen[id] != nil {
			t.Errorf("%s: ID %d out of range or shared with %v", v.Name, id, seen[id])
		}
		seen[id] = v
	}
	if (&Variant{}).ID() != 0 {
		t.Errorf("a Variant not made by movegen has an ID")
	}
}
