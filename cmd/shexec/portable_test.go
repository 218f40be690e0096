//go:build linux && portable

package main

// portableBuild: the tests run against exec's portable mechanisms (the
// macOS approach on Linux): no subreaper, no pidfd, no holder scan.
const portableBuild = true
