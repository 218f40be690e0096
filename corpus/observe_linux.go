//go:build linux

package corpus

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaper struct {
	once sync.Once
	err  error
}

// Subreaper makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER): orphans of the shells Observe starts, double
// forks and setsid'd programs included, are re-parented to this process
// instead of init, so they stay within reach and their zombies can be
// reaped here. The attribute belongs to the whole process, so it is set
// once. Observe calls it.
func Subreaper() error {
	subreaper.once.Do(func() {
		subreaper.err = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
	return subreaper.err
}

// uninherit marks close-on-exec every descriptor above 2 that this process
// inherited open across exec (os/exec passes such descriptors on to every
// child), so the shells Observe starts hold fds 0-2 and the mark only, as
// under an agent tool that starts them with three pipes. The verdict
// depends on it: a shell saves the descriptors a redirection replaces from
// fd 10 up, and mksh closes the saved copies in a forked child only above
// fd 10. With fd 10 inherited from a terminal or a test runner, the copy
// lands on 11 and is closed; with fd 10 free, `f() { (server; x) & }; f
// >/dev/null 2>&1 &` keeps the caller's output in the subshell and hangs it.
var uninherit = sync.OnceFunc(func() {
	names, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return // nothing to list: the shells inherit what they inherit
	}
	for _, n := range names {
		if fd, err := strconv.Atoi(n.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
})

// Uninherit is uninherit for other tests that start shells whose
// verdict depends on which descriptors they start with (hook's
// TestRedirectedJobStops runs mksh, whose exec keeps its first saved copy
// on fd 10 only when fd 10 is free).
func Uninherit() { uninherit() }

// defaultSignals gives the shells Observe starts SIGINT and SIGQUIT at
// their defaults, as an agent tool's shell has them, also when this
// process was started with them ignored (`go test ./... &` from a script,
// where the shell ignores both for its background job): a program keeps
// ignored signals ignored across exec, and a shell started so can neither
// trap them nor die of them, which changes the verdict of the entries
// about INT traps and self-interrupts. A signal this process catches is
// reset to the default in the programs it starts; caught here, they are
// dropped, as the ignoring asked.
var defaultSignals = sync.OnceFunc(func() {
	var ignored []os.Signal
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGQUIT} {
		if signal.Ignored(sig) {
			ignored = append(ignored, sig)
		}
	}
	if len(ignored) == 0 {
		return
	}
	drop := make(chan os.Signal, 1)
	signal.Notify(drop, ignored...)
	go func() {
		for range drop {
		}
	}()
})

// Observe runs `bash -c script` (or another shell's, see Options) the way an agent tool does and reports what
// happened: stdin is /dev/null, stdout and stderr are one pipe that is read
// until EOF, the working directory is a fresh temporary directory, and the
// calling process is a child subreaper.
//
// HOME is that directory too, so that no dotfile of the machine's user runs
// (a login shell's ~/.profile, zsh's ~/.zshenv): the outcome is the
// shell's, the same on every machine, and a profile's own work (pyenv's
// rehash, whose lock file stays behind when its shell is killed) cannot
// hang the run or the runs after it.
//
// The shell is started with a plain fork and exec, in the caller's process
// group and session, like Python's subprocess and most agent tools do by
// default (no Setpgid, no Setsid). That matters for `setsid cmd` in the
// foreground: setsid forks (and returns at once) only when its caller leads
// a process group, which a shell started this way does not, so setsid then
// runs cmd in place and the shell waits for it, as under those tools.
//
// Whatever happens, every process of the run that is still alive at the end
// is killed with SIGKILL (after all of them have been collected, so that
// none is re-parented and missed in between), and those that became
// children of this process are reaped. Zombies of short-lived orphans that
// exited before they could be seen are not attributable to a run while
// other code in the process may be waiting for its own children; ReapZombies
// collects them when it is safe.
func Observe(ctx context.Context, script string, opts Options) (Outcome, error) {
	opts.defaults()
	if err := Subreaper(); err != nil {
		return Outcome{}, fmt.Errorf("PR_SET_CHILD_SUBREAPER: %w", err)
	}
	uninherit()
	defaultSignals()
	dir, err := os.MkdirTemp("", "shguard-corpus-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)

	mark := randomMark()
	// A second mark, an open file inherited as fd 3, finds the processes
	// that cleared their environment (env -i) once they were re-parented
	// away from the shell; it dies with the descriptor (a daemon that
	// closes everything), which the environment mark survives.
	markFile, err := os.Create(filepath.Join(dir, "mark"))
	if err != nil {
		return Outcome{}, err
	}
	defer markFile.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return Outcome{}, err
	}
	defer r.Close()
	pipeLink, err := pipeName(r)
	if err != nil {
		w.Close()
		return Outcome{}, err
	}
	cmd := exec.Command(opts.Shell, "-c", script)
	if opts.Leader {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	} else {
		leader, err := startGroupLeader()
		if err != nil {
			w.Close()
			return Outcome{}, err
		}
		defer leader.stop()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: leader.pid}
	}
	cmd.Dir = dir
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "ZDOTDIR=") // zsh's dotfiles would be read there
	}), MarkVar+"="+mark, "HOME="+dir)
	cmd.Stdin = nil // /dev/null
	cmd.ExtraFiles = []*os.File{markFile}
	// *os.File outputs are handed to the child as they are: os/exec starts
	// no copying goroutine, so Wait returns when bash exits, not when the
	// pipe closes. Reading the pipe is ours to do.
	cmd.Stdout, cmd.Stderr = w, w
	start := time.Now()
	if err := cmd.Start(); err != nil {
		w.Close()
		return Outcome{}, err
	}
	w.Close()
	bashPid := cmd.Process.Pid
	// Every process of the run starts after the shell: the scans below read
	// the environment and descriptors of those only, not of every process
	// on the machine (on a busy one, most of the observer's work).
	since := uint64(0)
	if st, err := readStat(bashPid); err == nil { // a child not yet waited for: readable
		since = st.startTicks()
	}

	var out bytes.Buffer
	eof := make(chan struct{})
	go func() {
		io.Copy(&out, r) // ends at EOF, or when r is closed below
		close(eof)
	}()
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()

	var o Outcome
	timer := time.NewTimer(opts.Exit)
	defer timer.Stop()
	// within reports whether ch closes within d (counted from now).
	within := func(ch <-chan struct{}, d time.Duration) bool {
		timer.Reset(d)
		select {
		case <-ch:
			return true
		case <-timer.C:
		case <-ctx.Done():
		}
		return false
	}
	o.Exited = within(exited, opts.Exit)
	// A shell whose run is still working is slow, not blocked: give it
	// until Busy, a quarter second at a time, while it works.
	for busyUntil, prev := start.Add(opts.Exit+opts.Busy), work(nil); !o.Exited && ctx.Err() == nil && time.Now().Before(busyUntil); {
		var working bool
		if prev, working = progress(runProcs(mark, markFile.Name(), bashPid, since), prev); !working {
			break
		}
		o.Exited = within(exited, 250*time.Millisecond)
	}
	if o.Exited {
		o.ExitedAfter = time.Since(start)
		o.EOF = within(eof, opts.EOF)
	}
	if o.Exited && !o.EOF && ctx.Err() == nil {
		// A hang is a live process holding the pipe, not a clock that ran
		// out: on a loaded machine the last writer can take longer than
		// Options.EOF to exit. When none of the run's processes holds the
		// write end any more, EOF is on its way; wait for it once more.
		o.Holders = pipeHolders(runProcs(mark, markFile.Name(), bashPid, since), pipeLink)
		if len(o.Holders) == 0 {
			o.EOF = within(eof, opts.Linger)
		}
	}
	procs := []Proc(nil)
	if o.Exited && o.EOF {
		time.Sleep(opts.Settle)
		until := time.Now().Add(opts.Linger)
		for seen, confirmed := false, false; ; {
			procs = runProcs(mark, markFile.Name(), bashPid, since)
			if len(procs) == 0 && (!seen || confirmed) || time.Now().After(until) || ctx.Err() != nil {
				break
			}
			// A process that ended may have just forked one that is
			// exec'ing, whose environment cannot be read at that moment
			// and whose parent is gone: once processes were seen, none
			// counts only when a second look agrees.
			confirmed = len(procs) == 0
			seen = true
			if len(procs) == 0 {
				time.Sleep(50 * time.Millisecond) // (runProcs skips zombies)
			} else {
				// Nothing changes the answer but one of them ending (a
				// process one of them forks is found by the look when
				// one ends, or the last look, at until): wait for that
				// rather than look again every few milliseconds, which
				// on a busy machine was most of the observer's work.
				awaitExit(procs, until)
			}
		}
	} else {
		procs = runProcs(mark, markFile.Name(), bashPid, since)
	}
	o.Elapsed = time.Since(start)

	for _, p := range procs {
		if p.Pid != bashPid {
			o.Survivors = append(o.Survivors, p)
		}
	}
	kill(procs, bashPid)
	// A process the look above missed (forked meanwhile by one it saw, or
	// exec'ing, its environment unreadable, while the look was taken) is
	// a leftover of the run too: it is killed and counted.
	for range 5 {
		late := runProcs(mark, markFile.Name(), bashPid, since)
		n := 0
		for _, p := range late {
			if p.Pid != bashPid {
				o.Survivors = append(o.Survivors, p)
				n++
			}
		}
		if n == 0 {
			break
		}
		kill(late, bashPid)
	}
	<-exited // bash was among the killed if it was still running
	r.Close()
	<-eof
	o.Output = out.String()
	if err := ctx.Err(); err != nil {
		return o, err
	}
	return o, nil
}

// groupLeader is a process that leads the process group a shell not
// leading its own joins (Options.Leader false): cat reading a pipe only
// the observer writes, with no output, no mark and no tie to the run. It
// ends when the observer closes the pipe, or dies with the observer.
type groupLeader struct {
	pid  int
	cmd  *exec.Cmd
	feed *os.File
}

func startGroupLeader() (*groupLeader, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("cat")
	cmd.Stdin = r // an *os.File: handed over as is, no copying goroutine
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return &groupLeader{cmd.Process.Pid, cmd, w}, nil
}

func (g *groupLeader) stop() {
	g.feed.Close()
	g.cmd.Wait()
}

func randomMark() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// runProcs returns the live processes of a run: those whose environment
// carries the run's mark, those that hold the run's mark file open, and
// those whose parent chain reaches the shell. Zombies are not live: they
// hold no descriptors and run nothing. Processes that started before the
// clock tick since (the shell's start) are not the run's and are not read.
func runProcs(mark, markPath string, shell int, since uint64) []Proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	newer := allocatedSince(shell)
	want := []byte(MarkVar + "=" + mark + "\x00")
	self := os.Getpid()
	parents := map[int]int{}
	var found []Proc
	seen, old := map[int]bool{}, map[int]bool{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !newer(pid) {
			continue
		}
		st, err := readStat(pid)
		if err != nil || st.state == 'Z' || st.state == 'X' {
			continue
		}
		parents[pid] = st.ppid
		if st.startTicks() < since {
			old[pid] = true // not the run's; kept in parents for the chains
			continue
		}
		if pid == self || st.ppid == self && sameExe(pid) {
			// This process holds the mark file too; so, for a moment,
			// does a child it is forking for another observation, which
			// inherits every descriptor until it execs.
			continue
		}
		env, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if bytes.Contains(env, want) || holdsFile(pid, markPath) {
			found = append(found, Proc{Pid: pid, Cmdline: cmdline(pid)})
			seen[pid] = true
		}
	}
	for pid := range parents {
		if seen[pid] || old[pid] {
			continue
		}
		for p, n := parents[pid], 0; p > 1 && n < 64; p, n = parents[p], n+1 {
			if p == shell {
				found = append(found, Proc{Pid: pid, Cmdline: cmdline(pid)})
				break
			}
		}
	}
	return found
}

// work is what progress compares from one look to the next: each live
// process of a run and the CPU time it has used, in clock ticks.
type work map[int]uint64

// progress looks at procs and says whether the run worked since the look
// that gave last (nil: the first look, which counts as working): a
// process was started or ended, or used CPU time, or one is runnable
// (waiting for a CPU on a busy machine) or in a disk wait.
func progress(procs []Proc, last work) (work, bool) {
	now := work{}
	working := last == nil || len(procs) != len(last)
	for _, p := range procs {
		st, err := readStat(p.Pid)
		if err != nil {
			working = true // ended meanwhile
			continue
		}
		now[p.Pid] = st.cpu
		if prev, ok := last[p.Pid]; !ok || prev != st.cpu || st.state == 'R' || st.state == 'D' {
			working = true
		}
	}
	return now, working
}

// awaitExit returns when one of procs has exited, or at until. A process
// that cannot be watched (gone already) returns at once.
func awaitExit(procs []Proc, until time.Time) {
	fds := make([]unix.PollFd, 0, len(procs))
	defer func() {
		for _, f := range fds {
			unix.Close(int(f.Fd))
		}
	}()
	for _, p := range procs {
		fd, err := unix.PidfdOpen(p.Pid, 0)
		if err != nil {
			return
		}
		fds = append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	for {
		left := time.Until(until)
		if left <= 0 {
			return
		}
		n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
		if err != unix.EINTR || n > 0 {
			return
		}
	}
}

// allocatedSince returns whether a pid of the listing of /proc just read
// was allocated after the shell's: Linux hands out pids in increasing
// order, wrapping around at pid_max, and ns_last_pid is the last one.
// Every process of a run starts after its shell, so the others are not
// read at all: reading /proc/PID/stat of every process on the machine
// several times per run was most of the corpus tests' CPU time. Without
// ns_last_pid, every pid is read (and the start time sorts them).
func allocatedSince(shell int) func(pid int) bool {
	b, err := os.ReadFile("/proc/sys/kernel/ns_last_pid")
	last, err2 := strconv.Atoi(strings.TrimSpace(string(b)))
	switch {
	case err != nil || err2 != nil:
		return func(int) bool { return true }
	case last >= shell:
		return func(pid int) bool { return pid >= shell && pid <= last }
	}
	return func(pid int) bool { return pid >= shell || pid <= last } // wrapped
}

// sameExe reports whether pid runs this very program: a child forked by
// this process that has not exec'd yet.
func sameExe(pid int) bool {
	self, err1 := os.Readlink("/proc/self/exe")
	exe, err2 := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
	return err1 == nil && err2 == nil && self == exe
}

// pipeName is what /proc/PID/fd shows for a descriptor of the pipe f
// belongs to ("pipe:[INODE]"); both ends show the same name.
//
// The descriptor is reached through SyscallConn, not Fd: Fd puts the file
// in blocking mode, and then closing it no longer ends a read that is
// waiting on a writer nobody killed.
func pipeName(f *os.File) (string, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil {
		return "", err
	}
	if serr != nil {
		return "", serr
	}
	return "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]", nil
}

// pipeHolders returns the processes that have the pipe open. The reading
// end is only ever this process's, so these hold the writing end.
func pipeHolders(procs []Proc, pipe string) []Proc {
	var hs []Proc
	for _, p := range procs {
		if holdsFile(p.Pid, pipe) {
			hs = append(hs, p)
		}
	}
	return hs
}

// holdsFile reports whether the process has the file open.
func holdsFile(pid int, path string) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && l == path {
			return true
		}
	}
	return false
}

type stat struct {
	state byte
	ppid  int
	start string // start time in clock ticks since boot
	cpu   uint64 // user and system time used, in clock ticks
}

// startTicks is the start time as a number (0 if unreadable).
func (s stat) startTicks() uint64 {
	n, _ := strconv.ParseUint(s.start, 10, 64)
	return n
}

func readStat(pid int) (stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, err
	}
	// The command name is in parentheses and may contain anything.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, errors.New("bad stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return stat{}, errors.New("short stat")
	}
	ppid, _ := strconv.Atoi(f[1])
	utime, _ := strconv.ParseUint(f[11], 10, 64)
	stime, _ := strconv.ParseUint(f[12], 10, 64)
	return stat{state: f[0][0], ppid: ppid, start: f[19], cpu: utime + stime}, nil
}

func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// kill sends SIGKILL to every collected process through a pidfd opened
// while the process is known to be the same one (its start time has not
// changed), so that a recycled pid is never signalled. It then reaps those
// that are, or become, children of this process, and waits until every one
// has gone. The shell itself is left to os/exec's Wait.
func kill(procs []Proc, shell int) {
	self := os.Getpid()
	type target struct {
		pid   int
		start string
	}
	var ts []target
	for _, p := range procs {
		st, err := readStat(p.Pid)
		if err != nil {
			continue
		}
		fd, err := unix.PidfdOpen(p.Pid, 0)
		if err != nil {
			continue // already gone
		}
		if st2, err := readStat(p.Pid); err == nil && st2.start == st.start {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			if p.Pid != shell {
				ts = append(ts, target{p.Pid, st.start})
			}
		}
		unix.Close(fd)
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(ts) > 0 && time.Now().Before(deadline) {
		left := ts[:0]
		for _, t := range ts {
			st, err := readStat(t.pid)
			if err != nil || st.start != t.start {
				continue // gone (reaped by its parent, or by os/exec for the shell)
			}
			if st.state == 'Z' && st.ppid == self {
				var ws unix.WaitStatus
				if pid, _ := unix.Wait4(t.pid, &ws, unix.WNOHANG, nil); pid == t.pid {
					continue
				}
			}
			left = append(left, t)
		}
		ts = left
		if len(ts) > 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// ReapZombies reaps every exited child of the process. Observe cannot tell
// the zombie of a short-lived orphan of its shells from a child some other
// code is about to wait for, so it leaves those alone; call this when no
// other code in the process waits for children, such as at the end of a
// TestMain.
func ReapZombies() {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}
