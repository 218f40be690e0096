// Package fdtable models a process's file descriptors as far as hangs are
// concerned: which of 0-9 (and the one slot for `{var}>` descriptors)
// point at the caller's output, a file, a pipe the shell reads, or
// nothing, through redirections applied left to right. The walk keeps one
// Table per process it models; the dialect table says how a shell's
// redirections differ. It knows nothing of jobs or shells.
package fdtable
