package walk

import "mvdan.cc/sh/v3/syntax"

// `pkill -P $!` signals the children of the job's process, not the process
// itself: for a compound job (`(cd app && npm start) & … pkill -P $!;
// kill $!`, a common way to stop a tree) they are the program its
// subshell (or a background shell given its script) runs in the
// foreground and the jobs it started. The subshell then goes on with the
// rest of its body, brief when that program was the only one that takes a
// while, and ends.

// namesJobs reports whether the argument names jobs of the shell for sure
// ($!, a pid variable), not any job.
func (w *walker) namesJobs(arg *syntax.Word) bool {
	named, all, _ := w.jobsNamed([]*syntax.Word{arg})
	return !all && len(named) > 0
}

// killChildren ends the children of job p's process (see above).
func (w *walker) killChildren(p *Job) {
	for _, k := range w.p.Jobs {
		if k.parent == p && !k.Resolved() && !k.Setsid {
			w.killed(k)
		}
	}
	if (p.Kind == JobCompound || p.RunsChildren) && !p.ChildDeep && !p.SubshellGone && p.fgLong <= 1 {
		w.end(p)
	}
}
