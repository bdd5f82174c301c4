package eval

// The pattern tables' kernel (pattern_amd64.s): PEXT reads each window's
// men as 8 (or 12) bits, where the processor has BMI2 (hasBMI2); the portable
// Patterns.sums elsewhere, tested to agree.

// patSums returns the sum of the packed folded entries f (Patterns.f)
// over the n windows whose squares are masks[0:n], for White's men wm and
// Black's bm: window i's configuration is c = tern[PEXT(wm, mask)] +
// 2·tern[PEXT(bm, mask)], its entry f[i·PatConfigs + c]. Five windows a
// round, unrolled, then one at a time.
//
//go:noescape
func patSums(wm, bm uint64, masks *uint64, n int, tern *uint16, f *int32) int64

// patSumsWide is patSums for windows of up to 12 squares (PatTall): tern
// of 12 bits, window i's entries from byte stride·i of f, one window at a
// time.
//
//go:noescape
func patSumsWide(wm, bm uint64, masks *uint64, n int, tern *uint32, f *int32, stride int) int64

// hasBMI2 reports whether the processor has BMI2 (CPUID leaf 7, EBX bit 8).
func hasBMI2() bool {
	if top, _, _, _ := cpuid(0, 0); top < 7 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<8) != 0
}

// patKernel says Patterns.White uses patSums: on where the processor has
// BMI2. A test may turn it off to force the portable path.
var patKernel = hasBMI2()
