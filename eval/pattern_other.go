//go:build !amd64

package eval

func patSums(wm, bm uint64, masks *uint64, n int, tern *uint16, f *int16) (mg, eg int32) {
	panic("patSums: no kernel")
}

// patKernel is off: no kernel on this architecture.
var patKernel = false
