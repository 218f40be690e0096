package hook

import (
	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/lazy"
)

// An agent that kills the tool's process group when the command returns
// (Codex: Caps.GroupKilled) also kills every job the command left in that
// group: `bash -c "srv & sleep 1; echo up"` starts a server the user
// meant to keep, and a log-file rewrite that keeps it running is no use
// unless the job has a process group of its own. grouping says how each
// job the hook redirects (redirectJobs) gets one:
//
//   - a job that is one program (analyze.Job.Program), where setsid is
//     on PATH (Linux): setsid before it, which execs it in place (the
//     job is not a group leader), so $! is the program and its group;
//   - else in bash and mksh: job control for the moment the job starts,
//     `set -m; { exec >LOG 2>&1 </dev/null; JOB; } & echo $! >PID; set
//     +m` (mksh: stdin first, see execOpen). With -m the shell puts the
//     job in a group of its own (pgid = $!), and turns it off again
//     before anything else runs; measured with and without a terminal:
//     no job notices, the shell's own group unchanged (mksh R59 without
//     a terminal: the job's shell, its sleep and cat in a group led by
//     $!). Job control also stops sending a job's stdin to /dev/null,
//     which the exec puts back (POSIX: "before any explicit
//     redirections"), so the job reads what it read before. zsh and dash
//     refuse -m without a terminal; there such a job stays as it is.
//
// Either way one kill of the group stops the job and all it started.
type grouping struct {
	monitor bool   // set -m can be used around a job of the source itself
	setsid  string // setsid's path, if it can be spliced in unquoted
}

// monitorWords finds a command that may already turn job control on or
// off: then the hook leaves -m alone. Compiled on first use: the hook
// starts before every shell call, and most never need it.
var monitorWords = lazy.Regexp{Expr: `\bset\s+[-+][a-zA-Z]*m|monitor`}

func newGrouping(src []byte, opt Options) grouping {
	var g grouping
	if !opt.GroupKilled {
		return g
	}
	g.monitor = (opt.Lang == analyze.LangBash || opt.Lang == analyze.LangMksh) && !monitorWords.Get().Match(src)
	if opt.Find != nil {
		if g.setsid = opt.Find("setsid"); quote(g.setsid) != g.setsid {
			g.setsid = ""
		}
	}
	return g
}

// how is what job j needs to run in a group of its own: its whole text
// wrapped with job control on (monitor), or setsid put before its
// program (prefix); neither when the agent leaves the group alone or no
// way fits (the job stays as it is, stopped by stopJob).
func (g grouping) how(j analyze.Job) (monitor bool, prefix string) {
	switch {
	case g.setsid != "" && j.Program >= 0:
		// The smallest change: the job's text stays as it was.
		return false, g.setsid + " "
	case g.monitor && j.Quote == 0:
		// Not inside a nested string: the shell that runs it may not
		// be the one analysed (`zsh -c "…"` run from bash).
		return true, ""
	}
	return false, ""
}
