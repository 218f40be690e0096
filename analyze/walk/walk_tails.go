package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What a background job runs in place: the shells exec the last command
// of a job's subshell in some positions (every shell for an explicit
// `exec`, zsh and dash for a list's last program, bash for a lone
// command in `( )`), and then `kill $!` reaches the program itself.

// lastPipeElem is the last element of the pipeline c.
func lastPipeElem(c *syntax.BinaryCmd) *syntax.Stmt {
	for {
		y, ok := c.Y.Cmd.(*syntax.BinaryCmd)
		if !ok || y.Op != syntax.Pipe && y.Op != syntax.PipeAll || len(c.Y.Redirs) > 0 {
			return c.Y
		}
		c = y
	}
}

// firstLeadsGroup reports whether the first element of a pipeline makes
// a process group of its own: a setsid that makes its own session, or GNU
// timeout without --foreground, which calls setpgid(0, 0) before it forks
// its command (coreutils timeout.c, main). dash's `kill %1` of
// the job signals that group (`timeout 30 ./server 2>&1 | tee log & …
// kill %1`), and tee ends when the pipe's writers are gone.
func firstLeadsGroup(c *syntax.BinaryCmd) bool {
	for {
		x, ok := c.X.Cmd.(*syntax.BinaryCmd)
		if !ok || (x.Op != syntax.Pipe && x.Op != syntax.PipeAll) {
			break
		}
		c = x
	}
	ce, ok := c.X.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	return r.Setsid && !r.Fork || r.Timeout && !r.TimeoutFg
}

// isExecdInPlace reports whether bash runs the statement, alone in a
// subshell, by exec'ing it (checked against bash 5.2: `(cmd >f) &` does
// not hold the caller, `{ cmd >f; } &` does).
func isExecdInPlace(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess {
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0
}

// tailOf returns the last statement of a list when it is a simple
// foreground command, or follows the last statement into a nested
// and-or list.
func tailOf(list []*syntax.Stmt) *syntax.Stmt {
	if len(list) == 0 {
		return nil
	}
	return tailStmt(list[len(list)-1])
}

func tailStmt(s *syntax.Stmt) *syntax.Stmt {
	if s.Background || s.Coprocess || s.Negated {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return nil
		}
		return s
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			if len(s.Redirs) > 0 {
				return nil
			}
			return tailOfBinary(c)
		}
	}
	return nil
}

// tailOfBinary: in `A && B`, B runs last when it runs at all. In `A || B`
// too. The whole list's tail is the tail of its right side.
func tailOfBinary(c *syntax.BinaryCmd) *syntax.Stmt {
	if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
		return nil
	}
	return tailStmt(c.Y)
}

// tailExec is a simple command that replaces the subshell of a background
// job when the subshell gets to it, with the descriptors it runs with.
type tailExec struct {
	stmt *syntax.Stmt
	fds  fdtable.Table
}

// execdTails follows the tail positions of a background job's command c
// (fds: the descriptors before it) and returns the simple commands the
// subshell ends by exec'ing: an explicit `exec B` in any shell, and in the
// dialects that do so (d.bgTail) the last program of an and-or list, a
// group, an if… ok is false when some way through c ends in something
// the subshell forks and waits for. implicit: every compound passed so
// far execs its tail in d.
func (w *walker) execdTails(c syntax.Command, via dialect.Tails, fds fdtable.Table, implicit bool, out []tailExec) ([]tailExec, bool) {
	through := func(t dialect.Tails) bool { return implicit && via&t != 0 }
	last := func(list []*syntax.Stmt, t dialect.Tails) bool {
		if len(list) == 0 {
			return true // nothing runs: the subshell just ends
		}
		// A negated command is exec'd only at the top: zsh forks `!
		// server` inside ( ), { }, if… to negate its status.
		var ok bool
		out, ok = w.execdTail(list[len(list)-1], via&^dialect.TailNegated, fds, through(t), out)
		return ok
	}
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			return out, false
		}
		return w.execdTail(c.Y, via, fds, through(dialect.TailAndOr|dialect.TailAndOrAlone), out)
	case *syntax.Subshell:
		return out, last(c.Stmts, dialect.TailSubshell)
	case *syntax.Block:
		return out, last(c.Stmts, dialect.TailBlock)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			if !last(ic.Then, dialect.TailIf) {
				return out, false
			}
		}
		return out, true
	case *syntax.CaseClause:
		for _, it := range c.Items {
			if !last(it.Stmts, dialect.TailCase) {
				return out, false
			}
		}
		return out, true
	case *syntax.ForClause:
		// Only the last round can exec: a one-word list is known to be it.
		wi, ok := c.Loop.(*syntax.WordIter)
		if !ok || len(w.braceItems(wi.Items)) != 1 || !knowledge.PlainWord(wi.Items[0]) {
			implicit = false
		}
		return out, last(c.Do, dialect.TailFor)
	}
	return out, false
}

// jobBody is the command a background job's process runs, and the
// descriptors it runs with: braces around a single compound are no
// command of their own (dash's parser drops them), so `{ { server; }
// >log; } &` is the job `{ server; } >log &`, whose redirections its
// process makes before it runs the group with its tail exec'd (see
// tailRedirected).
func jobBody(c syntax.Command, fds fdtable.Table) (syntax.Command, fdtable.Table) {
	for {
		b, ok := c.(*syntax.Block)
		if !ok || len(b.Stmts) != 1 {
			return c, fds
		}
		s := b.Stmts[0]
		if _, call := s.Cmd.(*syntax.CallExpr); call || s.Background || s.Coprocess || s.Disown || s.Negated {
			return c, fds
		}
		c, fds = s.Cmd, fds.Apply(s.Redirs)
	}
}

func (w *walker) execdTail(s *syntax.Stmt, via dialect.Tails, fds fdtable.Table, implicit bool, out []tailExec) ([]tailExec, bool) {
	if s.Background || s.Coprocess || s.Negated && via&dialect.TailNegated == 0 {
		return out, false
	}
	fds = fds.Apply(s.Redirs)
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		if _, sub := s.Cmd.(*syntax.Subshell); len(s.Redirs) > 0 && !sub && via&dialect.TailRedirected == 0 {
			implicit = false // an explicit exec still replaces the subshell
		}
		return w.execdTails(s.Cmd, via, fds, implicit, out)
	}
	r := w.p.resolveCall(ce)
	// (exec "$cmd", exec nohup "": a program the walk cannot name is
	// exec'd all the same.)
	execd := r.Exec && (len(r.All) > 0 || w.execs(ce))
	if !execd && !(len(r.All) > 0 && implicit && w.execsTail(ce)) {
		return out, false
	}
	return append(out, tailExec{stmt: s, fds: fds}), true
}

// tailLate reports whether the one command ts that j's subshell execs in
// place of itself is a program of a literal duration that a slower
// foreground program of the body runs before (see walker.fgLong): a kill
// lands while that one runs, the subshell still a shell, and the job does
// not become its tail for it (dash and zsh: `{ server >log 2>&1; sleep 1;
// } & … kill $!` leaves the server, as bash does).
func (j *Job) tailLate(ts []tailExec) bool {
	if len(ts) != 1 || !j.fgSlow && j.fgDur == 0 {
		return false
	}
	ce, ok := ts[0].stmt.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	return j.pauses(knowledge.Resolve(ce.Args).Bound())
}

// becomes makes j the job of the simple commands ts its subshell execs in
// place of itself at its end: $! reaches them.
func (j *Job) becomes(ts []tailExec) {
	j.Kind = JobSimple
	if len(ts) == 1 {
		r := knowledge.Resolve(ts[0].stmt.Cmd.(*syntax.CallExpr).Args)
		j.runs(r)
		// dash's `cd app && find . -exec server \; &`: the subshell
		// became find, which a kill ends alone (see runsItsCommands).
		j.RunsChildren = j.RunsChildren || j.fgLong > 1 && knowledge.RunsItsCommands(r)
	}
}

// runs records what the job's one process runs, seen through its wrappers.
func (j *Job) runs(r knowledge.Resolved) {
	j.Nohup, j.Setsid, j.Prog = r.Nohup, r.Setsid, r.All
	j.timeoutGroup, j.timeoutSig = r.Timeout && !r.TimeoutFg, r.TimeoutSig
	j.relay = r.Relay
	j.runsRunner(r)
}

// runsRunner records that the job's process is a runner that leaves its
// work to a child a kill of $! does not reach (see scriptRunner), also
// when a shell given its script became it (`sh -c 'cd web && exec npm run
// dev' &`, `bash -c 'exec make dev' &`: measured in the four shells, the
// server runs on): the job is then that program.
func (j *Job) runsRunner(r knowledge.Resolved) {
	if apart, deep := knowledge.ScriptRunner(r, dialect.ShDialect().CTail == 0); apart {
		j.RunsChildren, j.ChildDeep, j.Runner = true, deep, r.All
	}
}
