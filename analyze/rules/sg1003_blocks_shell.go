package rules

import "github.com/shguard/shguard/analyze/diag"

// BackgroundBlocksShell reports a background job that holds a pipe the
// shell itself reads to EOF: `x=$(server &)`, `diff <(server &) f`,
// `(server &) | grep x`.
var BackgroundBlocksShell = Rule{
	ID:       "SG1003",
	Name:     "background-blocks-shell",
	Severity: diag.Error,
	Summary:  "A background job inside $(...), <(...) or a pipeline keeps the pipe open: the shell itself blocks",
	Doc: `A command substitution returns when its stdout reaches EOF, not when its
shell exits. A background job started inside it inherits that stdout, so
$(server &) blocks until the server exits. The same happens to the reader
of <(...) and to the next element of a pipeline. Redirect the job's output
inside the substitution, or start it outside. The shell blocks for good
too where it execs tail -f --pid=$! in its own place (exec, or as the
last command zsh and bash exec): the job becomes tail's child, which tail
never reaps, and its zombie answers --pid after it exits.`,
	Wrong: `pid=$(python3 -m http.server 8000 & echo $!)`,
	Right: `python3 -m http.server 8000 >/tmp/http.log 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if !j.Reportable() || !j.Fds.Blocks() {
				continue
			}
			f := p.Report(j.Start, j.End,
				p.quoted(j)+" holds the pipe of a command substitution or pipeline open: the shell blocks reading it until the job exits; redirect the job's output or start it outside")
			f.Suggestion = "redirect the job's output (`>/tmp/job.log 2>&1`) inside the substitution"
		}
		for _, m := range p.Marks {
			if m.Rule == "SG1003" {
				f := p.Report(m.Start, m.End,
					p.snippet(m.Start, m.End)+" never returns: the shell execs tail in its own place, so the job it follows becomes tail's child, which tail never reaps; once the job exits its zombie still answers --pid, and tail follows for ever")
				f.Suggestion = "keep a command after it, so that the shell forks tail and reaps the job itself: `tail -f log --pid=$P; wait $P`"
			}
		}
	},
}
