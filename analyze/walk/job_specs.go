package walk

import (
	"slices"
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/knowledge"
)

// Job specs and the job table: what %%, %-, %N and %name name, the
// number the next job gets, and which jobs are still in the table.

// jobSpec resolves a job spec (%%, %-, %N, %name, %?name) to the jobs of the
// current shell it names.
func (w *walker) jobSpec(lit string) (named []*Job) {
	switch {
	case lit == "%%" || lit == "%+" || lit == "%":
		// The current job: the last one started that is still
		// running (a job that ended at once is gone from the table
		// by the time a later command looks). Job specs name the
		// shell's own jobs; a subshell inherits $! but starts with an
		// empty job table.
		for i := len(w.sh.jobs) - 1; i >= 0; i-- {
			j := w.sh.jobs[i]
			if !w.specSees(j) {
				continue
			}
			if !j.Quick || i == 0 {
				named = append(named, j)
				break
			}
			if !w.sh.d.CurrentSkipsDone {
				break // zsh, mksh: %% is the finished job, and kill fails
			}
		}
	case lit == "%-":
		// The previous job: the one started before the current one. With
		// a single job, bash takes %- for it.
		var live []*Job
		for i := len(w.sh.jobs) - 1; i >= 0 && len(live) < 2; i-- {
			if j := w.sh.jobs[i]; w.specSees(j) {
				live = append(live, j)
			}
		}
		switch {
		case len(live) == 2:
			named = append(named, live[1])
		case len(live) == 1 && w.sh.d.PrevIsCurrentAlone:
			named = append(named, live[0])
		}
	case strings.HasPrefix(lit, "%") && knowledge.IsDigits(lit[1:]):
		n := 0
		for _, c := range lit[1:] {
			n = n*10 + int(c-'0')
		}
		for _, j := range w.sh.jobs {
			if j.num == n && w.inTable(j) {
				named = append(named, j)
				break
			}
		}
	case strings.HasPrefix(lit, "%"):
		// bash, dash and mksh refuse the spec when more than one job
		// matches; zsh takes the one of the highest number.
		match := w.specMatches(lit)
		if len(match) > 1 && w.sh.d.SpecPicksHighest {
			match = []*Job{slices.MaxFunc(match, func(a, b *Job) int { return a.num - b.num })}
		}
		if len(match) == 1 {
			named = append(named, match[0])
		}
	}
	return named
}

// specMatches are the jobs in the table that the name spec lit matches:
// %name the jobs whose command starts with name, %?name those whose
// command contains it.
func (w *walker) specMatches(lit string) (match []*Job) {
	for _, j := range w.sh.jobs {
		if !w.inTable(j) {
			continue
		}
		t := j.text()
		if name, _, _ := strings.Cut(t, " "); w.sh.d.JobTextEscaped && !strings.Contains(name, "/") {
			t = `\` + t
		}
		if q, ok := strings.CutPrefix(lit[1:], "?"); ok && strings.Contains(t, q) || !ok && strings.HasPrefix(t, lit[1:]) {
			match = append(match, j)
		}
	}
	return match
}

// nextJobNum is the number the shell gives its next job: the lowest that
// no job in its table and no compound it is running holds, or in bash one
// above the highest in the table.
func (w *walker) nextJobNum() int {
	sh := w.sh
	if len(sh.jobs) >= maxExactJobs {
		return sh.maxNum + 1
	}
	if sh.d.JobNumAboveHighest {
		n := 0
		for _, j := range sh.jobs {
			if j.num > n && w.inTable(j) {
				n = j.num
			}
		}
		return n + 1
	}
	for n := 1; ; n++ {
		if n != sh.held && !slices.ContainsFunc(sh.jobs, func(j *Job) bool { return j.num == n && w.inTable(j) }) {
			return n
		}
	}
}

// maxExactJobs bounds the job tables that nextJobNum searches: past it a
// new job gets a number above any given before, which keeps the walk of a
// generated script with thousands of jobs linear. No command line names a
// job that far in by its number.
const maxExactJobs = 64

// reapMargin is how long past a job's end the shell is taken to have
// reaped it, when only sleeps ran since.
const reapMargin = 50 * time.Millisecond

// inTable reports whether j still holds its place in the shell's job
// table. disown takes a job out, and so does the shell reaping it: for
// sure once a wait waited for it, or once it ended (a quick job, a killed
// one) and the shell then ran a foreground program or slept past that
// end. Its number then goes to the next job, and %name, %% and %- no
// longer match it: under bash, zsh and mksh, `sleep 0.1 & wait; server &
// kill %1`, `true & sleep 0.2; server & kill %1` and `sleep 0.1 & sleep
// 0.3; server & kill %sleep` all end the server. A job that ended just
// before the next one starts may or may not be reaped yet: it stays.
func (w *walker) inTable(j *Job) bool {
	if w.sh.d.DoneJobsStay {
		return !j.disowned && !j.reported
	}
	return w.running(j)
}

// running reports whether j may still be running, or ended too recently
// for the shell to have reaped it (see inTable).
func (w *walker) running(j *Job) bool {
	switch {
	case j.disowned || j.waited:
		return false
	case j.Killed:
		return w.slow == j.endSlow && w.bounded-j.endBounded < reapMargin
	case j.Coproc && j.Quick:
		// mksh's `cat |&`: the filter reads the shell's end of the pipe,
		// which stays open until the shell ends (`cat |& read -p x;
		// server & kill %2` stops the server)
		return true
	case j.Quick:
		return !w.endedAlone(j)
	}
	return true
}

// endedAlone reports whether the timed job j has ended by itself by now
// (and been reaped): the shell has slept past the job's literal durations,
// or, for a job of none, run a command that may take a while since.
func (w *walker) endedAlone(j *Job) bool {
	return j.timed && (j.dur == 0 && w.slow > j.startSlow || w.bounded-j.startBounded >= j.dur+reapMargin)
}

// specSees reports whether the job specs %% and %- see j (see
// dialect.specsKeepReaped): a job waited for is gone from them in every
// shell (mksh: `a & b & wait %2; kill %-` finds no previous job).
func (w *walker) specSees(j *Job) bool {
	return w.inTable(j) || w.sh.d.SpecsKeepReaped && !j.disowned && !j.waited
}
