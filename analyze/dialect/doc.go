// Package dialect is the shells — bash, zsh, dash (and sh where it is
// dash), mksh — and every difference between them that decides a hang or
// a leak: one Dialect table per shell (dialect_shells.go) whose fields
// say which compound a background subshell execs in place, what `&>`
// means, whether `$(jobs -p)` sees jobs, which saved descriptors a
// redirected compound keeps, how `>&file` fails, which signals a trap
// takes, and how each shell's parser differs from mvdan.cc/sh's (parse.go,
// ampgt.go, zsh_always.go, refuses.go). Every type the table uses is
// declared here with it.
//
// A new shell difference is a field of Dialect, documented with the
// corpus entries that show it, set in each shell's table; the walk reads
// it. This package imports only knowledge, fdtable and diag.
package dialect
