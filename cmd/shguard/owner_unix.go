//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives the rewritten file the original's owner and group, best
// effort: only root may give files away.
func keepOwner(f *os.File, st fs.FileInfo) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(sys.Uid), int(sys.Gid))
	}
}
