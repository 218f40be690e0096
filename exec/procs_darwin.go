//go:build darwin

package exec

import (
	"encoding/binary"
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// macOS: no subreaper, no pidfd, no /proc. Processes are listed with
// sysctl kern.proc (kinfo_proc: pid, ppid, pgid, start time); a process's
// argv and environment (the run's marker) come from KERN_PROCARGS2, which
// the same user may read. Escapees of a run are found by the shell's
// process group and the run's marker (RunIDEnv), of a job by its group and
// JobIDEnv.

const haveReaper = false

const needRunMarker = true

func becomeSubreaper() error { return nil }

const subreaperOp = "subreaper"

// setPdeathsig: macOS has no parent-death signal; the watchdog stands in.
func setPdeathsig(*syscall.SysProcAttr, syscall.Signal) {}

const sZomb = 5 // p_stat of a zombie (sys/proc.h)

func infoOf(k *unix.KinfoProc) procInfo {
	p := procInfo{
		pid:   int(k.Proc.P_pid),
		ppid:  int(k.Eproc.Ppid),
		pgid:  int(k.Eproc.Pgid),
		state: 'S',
		start: uint64(k.Proc.P_starttime.Sec)*1e6 + uint64(k.Proc.P_starttime.Usec),
		comm:  cString(k.Proc.P_comm[:]),
	}
	if k.Proc.P_stat == sZomb {
		p.state = 'Z'
	}
	return p
}

func readStat(pid int) (procInfo, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(k.Proc.P_pid) != pid {
		return procInfo{}, errNoProc
	}
	return infoOf(k), nil
}

func allProcs() []procInfo {
	ks, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	out := make([]procInfo, 0, len(ks))
	for i := range ks {
		if ks[i].Proc.P_pid > 0 {
			out = append(out, infoOf(&ks[i]))
		}
	}
	return out
}

// procArgs reads KERN_PROCARGS2: argc (int32), the executable's path, NUL
// padding, argc arguments, then the environment, each NUL-terminated.
func procArgs(pid int) (argv, env []string) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 4 {
		return nil, nil
	}
	argc := int(binary.LittleEndian.Uint32(b))
	b = b[4:]
	i := 0
	for i < len(b) && b[i] != 0 { // the executable's path
		i++
	}
	for i < len(b) && b[i] == 0 {
		i++
	}
	for _, f := range strings.Split(string(b[i:]), "\x00") {
		if len(argv) < argc {
			argv = append(argv, f)
			continue
		}
		if f == "" {
			break
		}
		env = append(env, f)
	}
	return argv, env
}

func cmdline(p procInfo) string {
	argv, _ := procArgs(p.pid)
	if len(argv) == 0 {
		return "[" + p.comm + "]"
	}
	return strings.Join(argv, " ")
}

func procEnviron(pid int) []string {
	_, env := procArgs(pid)
	return env
}

// procCwd: x/sys/unix offers no proc_pidinfo; the caller falls back to its
// own directory.
func procCwd(int) string { return "" }

// bootID names this boot: kern.bootsessionuuid, else kern.boottime.
func bootID() string {
	if s, err := unix.Sysctl("kern.bootsessionuuid"); err == nil && s != "" {
		return s
	}
	if tv, err := unix.SysctlTimeval("kern.boottime"); err == nil {
		return fmt.Sprintf("boottime-%d.%06d", tv.Sec, tv.Usec)
	}
	return ""
}
