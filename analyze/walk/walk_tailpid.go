package walk

import (
	"slices"
	"strings"
	"time"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// GNU `tail -f FILE --pid=PID` follows FILE until PID is gone: it checks
// kill(PID, 0) about once a second (coreutils tail.c, tail_forever) and
// exits when that fails. Measured under bash, zsh, dash and mksh in both
// caller modes:
//
//   - a background `tail -f log --pid=$$ &` ends within a second of the
//     shell, holding nothing after it; `tail -f log --pid=$P &` ends with
//     the job P, so a kill or wait of P ends both;
//   - in the foreground, not exec'd, tail returns once the job is gone: it
//     waits for the job as `wait $P` would;
//   - exec'd in place of the shell that started the job (an explicit
//     exec, zsh's last command of its -c string, bash's after `P=$!;`,
//     dash's last command of a `( )`), tail becomes the job's parent, and
//     never reaps it: once the job exits it stays a zombie, which kill(PID,
//     0) still finds, and tail never ends. The shell's place is taken by a
//     process that blocks for ever, even after the job it follows ended:
//     `./server >log 2>&1 & exec tail -f log --pid=$!`.

// tailPid returns the PID operand of a following `tail … --pid=PID` (or
// `--pid PID`), or nil.
func tailPid(r knowledge.Resolved) *syntax.Word {
	if r.Name != "tail" {
		return nil
	}
	var pid *syntax.Word
	follows := false
	for i, a := range r.Args {
		lit := knowledge.WordLit(a)
		switch {
		case lit == "-f" || lit == "-F" || lit == "--follow" || strings.HasPrefix(lit, "--follow=") || strings.HasPrefix(lit, "-") && !strings.HasPrefix(lit, "--") && strings.ContainsAny(lit, "fF") && !strings.ContainsAny(lit, "cns"):
			follows = true
		case lit == "--pid" && i+1 < len(r.Args):
			pid = r.Args[i+1]
		case len(a.Parts) > 0:
			if l, ok := a.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "--pid=") {
				rest := strings.TrimPrefix(l.Value, "--pid=")
				parts := slices.Clone(a.Parts[1:])
				if rest != "" {
					parts = append([]syntax.WordPart{&syntax.Lit{Value: rest}}, parts...)
				}
				if len(parts) > 0 {
					pid = &syntax.Word{Parts: parts}
				}
			}
		}
	}
	if !follows {
		return nil
	}
	return pid
}

// tailFollows notes, for a background job about to start with s, the jobs
// (or the shell itself) a `tail -f --pid` it runs follows, before the job
// becomes $!; they are applied by tailsEnd.
func (w *walker) tailFollows(s *syntax.Stmt) (jobs []*Job, shell, ok bool) {
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) == 0 {
		return nil, false, false
	}
	pid := tailPid(w.p.resolveCall(ce))
	if pid == nil {
		return nil, false, false
	}
	if isShellPid(pid) {
		return nil, true, true
	}
	js, all, _ := w.jobsNamed([]*syntax.Word{pid})
	if all || len(js) == 0 {
		return nil, false, false
	}
	return js, false, true
}

// tailsEnd counts as brief, once the walk is done (slow and bounded: the
// walker's counts then), the tail jobs that follow the shell or jobs that
// are gone: they end within a second of what they follow. A job is gone
// once it is reaped, not when it dies: its zombie answers --pid. The shell
// reaps one it waited for, one that ended by itself while it ran, and one
// it killed before a command that takes a while; a job killed right
// before the shell exits is left to whoever adopts it, which may reap it
// late (the corpus's harness does: `tail --pid=$P & … kill $P` at the end
// held the caller in all four shells).
func tailsEnd(jobs []*Job, slow int, bounded time.Duration) {
	gone := func(t *Job) bool {
		return t.waited || t.Quick || t.Killed && (slow > t.endSlow || bounded > t.endBounded)
	}
	for _, j := range jobs {
		if j.tailsShell || len(j.tailsFor) > 0 && !slices.ContainsFunc(j.tailsFor, func(t *Job) bool { return !gone(t) }) {
			j.Quick = true
		}
	}
}

// tailPidWaits applies a foreground `tail -f --pid=PID` of the shell (s,
// resolved as r): exec'd in place of the shell that started PID's job, it
// never ends (marked for SG1003); otherwise it waits for that job.
func (w *walker) tailPidWaits(s *syntax.Stmt, r knowledge.Resolved, start, end int) {
	pid := tailPid(r)
	if pid == nil || w.sh.async || r.Timeout || r.ForkedBefore {
		return // (timeout 30 tail …: tail is timeout's child, bounded)
	}
	named := isShellPid(pid)
	if !named {
		js, all, _ := w.jobsNamed([]*syntax.Word{pid})
		named = !all && len(js) > 0
	}
	if !named {
		return
	}
	if w.execsInPlace(s, r) {
		if w.surelyRuns() {
			w.mark(mark{Rule: "SG1003", Start: start, End: end, What: "tail --pid"})
		}
		return
	}
	if !isShellPid(pid) {
		w.wait([]*syntax.Word{pid}, nil) // tail returns once the job is gone
	}
}

// execsInPlace reports whether the shell being walked runs the simple
// command s (resolved as r) by exec'ing it in place of itself: `exec
// cmd`, or a command in the tail positions of a -c string (dialect.cTail)
// or of a foreground subshell of the script (see walk_fgtails.go).
func (w *walker) execsInPlace(s *syntax.Stmt, r knowledge.Resolved) bool {
	if r.Exec {
		return true
	}
	switch {
	case w.job != nil:
		return false
	case w.sh.kind == shTop:
		return slices.Contains(w.p.inPlaceStmts(), s)
	case w.sh.kind == shSubshell:
		return slices.Contains(w.inPlaceOf(w.sh), s)
	}
	return false
}
