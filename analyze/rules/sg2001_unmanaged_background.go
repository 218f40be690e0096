package rules

import "github.com/shguard/shguard/analyze/diag"

// UnmanagedBackground reports a background job with its output redirected
// that nobody waits for or stops: nothing hangs, but it outlives the shell
// with no handle left to stop it.
var UnmanagedBackground = Rule{
	ID:       "SG2001",
	Name:     "unmanaged-background",
	Severity: diag.Warning,
	Summary:  "A background job is never waited for or stopped: it outlives the shell unmanaged",
	Doc: `With its output redirected, a background job no longer hangs the caller,
but when the shell exits it keeps running, re-parented to init, and the
caller has no pid and no log path to manage it. Wait for it, kill it when
done, or start it as a managed job (shexec --background, or the agent's own
run_in_background), which records its pid, logs and exit status.

A kill of $! ends one process. When that process runs the work as its
child, the work goes on: a subshell's foreground program, xargs' command,
go run's program, and the script of npm run, npx or yarn, whose signal
ends the script's /bin/sh where that is dash (Debian, Ubuntu) and leaves
the server. Start such a job with setsid (Linux) and kill its process
group: setsid npm run dev >/tmp/dev.log 2>&1 & pid=$!; …; kill -- -$pid.`,
	Wrong: `npm run dev >/tmp/dev.log 2>&1 &`,
	Right: `python3 -m http.server 8000 >/tmp/http.log 2>&1 & pid=$!; sleep 1; curl -s localhost:8000 >/dev/null; kill $pid`,
	check: func(p *Pass) {
		// A job that also holds the caller's output gets an error for
		// that, which says more: the driver drops this finding then
		// (dropSubsumed, after the directives ran), so a directive that
		// silences exactly the error leaves the leak reported. The rule
		// itself reads no other rule's findings.
		for _, j := range p.Jobs {
			if !j.Reportable() || j.Escapes() {
				continue
			}
			what := " is never waited for or stopped: it keeps running after the shell exits, unmanaged; "
			if j.SubshellGone {
				what = " keeps running after the shell exits, unmanaged; "
			}
			p.Report(j.Start, j.End, p.quoted(j)+what+advice(j))
		}
	},
}
