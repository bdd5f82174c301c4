package egdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/damaengine/damaengine/movegen"
)

// LockStale is the age after which a build lock that was not refreshed is
// taken to belong to a process that died.
const LockStale = 2 * time.Minute

// Lock takes the build lock of v's tables in dir, a file created only if
// it does not exist, so that of several processes finding the tables
// missing one builds them and the others wait. It returns false (and no
// error) when another process holds it. The holder refreshes it every
// LockStale/4 until unlock is called; a lock left older than LockStale is
// removed and taken. The lock only saves work: files are always written
// under a temporary name and renamed, so two builders never corrupt them.
func Lock(dir string, v *movegen.Variant) (unlock func(), ok bool, err error) {
	f := filepath.Join(dir, v.Name, "build.lock")
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return nil, false, fmt.Errorf("egdb: %w", err)
	}
	for try := 0; try < 2; try++ {
		h, err := os.OpenFile(f, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(h, strconv.Itoa(os.Getpid()))
			h.Close()
			stop := make(chan struct{})
			go func() {
				t := time.NewTicker(LockStale / 4)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case now := <-t.C:
						os.Chtimes(f, now, now)
					}
				}
			}()
			return func() { close(stop); os.Remove(f) }, true, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, false, fmt.Errorf("egdb: %w", err)
		}
		fi, err := os.Stat(f)
		if err != nil || time.Since(fi.ModTime()) < LockStale {
			return nil, false, nil
		}
		os.Remove(f) // stale: its builder is gone
	}
	return nil, false, nil
}
