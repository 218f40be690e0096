package rules

import "github.com/shguard/shguard/analyze/diag"

// DoubleFork reports a job started in a subshell that exits without waiting
// for it: `(server &)`, `$(server >/dev/null 2>&1 &)`.
var DoubleFork = Rule{
	ID:       "SG2005",
	Name:     "double-fork",
	Severity: diag.Warning,
	Summary:  "A job started inside a subshell that exits is orphaned: no wait can reach it",
	Doc: `(server &) forks a subshell that starts the server and exits at once; the
server is re-parented to init. No wait in the script can reach it, and its
pid is lost. Start it in the script's own shell and keep $!.`,
	Wrong: `(./server >/tmp/server.log 2>&1 &)`,
	Right: `./server >/tmp/server.log 2>&1 & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if j.Orphaned && !j.Quick && !j.Killed && !j.Setsid && !j.RemoteOnly() {
				p.Report(j.Start, j.End,
					p.quoted(j)+" is started inside a subshell that exits without waiting: it is orphaned, and no wait or $! can reach it; start it in the main shell and keep its pid")
			}
		}
	},
}
