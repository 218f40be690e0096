package rules

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/walk"
)

// CompoundBackground reports `A && B &`, `(A; B >log) &` and `{ A; B; } &` whose
// subshell keeps the caller's output open while it waits for B.
//
// bash runs a backgrounded list in a forked subshell; the subshell runs B
// in its foreground and waits for it. Redirecting B does not help: the
// subshell itself still holds the caller's stdout and stderr for as long as
// B runs, and it leaks along with B. The fix makes the subshell exec B.
var CompoundBackground = Rule{
	ID:       "SG1002",
	Name:     "compound-background",
	Severity: diag.Error,
	Summary:  "`A && B &`, `(A; B >log) &`, `{ A; B; } &`: the background subshell waits for B and holds the caller's output",
	Doc: `bash parses A && B & as (A && B) &: it forks a subshell for the whole list,
and that subshell waits for B in its foreground. The subshell keeps the
caller's stdout and stderr open until B exits, even when B's own output is
redirected, and it outlives the shell as an orphan waiting in wait4.
The same holds for { A; B; } & and for (A; B >log) &: bash 5.1 and later
exec the last command of an explicit ( ) in place only when it has no
redirections of its own (and dash execs the last command of its
background lists anyway, while zsh backgrounds only B and runs A in its
own foreground; see the shell table in README).

Fix (default style): exec the last command, A && exec B &. The subshell
becomes B: nothing waits, $! is B's pid, A still runs asynchronously and
the parent's directory, variables and $? are unchanged. Then redirect B's
output. Brace style: A && { B & } (A then runs in the foreground).`,
	Wrong: `cd /tmp && python3 -m http.server 8000 &>/dev/null &`,
	Right: `cd /tmp && exec python3 -m http.server 8000 &>/dev/null & pid=$!; sleep 1; kill $pid`,
	check: func(p *Pass) {
		for _, j := range p.Jobs {
			if !j.Reportable() || !j.Fds.Holds() || j.Fds.Blocks() || j.Kind != walk.JobCompound || j.ExecsTail {
				continue
			}
			f := p.Report(j.Start, j.End,
				p.quoted(j)+" runs in a subshell that waits for its last command and keeps the caller's "+held(&j.Fds)+" open: the caller never gets EOF; exec the last command (`A && exec B &`) and redirect its output")
			f.Fixes = p.Fixes.CompoundFixes(j)
			f.Suggestion = "exec the last command and redirect its output, e.g. `cd dir && exec server >/tmp/server.log 2>&1 &`"
		}
	},
}
