//go:build linux || darwin || freebsd

package exec

import (
	"fmt"
	"os"
	"syscall"
)

// checkOwner refuses a store directory owned by another user: under a shared
// temp dir, someone could pre-create shexec-<uid> to read or plant job records.
func checkOwner(dir string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("job store %s is owned by uid %d, not %d: refusing it (set %s)", dir, st.Uid, uid, HomeEnv)
	}
	return nil
}
