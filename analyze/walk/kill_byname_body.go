package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A kill by name that reaches what a compound job or a nested shell waits
// for ends that job too, once the rest of its body is brief: `(server;
// echo exited) & … pkill -f server` and `sh -c 'server & wait' & … pkill
// -f server` leave nothing, for the subshell goes on past the program
// the signal ended, or its wait returns, and it exits (bash, zsh, dash and
// mksh). The program must be the one command of the body that takes a
// while (job.fgLong), started by the time of the kill by the walk's
// clock, in a place the body leaves once it ends: its list, a ( ) or { },
// either side of &&, the right of ||, a branch of an if or case, the left
// of || when the right is brief (`server || echo "server exited"`; not
// otherwise, since its failure runs the right, nor an if's condition); and
// every job the body waits for must be one a name reaches, now or
// earlier. A body that sets a trap (`trap '' TERM` is inherited by the
// program) or has a loop (whose next round starts a job again) is left
// out. Otherwise the body may go on to wait for something else, and the
// job is taken to run on as before.

// bodyEnds adds to m.tails the jobs whose bodies end once the processes
// m kills are gone; finds reports whether the name reaches a command line.
func (w *walker) bodyEnds(m *nameMatch, finds func(argv []string) bool) {
	for _, j := range w.p.Jobs {
		if j.Resolved() || j.Kind == jobPipeline || j.Kind == jobForked || slices.Contains(m.kills, j) || slices.Contains(m.tails, j) {
			continue
		}
		if len(j.innerWaited) == 0 && j.fgLong == 0 {
			continue // nothing in its body the name could end
		}
		if j.fgLong > 1 || !innerAllKilled(j, m.kills) {
			continue
		}
		root := bodyRoot(j)
		if root == nil || setsTrapOrLoops(root) {
			continue
		}
		if j.fgLong == 1 && !w.lastReached(j, root, finds) {
			continue
		}
		m.tails = append(m.tails, j)
	}
}

// innerAllKilled reports whether every job j's body waits for is among
// kills, or was killed before.
func innerAllKilled(j *Job, kills []*Job) bool {
	for _, in := range j.innerWaited {
		if !in.Killed && !slices.Contains(kills, in) {
			return false
		}
	}
	return true
}

// bodyRoot is the code j's own process runs: the job's statement, or
// for a nested shell (`sh -c '…' &`) the script it was given; nil when
// the walk kept neither.
func bodyRoot(j *Job) syntax.Node {
	if j.Kind == JobCompound {
		return j.Stmt
	}
	if l := j.last; l.stmt != nil {
		if l.src != nil && l.src.File != nil {
			return l.src.File
		}
		return nil
	}
	if len(j.innerWaited) > 0 {
		if src := j.innerWaited[0].Src; src != nil && src.File != nil {
			return src.File // sh -c 'server & wait'
		}
	}
	return nil
}

// setsTrapOrLoops reports whether the code sets a trap or has a loop
// anywhere (a loop may start what the name ended again).
func setsTrapOrLoops(root syntax.Node) bool {
	return knowledge.Holds(root, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.WhileClause, *syntax.ForClause:
			return true
		}
		return knowledge.IsCallOf(n, "trap")
	})
}

// leftOnEnd reports whether target sits in root where the code goes past
// it once it ends, without running it again or choosing what to run by
// its status: see the list above.
func leftOnEnd(root syntax.Node, target *syntax.Stmt) bool {
	found, ok := false, true
	var visit func(n syntax.Node, plain bool)
	list := func(stmts []*syntax.Stmt, plain bool) {
		for _, s := range stmts {
			visit(s, plain)
		}
	}
	visit = func(n syntax.Node, plain bool) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *syntax.File:
			list(n.Stmts, plain)
		case *syntax.Stmt:
			if n == target {
				found, ok = true, plain
				return
			}
			visit(n.Cmd, plain)
		case *syntax.Subshell:
			list(n.Stmts, plain)
		case *syntax.Block:
			list(n.Stmts, plain)
		case *syntax.BinaryCmd:
			visit(n.X, plain && (n.Op == syntax.AndStmt || n.Op == syntax.OrStmt && briefStmt(n.Y)))
			visit(n.Y, plain && n.Op != syntax.Pipe)
		case *syntax.IfClause:
			list(n.Cond, false) // its status picks the branch
			list(n.Then, plain)
			if n.Else != nil {
				visit(n.Else, plain)
			}
		case *syntax.CaseClause:
			for _, item := range n.Items {
				list(item.Stmts, plain)
			}
		default:
			knowledge.Inspect(n, func(c syntax.Node) bool {
				if s, isStmt := c.(*syntax.Stmt); isStmt && s == target {
					found, ok = true, false
				}
				return !found
			})
		}
	}
	visit(root, true)
	return found && ok
}

// lastReached reports whether the one program of j's body that takes a
// while is a simple command the name finds, in a place of root the body
// leaves once it ends, and had started by now: only literal durations
// came before it in the body, and no more of them than the script has
// let pass since the job started.
func (w *walker) lastReached(j *Job, root syntax.Node, finds func(argv []string) bool) bool {
	l := j.last
	if l.stmt == nil || !l.known || l.at > w.bounded-j.startBounded || !leftOnEnd(root, l.stmt) {
		return false
	}
	ce, ok := l.stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	argv := knowledge.ArgvOf(r).Command(r)
	return argv != nil && finds(argv)
}

// briefStmt reports whether s only reports or sets something and ends at
// once: builtins that print, assign or return a status, alone or in an
// and-or list (`echo "server exited" >&2`, `true`, `status=$?`).
func briefStmt(s *syntax.Stmt) bool {
	if s.Background || s.Coprocess {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return true // assignments alone
		}
		switch knowledge.WordLit(c.Args[0]) {
		case "echo", "printf", "true", "false", ":", "exit", "return":
			return true
		}
	case *syntax.BinaryCmd:
		return c.Op != syntax.Pipe && briefStmt(c.X) && briefStmt(c.Y)
	}
	return false
}
