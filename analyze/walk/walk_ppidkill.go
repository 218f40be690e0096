package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A nested shell that kills its parent: `sh -c 'kill $PPID'`, `bash -c
// 'sleep 2; kill $PPID'`. A shell the script runs in its foreground (not
// exec'd in place) is its child, so $PPID there, in its subshells too, is
// the script's pid: the kill reaches the script while it waits for the
// nested shell, and the script dies as that returns, as of a foreground
// subshell's `(kill $$)` (see walk_forkkill.go): nothing after it runs,
// the jobs live on (mksh leading its group takes them), bash and mksh run
// the EXIT trap, zsh and dash do not. But a SIGINT: bash, waiting for a
// foreground child that does not itself die of the SIGINT, goes on
// (jobs.c: a child that caught SIGINT and exited normally means the
// user wanted the program, not the script, interrupted), while zsh, dash
// and mksh die of it. Checked under the four shells in both caller modes:
// `server >log 2>&1 & P=$!; sh -c 'kill $PPID'; kill $P` leaves the server.
// A nested shell that a subshell, a pipeline element or a `$(…)` execs
// (`x=$(sh -c 'kill $PPID')`, where $PPID is the script too) is not
// followed.

// childOfScript reports whether the nested shell that s runs (r) is a
// child of the script's own shell: run by it in its foreground, not
// exec'd in place of it nor behind a wrapper that forks (timeout).
func (w *walker) childOfScript(s *syntax.Stmt, r knowledge.Resolved) bool {
	if w.nest.depth != 0 || w.job != nil || w.sh.async || s.Background {
		return false
	}
	switch w.sh.kind {
	case shTop:
		return !r.Wrapped && !r.Exec && !slices.Contains(w.p.inPlaceStmts(), s)
	case shSubshell:
		// a foreground subshell that execs it (see walk_fgtails.go), by
		// itself or by an explicit exec: `(exec sh -c 'kill $PPID')`
		return w.sh.scriptChild && slices.Contains(w.inPlaceOf(w.sh), s) && !w.wrappedPastExec(s, r)
	}
	return false
}

// wrappedPastExec reports whether the command s (resolved as r) runs its
// program behind a wrapper other than a leading exec, which may fork it.
func (w *walker) wrappedPastExec(s *syntax.Stmt, r knowledge.Resolved) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !r.Wrapped || !r.Exec || !ok || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "exec" {
		return r.Wrapped
	}
	return knowledge.Resolve(ce.Args[1:]).Wrapped
}

// notePPIDKill notes a kill of $PPID (with sig) that surely runs in a
// nested shell whose parent is the script (w.ppidScript), or in a
// foreground subshell of it: the script dies of it as the walk comes back
// from the nested shell (see forkKilled).
func (w *walker) notePPIDKill(sig string, ops []*syntax.Word) {
	if w.kills.ppidScript == nil || w.job != nil || w.sh.async || w.kills.forkKills {
		return
	}
	if terminates(sig) && w.surelyRuns() && slices.ContainsFunc(ops, isParentPid) {
		w.kills.forkKill, w.kills.forkKills, w.kills.forkByChild = sig, true, true
	}
}

// isParentPid reports whether a word is just $PPID.
func isParentPid(word *syntax.Word) bool {
	pe, ok := knowledge.SolePart(word).(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "PPID" && pe.Exp == nil && pe.Index == nil
}

// childKillSurvived reports whether the script goes on after the kill
// with sig a foreground subshell or nested shell sent it (forkKilled).
func (w *walker) childKillSurvived(sig string) bool {
	return w.parentKillSurvived(sig, w.kills.forkByChild)
}

// parentKillSurvived reports whether the script goes on after a kill
// with sig that a foreground child sent it, a program (byProgram: see
// above, bash and SIGINT) or a subshell: it traps or ignores it.
func (w *walker) parentKillSurvived(sig string, byProgram bool) bool {
	n := dialect.SignalName(sig)
	return w.survives(sig) || byProgram && w.sh.d.ChildIntSurvives && (n == "INT" || n == "2")
}

// nestedMayKillParent reports whether the simple command c runs a nested
// shell, a child of the script, whose -c string holds a kill of $PPID
// (not in a job of its own) where it may not run: `sh -c 'cd app && kill
// $PPID'` is an exit that may be taken (see exits), and the signal it
// sends.
func (w *walker) nestedMayKillParent(s *syntax.Stmt, c *syntax.CallExpr) (found bool, sig string) {
	r := w.p.resolveCall(c)
	if !w.childOfScript(s, r) {
		return false, ""
	}
	return w.killsParent(r)
}

// killsParent reports whether the nested shell r runs, in its literal -c
// string, a kill of $PPID (not in a job of its own) that the script does
// not survive, and the signal it sends.
func (w *walker) killsParent(r knowledge.Resolved) (found bool, sig string) {
	code, _, ok := literalScript(r)
	if !ok {
		return false, ""
	}
	f, err := w.p.ParseNested(code, syntax.LangBash)
	if err != nil {
		return false, ""
	}
	found, sig = holdsFgKill(f, isParentPid)
	return found && !w.parentKillSurvived(sig, true), sig
}

// subshellMayKillParent is nestedMayKillParent for a foreground `( )`
// of the script whose body execs a nested shell in place (see
// walk_fgtails.go): `(cd app && sh -c 'kill $PPID')`.
func (w *walker) subshellMayKillParent(sub *syntax.Subshell) (found bool, sig string) {
	if w.sh.kind != shTop || w.nest.depth != 0 || w.job != nil || w.sh.async {
		return false, ""
	}
	for _, s := range w.fgTails(sub.Stmts, dialect.FormParen, w.sh.d) {
		if c, ok := s.Cmd.(*syntax.CallExpr); ok && !s.Background {
			if r := w.p.resolveCall(c); !w.wrappedPastExec(s, r) {
				if found, sig = w.killsParent(r); found {
					return found, sig
				}
			}
		}
	}
	return false, ""
}
