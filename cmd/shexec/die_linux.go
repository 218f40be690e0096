//go:build linux

package main

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dieOfSignal ends shexec by sig, so that its caller sees what the shell's
// caller would have seen: Python's returncode -15, Node's e.signal, make's
// "Interrupt". The disposition is set to the default with rt_sigaction
// directly, not through os/signal: the Go runtime's own default for
// SIGQUIT, SIGABRT and the fault signals is a stack dump and exit 2. A
// core dump is turned off first (RLIMIT_CORE 0): the shell's core, if any,
// was the shell's to write, and shexec's would be of no use to anyone; so
// a death by SIGQUIT, SIGSEGV or SIGABRT is seen without the "core dumped"
// bit. Should the signal not end the process (a signal whose default is to
// be ignored), shexec exits 128+N, as before.
func dieOfSignal(sig syscall.Signal) {
	unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// A zeroed struct sigaction is SIG_DFL with no flags on every Linux
	// architecture; the size leaves room for the largest layout.
	var act [8]uint64
	const sigsetBytes = 8 // the kernel's sigset_t (64 signals)
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, sigsetBytes, 0, 0)
	runtime.LockOSThread()
	var set unix.Sigset_t
	set.Val[0] = 1 << (uint(sig) - 1)
	unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	os.Exit(128 + int(sig))
}
