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

// TestRulesNames: every rule set has its own RulesName, and LookupRules
// finds each by it; Lookup does not know the all-Damoni name (the Hub's
// variant parameter takes variant names only).
func TestRulesNames(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range RuleSets() {
		n := v.RulesName()
		if seen[n] {
			t.Errorf("%s: rules name %q shared", v.Name, n)
		}
		seen[n] = true
		if got, err := LookupRules(n); err != nil || got != v {
			t.Errorf("LookupRules(%q) = %v, %v", n, got, err)
		}
	}
	if DamoneAllDamoni.RulesName() != "damone-all-damoni" || Damone.RulesName() != "damone" {
		t.Errorf("Damone rules names %q, %q", Damone.RulesName(), DamoneAllDamoni.RulesName())
	}
	if _, err := Lookup("damone-all-damoni"); err == nil {
		t.Error("Lookup knows the all-Damoni rules name")
	}
	if _, err := LookupRules("damone-all"); err == nil {
		t.Error("LookupRules accepted a wrong name")
	}
}
