package walk

import "mvdan.cc/sh/v3/syntax"

// A job started on a path that does not exit: `if [ -f package.json ];
// then node server.js >log 2>&1 & else exit 1; fi`, `[ -d app ] && { server
// >log 2>&1 & } || exit 1`, a `case` whose other branches, `*)` among
// them, exit. The statement may end the shell, so what follows is a maybe
// for the jobs started before it (see afterExit); but wherever this job
// exists the shell went on, so a kill after the statement that runs
// whenever the shell goes on (`sleep 1; kill $!`) ends the job whenever
// it exists, as after `[ -f package.json ] || exit 1; npm run dev >log
// 2>&1 &`. A job that an exit after it on its own path may leave behind
// (`{ server & ./check || exit 1; }`) stays a maybe. Checked under bash,
// zsh, dash and mksh in both caller modes: the kill stops the job.

// startedOnStay moves the jobs that s started (those from first on in
// the pass's list) only on paths that do not end the shell into the maybe
// afterExit just entered or renewed after s (see walker.sureFor).
func (w *walker) startedOnStay(s *syntax.Stmt, first int) {
	for _, j := range w.p.Jobs[first:] {
		if found, stays := w.startsStaying(s, j, 0); found && stays {
			j.region = w.exitRegion()
		}
	}
}

// startsStaying looks for the start of j (its statement, j.stmt) in s as
// the current shell runs it (not in a subshell, a pipeline or a loop):
// found, and whether no path of s that starts it ends the shell after.
// depth bounds the look into functions.
func (w *walker) startsStaying(s *syntax.Stmt, j *Job, depth int) (found, stays bool) {
	if s == j.Stmt {
		return true, true
	}
	if depth > maxNested || s.Background || s.Coprocess {
		return false, false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if _, body := w.callEnds(c); body != nil && w.lookInto() {
			return w.startsStaying(body, j, depth+1)
		}
	case *syntax.Block:
		return w.listStartsStaying(c.Stmts, j, depth)
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			return false, false // a pipeline's elements are subshells
		}
		if found, stays := w.startsStaying(c.X, j, depth); found {
			// Y runs after it where X succeeds (&&) or fails (||); X ||
			// exit 1 does not where X succeeds once it started j.
			ok := w.exits(c.Y, depth) == endsNever || c.Op == syntax.OrStmt && w.succeedsOnceStarted(c.X, j, depth)
			return true, stays && ok
		}
		return w.startsStaying(c.Y, j, depth)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if found, _ := w.listStartsStaying(ic.Cond, j, depth); found {
				return true, false // (rare: taken as a maybe)
			}
			if found, stays := w.listStartsStaying(ic.Then, j, depth); found {
				return true, stays
			}
		}
	case *syntax.CaseClause:
		for _, it := range c.Items {
			if found, stays := w.listStartsStaying(it.Stmts, j, depth); found {
				return true, stays && it.Op == syntax.Break // (;& runs on into the next branch)
			}
		}
	}
	return false, false
}

// listStartsStaying is startsStaying for a list run in order: j stays
// where nothing after its start in the list may end the shell.
func (w *walker) listStartsStaying(list []*syntax.Stmt, j *Job, depth int) (found, stays bool) {
	for i, s := range list {
		found, stays := w.startsStaying(s, j, depth)
		if !found {
			continue
		}
		for _, after := range list[i+1:] {
			stays = stays && w.exits(after, depth) == endsNever
		}
		return true, stays
	}
	return false, false
}

// succeedsOnceStarted reports whether s, which starts j (see
// startsStaying), succeeds whenever it did: `[ -d app ] && { server & }`
// fails only where the test did, before the block.
func (w *walker) succeedsOnceStarted(s *syntax.Stmt, j *Job, depth int) bool {
	if s == j.Stmt {
		return true // a background statement's status is 0
	}
	if s.Negated {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.Block:
		n := len(c.Stmts)
		if n == 0 {
			return false
		}
		last := c.Stmts[n-1]
		if found, _ := w.startsStaying(last, j, depth); found {
			return w.succeedsOnceStarted(last, j, depth)
		}
		return w.status(last) > 0
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt {
			return false
		}
		if found, _ := w.startsStaying(c.Y, j, depth); found {
			return w.succeedsOnceStarted(c.Y, j, depth)
		}
		return w.status(c.Y) > 0 && w.succeedsOnceStarted(c.X, j, depth)
	}
	return false
}
