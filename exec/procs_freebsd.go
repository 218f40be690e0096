//go:build freebsd

package exec

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// FreeBSD: a real reaper (procctl(PROC_REAP_ACQUIRE)): orphans of the run
// re-parent to the caller, as with Linux's child subreaper. No pidfd, no
// /proc: processes are listed with sysctl kern.proc (struct kinfo_proc,
// read at the offsets of sys/user.h for 64-bit platforms), argv from
// kern.proc.args, the environment from kern.proc.env; exits through kqueue.

const haveReaper = true

const needRunMarker = false

const (
	pPID            = 0 // idtype_t P_PID
	procReapAcquire = 2 // PROC_REAP_ACQUIRE (sys/procctl.h)
	kinfoProcSize64 = 1088
	kiPid, kiPpid   = 72, 76
	kiPgid, kiSid   = 80, 88
	kiStart, kiStat = 336, 388
	kiComm, commLen = 447, 20
	sZomb           = 5 // ki_stat of a zombie (sys/proc.h)
	subreaperOp     = "procctl(PROC_REAP_ACQUIRE)"
	wordSize        = 32 << (^uint(0) >> 63)
	kinfoProcLayout = wordSize == 64
)

var reaperOnce = sync.OnceValue(func() error {
	_, _, e := unix.Syscall6(unix.SYS_PROCCTL, pPID, uintptr(os.Getpid()), procReapAcquire, 0, 0, 0)
	if e != 0 && e != unix.EBUSY { // EBUSY: already the reaper
		return e
	}
	return nil
})

// becomeSubreaper makes the caller the reaper of its descendants.
func becomeSubreaper() error { return reaperOnce() }

func setPdeathsig(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }

// parseKinfo reads one struct kinfo_proc.
func parseKinfo(b []byte) (procInfo, bool) {
	if !kinfoProcLayout || len(b) < kinfoProcSize64 || int(int32(binary.LittleEndian.Uint32(b))) != kinfoProcSize64 {
		return procInfo{}, false
	}
	i32 := func(off int) int { return int(int32(binary.LittleEndian.Uint32(b[off:]))) }
	sec := binary.LittleEndian.Uint64(b[kiStart:])
	usec := binary.LittleEndian.Uint64(b[kiStart+8:])
	p := procInfo{
		pid:   i32(kiPid),
		ppid:  i32(kiPpid),
		pgid:  i32(kiPgid),
		sid:   i32(kiSid),
		state: 'S',
		start: sec*1e6 + usec,
		comm:  cString(b[kiComm : kiComm+commLen]),
	}
	if b[kiStat] == sZomb {
		p.state = 'Z'
	}
	return p, true
}

func readStat(pid int) (procInfo, error) {
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	if err != nil {
		return procInfo{}, errNoProc
	}
	p, ok := parseKinfo(b)
	if !ok || p.pid != pid {
		return procInfo{}, errNoProc
	}
	return p, nil
}

func allProcs() []procInfo {
	b, err := unix.SysctlRaw("kern.proc.proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for len(b) >= kinfoProcSize64 {
		if p, ok := parseKinfo(b[:kinfoProcSize64]); ok && p.pid > 0 {
			out = append(out, p)
		}
		b = b[kinfoProcSize64:]
	}
	return out
}

func cmdline(p procInfo) string {
	b, err := unix.SysctlRaw("kern.proc.args", p.pid)
	argv := nulFields(b)
	if err != nil || len(argv) == 0 {
		return "[" + p.comm + "]"
	}
	return strings.Join(argv, " ")
}

func procEnviron(pid int) []string {
	b, err := unix.SysctlRaw("kern.proc.env", pid)
	if err != nil {
		return nil
	}
	return nulFields(b)
}

// procCwd: kern.proc.cwd answers with a struct kinfo_file, not read here;
// the caller falls back to its own directory.
func procCwd(int) string { return "" }

// bootID names this boot by its boot time.
func bootID() string {
	if tv, err := unix.SysctlTimeval("kern.boottime"); err == nil {
		return fmt.Sprintf("boottime-%d.%06d", tv.Sec, tv.Usec)
	}
	return ""
}
