package analyze

// mark is a position of interest: a disown, a job-control command, a
// foreground command that never ends.
type mark struct {
	// rule is the ID of the rule that reports the mark: the walk marks,
	// the rule picks its own marks by ID (the walk imports no rule).
	rule       string
	start, end int
	what       string
	// The jobs a job-control command concerns, for SG2007: jobs named by
	// fg/bg, and for set -m the jobs sh starts from index from on.
	jobs []*job
	sh   *shell
	from int
}

// leavesJob reports whether a job-control command concerns a job that is
// still running when the shell exits. Without one the command changes
// nothing that outlives the shell (`set -m; build & wait` is collected as
// usual; `fg` with no job fails harmlessly), which bash confirms in the
// corpus.
func (m mark) leavesJob() bool {
	js := m.jobs
	if m.sh != nil && m.from <= len(m.sh.jobs) {
		js = m.sh.jobs[m.from:]
	}
	for _, j := range js {
		if j.reportable() {
			return true
		}
	}
	return false
}
