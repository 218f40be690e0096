//go:build linux || darwin || freebsd

package exec

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A kill -9 of the program that calls Run (shexec under Python's
// subprocess timeout, the OOM killer, a supervisor's SIGKILL) gives it no
// chance to stop what the run started: Pdeathsig reaches the shell only,
// and the shell's children are re-parented to init, out of reach. The
// watchdog is a small process that outlives the caller only to clean up.
//
// Why a watchdog: the command must see the same system as under bash (its
// uid, real pids, ps and /proc), which rules out a PID namespace; a cgroup
// killed with cgroup.kill needs cgroup v2 delegated to the user, which
// most machines and containers do not have; an environment marker alone
// misses a process started with `env -i`. The watchdog combines what it
// can know: it re-reads the run's process tree (the caller's descendants)
// every WatchdogPoll, and when the caller dies without saying "done" it
// SIGKILLs, within a second, every process of its last reading still
// alive (same pid and start time) with what is now below them, the shell's
// process group, and every process carrying the run's marker
// (RunIDEnv). Managed jobs (JobIDEnv) are left alone: they belong to their
// supervisor.
//
// It starts only once the shell has run for WatchdogDelay, so commands that
// end at once (most of them) never pay for it; a caller killed before then
// leaves what the run started, as bash's caller would. It runs in a session
// of its own, so a signal to the caller's process group does not reach it.

// RunIDEnv is set in the shell's environment to an id unique to the run;
// every process of the run inherits it unless it scrubs its environment.
const RunIDEnv = "SHEXEC_RUN_ID"

// watchdogArg0 is the argv[0] the watchdog process is started with.
const watchdogArg0 = "shexec-watchdog"

// WatchdogDelay is how long the shell runs before the watchdog starts;
// WatchdogPoll how often it re-reads the run's processes.
const (
	WatchdogDelay = 50 * time.Millisecond
	WatchdogPoll  = 100 * time.Millisecond
)

// WithWatchdog makes Run start a watchdog process (see above) once the
// shell has run for WatchdogDelay. The program is started again as the
// watchdog (/proc/self/exe on Linux, os.Executable elsewhere), so its main must call MaybeWatchdog first
// thing.
func WithWatchdog() Option { return func(c *config) { c.watchdog = true } }

// MaybeWatchdog runs the watchdog and exits, if the program was started as
// one (by a Run with WithWatchdog); otherwise it returns at once. Call it
// first thing in main, as MaybeSupervise.
func MaybeWatchdog() {
	if len(os.Args) == 4 && os.Args[0] == watchdogArg0 {
		os.Exit(watchdog(os.Args[1:]))
	}
}

// watchdogHandle is the caller's end of a running watchdog.
type watchdogHandle struct {
	pid  int
	pipe int // write end: "d" then close = done; EOF alone = the caller died
}

// startWatchdog starts the watchdog of the run. Its pid joins r.foreign:
// it is not one of the run's processes.
func (r *run) startWatchdog(runID string) *watchdogHandle {
	var p [2]int
	if err := pipeCloexec(p[:]); err != nil {
		return nil
	}
	null, err := unix.Open("/dev/null", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil
	}
	argv := []string{watchdogArg0, strconv.Itoa(r.self), strconv.Itoa(r.shellPid), runID}
	pid, err := syscall.ForkExec(selfExe(), argv, &syscall.ProcAttr{
		Files: []uintptr{uintptr(p[0]), uintptr(null), uintptr(null)},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	unix.Close(p[0])
	unix.Close(null)
	if err != nil {
		unix.Close(p[1])
		return nil
	}
	if info, err := readStat(pid); err == nil {
		if r.foreign == nil {
			r.foreign = map[procKey]bool{}
		}
		r.foreign[info.key()] = true
	}
	return &watchdogHandle{pid: pid, pipe: p[1]}
}

// done tells the watchdog that the run ended as it should: it exits.
func (w *watchdogHandle) done() {
	if w == nil {
		return
	}
	unix.Write(w.pipe, []byte{'d'})
	unix.Close(w.pipe)
}

// watchdog is the watchdog process: args are the caller's pid, the shell's
// pid (its process group) and the run id.
func watchdog(args []string) int {
	caller, err1 := strconv.Atoi(args[0])
	pgid, err2 := strconv.Atoi(args[1])
	if err1 != nil || err2 != nil {
		return 2
	}
	marker := RunIDEnv + "=" + args[2]
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	self, _ := readStat(os.Getpid())
	skip := map[procKey]bool{self.key(): true}

	msg := make(chan bool, 1) // true: done; false: EOF, the caller died
	go func() {
		var b [1]byte
		n, _ := os.Stdin.Read(b[:])
		msg <- n == 1 && b[0] == 'd'
	}()
	tick := time.NewTicker(WatchdogPoll)
	defer tick.Stop()
	var last []procInfo
	jobs := map[procKey]bool{} // managed jobs' processes, not ours
	for {
		select {
		case ok := <-msg:
			if ok {
				return 0
			}
			cleanUp(last, pgid, marker, skip, jobs)
			return 0
		case <-tick.C:
			last = last[:0]
			for _, p := range descendants(caller, skip) {
				if isJob(p, jobs) {
					continue
				}
				last = append(last, p)
			}
		}
	}
}

// isJob reports whether p is a managed job's process (JobIDEnv), caching
// the answer by identity.
func isJob(p procInfo, jobs map[procKey]bool) bool {
	if v, ok := jobs[p.key()]; ok {
		return v
	}
	v := environPrefix(p.pid, JobIDEnv+"=")
	jobs[p.key()] = v
	return v
}

// cleanUp SIGKILLs what the run left, in rounds until a round finds
// nothing (a process may fork while it is being killed), for at most a
// second.
func cleanUp(last []procInfo, pgid int, marker string, skip, jobs map[procKey]bool) {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		victims := map[procKey]procInfo{}
		add := func(p procInfo) {
			if !skip[p.key()] && !p.dead() && !isJob(p, jobs) {
				victims[p.key()] = p
			}
		}
		for _, p := range last {
			if cur, err := readStat(p.pid); err == nil && cur.start == p.start {
				add(cur)
				for _, d := range descendants(p.pid, skip) {
					add(d)
				}
			}
		}
		for _, p := range allProcs() {
			if p.pgid == pgid || environHas(p.pid, marker) {
				add(p)
			}
		}
		if len(victims) == 0 {
			return
		}
		for _, p := range victims {
			signalProc(p, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signalProc sends sig to p and only to it (see openHandle): through a
// pidfd where there are pidfds, after a second look at the start time
// elsewhere.
func signalProc(p procInfo, sig syscall.Signal) {
	h, err := openHandle(p)
	if err != nil {
		return
	}
	defer h.close()
	h.signal(sig)
}
