package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Kills on the way out of a loop: a retry loop starts the server, polls
// it, breaks out when it answers and stops it to try again when it does
// not, and the script stops the last one after the loop:
//
//	for i in 1 2 3; do ./server & PID=$!; sleep 2
//	  curl -sf localhost:3000 && break; kill $PID; done
//	npm test; kill $PID
//
// The kill in the round is a maybe (the break skips it), but the break
// leaves PID naming that round's server, and the kill after the loop
// stops it: the server ends on every path (checked under bash, zsh, dash
// and mksh). So the rest of a round after a statement that may break is
// a branch whose alternative, the break, ends the jobs that a kill after
// the loop names as the round left them (an exitScope, as for the exits
// of walk_exitkills.go): a kill of them in the rest of the round is as
// sure as it would be outside it.

// loopFollow is the list a statement is walked in, and its place there
// (see walker.next).
type loopFollow struct {
	of   *syntax.Stmt
	rest []*syntax.Stmt // the statements after it, run when it is done
}

// following is what runs after the loop c in its list, or nil when c is
// not a statement of a list being walked (`a && while …`).
func (w *walker) following(c syntax.Command) []*syntax.Stmt {
	if w.next.of == nil || w.next.of.Cmd != c {
		return nil
	}
	return w.next.rest
}

// breakKills is the jobs that a break out of the loop in s leaves to a
// kill that surely runs after the loop (follow): a plain `kill $PID` or
// `kill $!` in that list, before anything that may end the shell, where
// PID (or $!) names them now and nothing before the kill may have set it
// (or started a job). None when
// s may leave the round some other way (continue, a break out of more
// than this loop, an exit or a return).
func (w *walker) breakKills(s *syntax.Stmt, follow []*syntax.Stmt) []*Job {
	if len(follow) == 0 || !breaksOnly(s) || w.exits(s, 0) != endsNever {
		return nil
	}
	var ended []*Job
	set := map[string]bool{}
	for _, f := range follow {
		if args, ok := plainKill(f); ok {
			ended = append(ended, w.keptNames(args, set)...)
		}
		if w.exits(f, 0) != endsNever || w.sh.errexit && w.status(f) <= 0 ||
			knowledge.Holds(f, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "return") }) {
			break
		}
		if w.setsVars(f, set) {
			break // a function may set anything
		}
	}
	return ended
}

// keptNames is the jobs that the kill operands args name now, leaving
// out variables set since (set) and $! once a job may have started.
func (w *walker) keptNames(args []*syntax.Word, set map[string]bool) []*Job {
	sig, ops, list := dialect.KillArgs(args)
	if list || !terminates(sig) {
		return nil
	}
	var named []*Job
	for _, a := range ops {
		pe, _ := loneParam(a)
		if pe == nil || pe.Param == nil || !plainParam(pe) || set[pe.Param.Value] {
			continue
		}
		if js, all, _ := w.jobsNamed([]*syntax.Word{a}); !all {
			named = append(named, js...)
		}
	}
	return named
}

// plainKill returns the operands of a statement that is a kill the shell
// runs for sure when it gets there.
func plainKill(s *syntax.Stmt) ([]*syntax.Word, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || s.Coprocess || s.Negated || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "kill" {
		return nil, false
	}
	return ce.Args[1:], true
}

// setsVars adds to set the variables s may assign (and "!" once it may
// start a job), and reports whether it calls a function, which may set
// any.
func (w *walker) setsVars(s *syntax.Stmt, set map[string]bool) (any bool) {
	knowledge.Inspect(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background || n.Coprocess {
				set["!"] = true
			}
		case *syntax.Assign:
			if n.Name != nil {
				set[n.Name.Value] = true
			}
		case *syntax.WordIter:
			if n.Name != nil {
				set[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			if w.callsFunc(w.p.resolveCall(n)) {
				any = true
			}
			if name := knowledge.WordLit(n.Args[0]); name != "kill" && name != "sleep" && name != "echo" {
				for _, a := range n.Args[1:] {
					set[knowledge.WordLit(a)] = true // read PID, export PID=…, unset PID
				}
			}
		}
		return true
	})
	return any
}

// breaksOnly reports whether s leaves the round only by a plain break
// (`curl … && break`, `if ready; then break; fi`): no continue, and no
// break out of an outer loop (`break 2`); a break inside a loop of its
// own leaves only that loop.
func breaksOnly(s *syntax.Stmt) bool {
	found := false
	ok := true
	knowledge.Inspect(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.WhileClause, *syntax.ForClause:
			return false
		case *syntax.Stmt:
			ce, isCall := n.Cmd.(*syntax.CallExpr)
			if !isCall || len(ce.Args) == 0 {
				break
			}
			switch knowledge.WordLit(ce.Args[0]) {
			case "break":
				found = true
				ok = ok && (len(ce.Args) == 1 || knowledge.WordLit(ce.Args[1]) == "1")
			case "continue":
				ok = false
			}
		}
		return ok
	})
	return found && ok
}
