//go:build (linux || darwin || freebsd) && shexec_nowatchdog

package main

// A probe build for bench/shexec.sh only: shexec without the kill -9
// watchdog, whose cost at start is then the difference to a normal build.
func init() { watchdog = false }
