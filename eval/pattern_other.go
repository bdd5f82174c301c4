//go:build !amd64

package eval

func patSums(wm, bm uint64, masks *uint64, n int, tern *uint16, f *int32) int64 {
	panic("patSums: no kernel")
}

func patSumsWide(wm, bm uint64, masks *uint64, n int, tern *uint32, f *int32, stride int) int64 {
	panic("patSumsWide: no kernel")
}

// patKernel is off: no kernel on this architecture.
var patKernel = false
