package rules

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/walk"
)

// BackgroundHoldsOutput reports a background job that keeps the caller's
// stdout or stderr open.
//
// An agent tool runs `bash -c CMD` and reads the output pipe until EOF. A
// background job inherits that pipe, so the tool waits until the job exits
// (for a server: forever), although the shell itself is long gone. nohup
// does not help: it redirects only when stdout is a terminal.
var BackgroundHoldsOutput = Rule{
	ID:       "SG1001",
	Name:     "background-holds-output",
	Severity: diag.Error,
	Summary:  "A background job keeps the caller's stdout or stderr open: the caller never gets EOF",
	Doc: `A background job inherits the shell's stdout and stderr. When those are the
caller's pipe (every agent tool, every $(...) of a script), the caller reads
until every holder has closed it: the shell exits, but the caller waits for
the job. For a server or a watcher that is forever. Redirect both streams
(>log 2>&1, or &>/dev/null), and wait for the job or stop it before the
shell ends, or hand it to a job manager.`,
	Wrong: `python3 -m http.server 8000 &`,
	Right: `python3 -m http.server 8000 >/tmp/http.log 2>&1 & pid=$!; sleep 1; curl -s localhost:8000 >/dev/null; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if !j.Reportable() || !j.Fds.Holds() || j.Fds.Blocks() || j.Kind == walk.JobCompound && !j.ExecsTail || j.AmpGt {
				continue
			}
			f := p.Report(j.Start, j.End,
				p.quoted(j)+" keeps the caller's "+held(&j.Fds)+" open: the caller waits for EOF until it exits; redirect its output and "+advice(j))
			f.Suggestion = "redirect the job's output, e.g. `>/tmp/job.log 2>&1`, or promote it to a managed job"
		}
	},
}
