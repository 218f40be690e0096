//go:build linux || darwin || freebsd

package exec

// What exec asks of the platform. The decisions (what belongs to a run,
// when to signal what, when a job is over) are made in the shared files;
// each platform supplies these mechanisms, in files named for it:
//
//	platform_linux.go      linux && !portable: subreaper, pidfds, /proc
//	                       children and fd links, waitid(WNOWAIT), eventfd,
//	                       splice
//	platform_portable.go   everything else: no pidfd, no holder scan, a
//	                       pipe as waker, read/write copies
//	procfs_linux.go        linux (both builds): process status, argv and
//	                       environment from /proc
//	portable_linux.go      linux && portable: stands in for macOS on Linux
//	procs_darwin.go        macOS: kinfo_proc, KERN_PROCARGS2, no reaper
//	procs_freebsd.go       FreeBSD: kinfo_proc, kern.proc.args/env,
//	                       procctl(PROC_REAP_ACQUIRE)
//	bsd.go                 macOS, FreeBSD: exits through kqueue EVFILT_PROC,
//	                       pipe+FD_CLOEXEC, /dev/urandom
//
// The interface, function by function:
//
//	becomeSubreaper() error          orphans of the run come to the caller
//	                                 (haveReaper says whether that exists)
//	readStat(pid), allProcs()        pid, ppid, pgid, sid, state, start time
//	cmdline(p), procEnviron(pid)     argv; environment (the run marker)
//	childrenOf/haveChildrenFiles     Linux's cheap walk of one's own subtree
//	holdsPipe(pid, inodes)           holder scan (haveHolderScan)
//	pidfdOpen/pidfdSignal            signal exactly one process (fd -1:
//	                                 no pidfd, handle re-checks start time)
//	watchExit(ref, ch)               notice an exit without polling
//	awaitShell(pid)                  notice the shell's exit without
//	                                 reaping it (run.go's startAndWait
//	                                 reaps it under r.mu)
//	mayHaveLeftovers()               cheap "nothing can be left" test
//	newWaker, spliceMove, pipeBytes, the copier's system calls
//	growPipe, setPipeSize, sleepBrief
//	bootID, selfExe, randomBytes, procCwd, pipeCloexec, setPdeathsig,
//	takeTerminalBack
//
// Without a subreaper (macOS, and the portable build that stands in for it
// on Linux), the run's processes are found by what they inherit instead of
// by parentage: the shell's process group, and the run's marker RunIDEnv,
// which is then always set (needRunMarker).

// runProcs returns the processes of the run, dead or alive: every
// descendant of the caller where orphans come back to it (haveReaper);
// elsewhere the descendants of the caller, the members of the shell's
// process group and the processes carrying the run's marker, with what lies
// below them. Processes in r.foreign (and below them) are never the run's,
// nor are the processes of managed jobs (JobIDEnv).
func (r *run) runProcs() []procInfo {
	if haveReaper {
		return descendants(r.self, r.foreign)
	}
	all := allProcs()
	marker := RunIDEnv + "=" + r.runID
	skip := map[procKey]bool{}
	for k := range r.foreign {
		skip[k] = true
	}
	var roots []int
	for _, p := range all {
		if p.pid == r.self || skip[p.key()] || p.start < r.shellStart {
			continue
		}
		if p.pgid == r.shellPid && r.shellPid > 0 {
			roots = append(roots, p.pid)
			continue
		}
		if r.runID == "" {
			continue
		}
		env := procEnviron(p.pid)
		ours, job := false, false
		for _, e := range env {
			ours = ours || e == marker
			job = job || len(e) > len(JobIDEnv) && e[:len(JobIDEnv)+1] == JobIDEnv+"="
		}
		if job {
			skip[p.key()] = true
		} else if ours {
			roots = append(roots, p.pid)
		}
	}
	seen := map[int]bool{}
	var out []procInfo
	byPid := make(map[int]procInfo, len(all))
	for _, p := range all {
		byPid[p.pid] = p
	}
	for _, pid := range roots {
		if !seen[pid] {
			seen[pid] = true
			out = append(out, byPid[pid])
		}
	}
	for _, p := range descendantsOfIn(all, skip, append(roots, r.self)...) {
		if !seen[p.pid] && p.pid != r.self {
			seen[p.pid] = true
			out = append(out, p)
		}
	}
	return out
}
