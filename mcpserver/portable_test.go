//go:build linux && portable

package mcpserver

// portableBuild: the tests run against exec's portable mechanisms (the
// macOS approach on Linux: no subreaper, no pidfd, no holder scan), and
// the programs the end-to-end tests build are built the same way.
const portableBuild = true
