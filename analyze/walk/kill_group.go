package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// Kills of a process group: `kill 0`, `kill -- -$$`, `kill -- -$!` under
// set -m or of a setsid job, `kill %N` with job control on, and the group
// a timeout leads. Such a kill reaches every job in the group but those
// that left it (setsid, timeout, jobs started under set -m).

// dropLeaderlessGroups drops the operands -$! and -$pid that signal
// nothing under set -m in mksh: a pipeline job's $! is its last process,
// and the job's group is led by its first, so kill finds no such group
// ("No such process") where bash looks the pid up among its jobs (see
// dialect.negPidFindsJob). `set -m; server | tee log & … kill -- -$!`
// leaves tee holding the caller's output there (found by probe).
func (w *walker) dropLeaderlessGroups(ops []*syntax.Word) []*syntax.Word {
	if !w.sh.monitor || w.sh.d.NegPidFindsJob {
		return ops
	}
	return slices.DeleteFunc(slices.Clone(ops), func(a *syntax.Word) bool {
		if !negatedPid(a) {
			return false
		}
		js, _, _ := w.jobsNamed([]*syntax.Word{{Parts: a.Parts[1:]}})
		return len(js) > 0 && !slices.ContainsFunc(js, func(j *Job) bool { return j.Kind != jobPipeline })
	})
}

// killGroups applies the operands `-$!` and `-$pid` of a kill without job
// control, and returns the other operands. Such an operand signals the
// process group the pid leads. Without job control a job leads none,
// except one that ran setsid in place (a background `setsid cmd &`: the
// job's process is not a group leader, so setsid makes the new session
// and group without forking) and GNU timeout, which makes a group of its
// own (unless --foreground): the signal then reaches every process of
// that group, children included. With set -m every job leads a group,
// and jobsNamed takes the operand as naming the job.
func (w *walker) killGroups(ops []*syntax.Word, sig string) []*syntax.Word {
	group := func(a *syntax.Word) bool {
		l, ok := a.Parts[0].(*syntax.Lit)
		return ok && l.Value == "-" && len(a.Parts) > 1
	}
	if w.sh.monitor || !slices.ContainsFunc(ops, group) {
		return ops
	}
	rest := ops[:0:0]
	for _, a := range ops {
		if !group(a) {
			rest = append(rest, a)
			continue
		}
		named, _, _ := w.jobsNamed([]*syntax.Word{{Parts: a.Parts[1:]}})
		for _, j := range named {
			if (j.Setsid || j.timeoutGroup) && j.Kind == JobSimple && !j.ignores(sig) {
				w.killGroup(j, true)
			}
		}
	}
	return rest
}

// timeoutKilled applies a signal sent to a background GNU timeout
// (`timeout 600 server & … kill $!`). timeout leads a process group of its
// own, and the signals it catches (HUP, INT, QUIT, TERM, ALRM and its -s
// signal) it passes on to the command and to that whole group: the
// command and what it started there end, as killGroup has it. Any other
// signal (KILL, USR1…) ends timeout alone, and its command runs on,
// holding what it holds. Checked under bash, dash, zsh and mksh with
// `timeout 60 sh -c 'server & wait' & kill $!` (nothing left) and `kill
// -9 $!` (the command left, holding the caller's output); timeout.c's
// cleanup() sends the signal to the command and then to group 0.
func (w *walker) timeoutKilled(j *Job, sig string) {
	switch s := dialect.SignalName(sig); s {
	case "", "TERM", "15", "HUP", "1", "INT", "2", "QUIT", "3", "ALRM", "14", dialect.SignalName(j.timeoutSig):
		w.killGroup(j, true)
	}
}

// killGroup: with job control on (set -m) each job leads a process group
// of its own, and `kill %N` signals that group (bash, mksh): the job's
// subshell, the program it runs in the foreground and the jobs it started
// in the background (a subshell has no job control: they stay in its
// group) all end, unless they left it (setsid). Checked under bash and
// mksh with `set -m; (server; x) >/dev/null 2>&1 & sleep 0.1; kill %1`
// and `(server & wait)`: nothing is left. (zsh exits at set -m, dash
// without a terminal turns job control off.) made: j made the group
// itself with setsid (see killGroups), and ends with it.
func (w *walker) killGroup(j *Job, made bool) {
	for _, k := range w.p.Jobs {
		for p := k; p != nil; p = p.parent {
			if p == j {
				if !k.Setsid || made && k == j {
					w.end(k)
				}
				break
			}
			if p.Setsid {
				break
			}
		}
	}
}

// killAll: the shell signals its process group (kill 0), which every job
// and every process a job started belongs to, unless it left the group
// (setsid) or leads its own (GNU timeout, see timeoutKilled; a job started
// under set -m). So do the jobs that subshells left running: `(server &)`,
// a double fork, is no job of the shell's, but stays in its group (`trap
// 'kill -- -$$' EXIT` of a group leader ends it; found in a Makefile's
// `bash -c "trap 'kill -- -$$$$' EXIT; …"`), and the script's own jobs
// where a foreground subshell
// or nested shell sends it: `server & (…; kill 0)` ends the server (and
// the script, see groupsLookedUp). Of a pipeline job whose first program
// is setsid's, that one runs on, holding what it holds (`setsid server |
// tee log & … kill -- -$$` leaves the server on the caller's stderr). A
// job that sig reaches too soon lives on (mksh: `server & kill 0`, see
// killLost). Checked under bash, zsh, dash and mksh as group leaders with
// `kill -- -$$` and -$(ps -o pgid= $$).
func (w *walker) killAll(sig string) {
	for _, j := range w.sh.jobs {
		if !w.killLost(j, sig) {
			w.groupKilled(j)
		}
	}
	inGroup := w.job == nil && w.sh.kind != shTop // the script's jobs too
	for _, j := range w.p.Jobs {
		if (j.Orphaned || inGroup) && !j.remote && !j.Resolved() && !slices.Contains(w.sh.jobs, j) {
			w.groupKilled(j)
		}
	}
}

// groupKilled applies a signal to the shell's process group to the job j.
func (w *walker) groupKilled(j *Job) {
	switch {
	case j.Setsid || j.timeoutGroup || j.monitorGroup || j.Daemon != "":
		// (a daemon made a session of its own: setsid)
	case j.leadsGroup && j.Kind == jobPipeline:
		if w.sureFor(j) {
			j.Fds = j.pipeRest // (its last element dies)
		}
	default:
		w.end(j)
	}
}
