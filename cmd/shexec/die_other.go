//go:build unix && !linux

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// dieOfSignal ends shexec by sig where it can without raw system calls:
// for SIGINT, SIGTERM and SIGHUP the Go runtime's default is to die of the
// signal; for the others it is not, and shexec exits 128+N after a moment.
func dieOfSignal(sig syscall.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(100 * time.Millisecond)
	os.Exit(128 + int(sig))
}
