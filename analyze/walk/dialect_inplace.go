package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What each shell runs in place of its own process: the last command of a
// -c string, of a background subshell, of a nested shell (dialect.cTail,
// bgTail, substTail), which decides what `kill $!` and a setsid reach.

// execsTail reports whether the dialect's background subshell execs the
// simple command ce in place: a program, not a builtin or a function of
// the script (those run in the subshell itself).
func (w *walker) execsTail(ce *syntax.CallExpr) bool {
	r := w.p.resolveCall(ce)
	if len(r.All) == 0 || knowledge.Builtins.Has(r.Name) || w.fns.funcs[r.Name] != nil {
		return false
	}
	return knowledge.PlainName(knowledge.WordLit(r.Head))
}

// leads reports whether the simple command s (resolved as r) runs as the
// process of a shell that leads its group: the shell execs it in place,
// either explicitly or as the last command of a -c string (see
// dialect.cTail), and the shell leads its group (see Caller).
func (w *walker) leads(s *syntax.Stmt, r knowledge.Resolved) bool {
	if !w.sh.leads || w.job != nil || w.sh.async {
		return false
	}
	if r.Exec {
		return true
	}
	return slices.Contains(w.p.inPlaceStmts(), s)
}

// inPlaceStmts are the statements of the -c string the shell execs in
// place of itself (see markInPlace), worked out on first need: only a
// setsid and zsh's exit hook ask.
func (p *Pass) inPlaceStmts() []*syntax.Stmt {
	if !p.inPlaceDone {
		p.inPlaceDone = true
		if !p.Cfg.ScriptFile {
			p.markInPlace(p.File.Stmts, p.Root.sh.d)
		}
	}
	return p.inPlace
}

// markInPlace records the statements of a -c string (or of a nested shell
// that replaced it) that the shell d execs in place of itself.
func (p *Pass) markInPlace(list []*syntax.Stmt, d *dialect.Dialect) {
	if len(list) == 0 || d.CTail == 0 || dialect.TrapsSet(list, d) {
		return
	}
	if n := len(list); d.AmpEndsTail && n > 1 && list[n-2].Background && list[n-2].End().Line() == list[n-1].Pos().Line() {
		return
	}
	if d.CTail&dialect.TailLone != 0 {
		if len(list) == 1 {
			if ce, ok := list[0].Cmd.(*syntax.CallExpr); ok && len(ce.Assigns) == 0 && len(list[0].Redirs) == 0 && !list[0].Background {
				p.setInPlace(list[0])
			}
		}
		return
	}
	p.inPlaceTail(list[len(list)-1], d, lastLineTails(list, d.CTail))
}

// lastLineTails is via without tailAndOrAlone when the last statement of
// the -c string list shares its line with the one before: then it is not
// the whole last command.
func lastLineTails(list []*syntax.Stmt, via dialect.Tails) dialect.Tails {
	if n := len(list); n > 1 && list[n-2].End().Line() == list[n-1].Pos().Line() {
		return via &^ dialect.TailAndOrAlone
	}
	return via
}

// inPlaceTail marks s, or the commands in its tail positions through the
// compounds of via, as exec'd in place.
func (p *Pass) inPlaceTail(s *syntax.Stmt, d *dialect.Dialect, via dialect.Tails) {
	if s.Background || s.Coprocess || s.Negated {
		return
	}
	last := func(list []*syntax.Stmt, t dialect.Tails) {
		if len(list) > 0 && via&t != 0 {
			p.inPlaceTail(list[len(list)-1], d, via)
		}
	}
	if len(s.Redirs) > 0 && !d.TailKeepsRedirs {
		return
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		p.setInPlace(s)
	case *syntax.BinaryCmd:
		if (c.Op == syntax.AndStmt || c.Op == syntax.OrStmt) && via&(dialect.TailAndOr|dialect.TailAndOrAlone) != 0 {
			p.inPlaceTail(c.Y, d, via)
		}
	case *syntax.Block:
		last(c.Stmts, dialect.TailBlock)
	case *syntax.Subshell:
		last(c.Stmts, dialect.TailSubshell)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			last(ic.Then, dialect.TailIf)
		}
	case *syntax.CaseClause:
		for _, it := range c.Items {
			last(it.Stmts, dialect.TailCase)
		}
	case *syntax.ForClause:
		last(c.Do, dialect.TailFor) // in the last round (zsh: `for i in 1 2; do …; done`)
	}
}

func (p *Pass) setInPlace(s *syntax.Stmt) { p.inPlace = append(p.inPlace, s) }
