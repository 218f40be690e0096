package walk

import "github.com/shguard/shguard/analyze/dialect"

// A forked subshell is a copy of its parent, job table included, and
// each shell decides what of that table it keeps. Where it keeps it
// (dialect.jobsKeptIn), the subshell's job specs, `jobs -p` and kill
// reach the parent's jobs: mksh's `( kill %1 )`, `( sleep 1; kill %% ) &`
// and `x=$(kill $(jobs -p))`, bash's `x=$(kill %1)` and `cat <(kill %1)`
// all stop the parent's job (checked under bash 5.2, zsh 5.9, dash 0.5.12
// and mksh R59c). Its wait does not wait for them: they are not its
// children (mksh's `( wait %1 )` returns at once). Jobs it starts get the
// numbers after them (mksh: `( server & jobs )` lists it as [2]).

// inheritJobs gives the subshell just entered (w.sh) the job table of
// parent, where the dialect keeps it for a subshell of this form. They
// come first in its table; sh.inherited counts them.
func (w *walker) inheritJobs(parent *shell, form dialect.SubshellForm) {
	sh := w.sh
	if parent == nil || sh.d.JobsKeptIn&form == 0 || len(parent.jobs) == 0 {
		return
	}
	sh.jobs = append(sh.jobs, parent.jobs...)
	sh.inherited = len(parent.jobs)
	sh.maxNum = parent.maxNum
}

// own is the jobs the shell started itself, its children: what its wait
// waits for and what it orphans when it ends.
func (sh *shell) own() []*Job { return sh.jobs[sh.inherited:] }

// owns reports whether j is one of the shell's own jobs (see own).
func (sh *shell) owns(j *Job) bool {
	for _, o := range sh.own() {
		if o == j {
			return true
		}
	}
	return false
}
