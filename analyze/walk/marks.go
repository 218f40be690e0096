package walk

// mark is a position of interest: a disown, a job-control command, a
// foreground command that never ends.
type mark struct {
	// Rule is the ID of the rule that reports the mark: the walk marks,
	// the rule picks its own marks by ID (the walk imports no rule).
	Rule       string
	Start, End int
	What       string
	// The jobs a job-control command concerns, for SG2007: jobs named by
	// fg/bg, and for set -m the jobs sh starts from index from on.
	Jobs []*Job
	sh   *shell
	from int
}

// LeavesJob reports whether a job-control command concerns a job that is
// still running when the shell exits. Without one the command changes
// nothing that outlives the shell (`set -m; build & wait` is collected as
// usual; `fg` with no job fails harmlessly), which bash confirms in the
// corpus.
func (m mark) LeavesJob() bool {
	js := m.Jobs
	if m.sh != nil && m.from <= len(m.sh.jobs) {
		js = m.sh.jobs[m.from:]
	}
	for _, j := range js {
		if j.Reportable() {
			return true
		}
	}
	return false
}
