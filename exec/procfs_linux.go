//go:build linux

package exec

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Process reading through /proc: used by the Linux build and by the
// portable build on Linux (which stands in for macOS, reading from /proc
// what macOS reads from kinfo_proc and KERN_PROCARGS2).

// readStat parses /proc/PID/stat. The command name is in parentheses and may
// itself contain spaces and parentheses, so fields are counted from the last
// ')'.
func readStat(pid int) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, errNoProc
	}
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open || closing+2 > len(b) {
		return procInfo{}, errNoProc
	}
	f := strings.Fields(string(b[closing+2:]))
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime
	if len(f) < 20 || len(f[0]) == 0 {
		return procInfo{}, errNoProc
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	sid, err3 := strconv.Atoi(f[3])
	start, err4 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return procInfo{}, errNoProc
	}
	return procInfo{pid: pid, ppid: ppid, pgid: pgid, sid: sid, state: f[0][0], start: start, comm: string(b[open+1 : closing])}, nil
}

// cmdline returns the process's argv joined by spaces, or "[comm]" when the
// argv is not readable (kernel threads, zombies, processes exiting).
func cmdline(p procInfo) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
	b = bytes.TrimRight(b, "\x00")
	if err != nil || len(b) == 0 {
		return "[" + p.comm + "]"
	}
	return string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
}

// allProcs reads the stat of every process on the machine.
func allProcs() []procInfo {
	names, err := readDirNames("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if info, err := readStat(pid); err == nil {
			out = append(out, info)
		}
	}
	return out
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// procEnviron returns the environment of pid (readable for the caller's own
// processes), or nil.
func procEnviron(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// procCwd returns the working directory of pid, or "".
func procCwd(pid int) string {
	d, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil || !strings.HasPrefix(d, "/") {
		return ""
	}
	return d
}

// bootIDPath is where the kernel tells which boot this is. Records carry it
// because start times restart from zero at every boot: after a reboot a
// recorded (pid, start time) pair can name an unrelated process. Tests point
// it elsewhere to simulate a reboot.
var bootIDPath = "/proc/sys/kernel/random/boot_id"

func bootID() string {
	b, err := os.ReadFile(bootIDPath)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// selfExe is the path by which the running program can start itself again.
func selfExe() string { return "/proc/self/exe" }

// randomBytes returns 5 bytes from getrandom(2). Not crypto/rand: the ids
// only have to be unpredictable enough not to collide (mkdir settles the
// rest), and crypto/rand links and initialises the FIPS module, which every
// start of shexec would pay for (bench/shexec.sh).
func randomBytes() ([5]byte, error) {
	var b [5]byte
	for {
		n, err := unix.Getrandom(b[:], 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return b, fmt.Errorf("getrandom: %w", err)
		}
		if n == len(b) {
			return b, nil
		}
	}
}

// pipeCloexec creates a close-on-exec pipe.
func pipeCloexec(p []int) error { return unix.Pipe2(p, unix.O_CLOEXEC) }

// fionread is the ioctl that tells how many bytes a pipe holds.
const fionread = unix.TIOCINQ

// takeTerminalBack makes the caller's group the terminal's foreground again
// once the shell is gone. The caller is in the background at that point,
// and tcsetpgrp(3) from the background raises SIGTTOU unless the signal is
// blocked; it is blocked on this thread (locked by startAndWait) for the
// call only.
func takeTerminalBack(fd int) {
	var set, old unix.Sigset_t
	set.Val[0] |= 1 << (unix.SIGTTOU - 1)
	unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old)
	unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, unix.Getpgrp())
	unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
}
