package walk

import (
	"bytes"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// badDup reports whether a redirection dups from a literal word that names
// no descriptor for dash and mksh: anything but one digit or `-` (`>&10`
// and `>&01` fail there too), and mksh's coprocess `p`.
func badDup(rs []*syntax.Redirect, d *dialect.Dialect) bool {
	if d.BadDup == dialect.DupOpensFile {
		return false
	}
	for _, r := range rs {
		if r.Op != syntax.DplOut && r.Op != syntax.DplIn || r.Word == nil {
			continue
		}
		switch v := r.Word.Lit(); {
		case v == "", v == "-", len(v) == 1 && v[0] >= '0' && v[0] <= '9':
		case v == "p" && d.CoprocDup:
		default:
			return true // (a word with an expansion is not followed)
		}
	}
	return false
}

// hasBadDupText reports whether text may hold a dup that badDup refuses:
// a `>&` or `<&` not followed by a digit or `-`. It spares the walk of
// every compound for the common `2>&1` (see walker.mayEnd).
func hasBadDupText(text []byte) bool {
	for i := 1; i+1 < len(text); i++ {
		// (the next & at once: this runs on the whole text of every
		// dash and mksh source, most of which has none)
		k := bytes.IndexByte(text[i:len(text)-1], '&')
		if k < 0 {
			return false
		}
		i += k
		if text[i-1] != '>' && text[i-1] != '<' {
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j < len(text) && text[j] != '-' && (text[j] < '0' || text[j] > '9') {
			return true
		}
	}
	return false
}

// dupEnds reports whether a statement's own redirections end the shell it
// runs in (see badDupEffect); the statement itself never runs (see
// walker.stmt). In dash that is also a background `{ }`, if, loop or case
// (not a `( )`): dash makes their redirections before it forks the job, so
// `{ server; } >&/dev/null &` ends the shell that starts it.
func (w *walker) dupEnds(s *syntax.Stmt) bool {
	if s.Coprocess || !badDup(s.Redirs, w.sh.d) {
		return false
	}
	if w.sh.d.BadDup == dialect.DupEndsShell {
		if !s.Background {
			return true
		}
		switch s.Cmd.(type) {
		case *syntax.Block, *syntax.IfClause, *syntax.ForClause, *syntax.WhileClause, *syntax.CaseClause:
			return true
		}
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return !s.Background && ok && len(ce.Args) > 0 && specialBuiltins.Has(ce.Args[0].Lit())
}

// failedDup walks a statement whose redirections fail (see badDupEffect):
// the shell may end there; a background job whose own process fails
// starts and runs nothing (see walker.startJob).
func (w *walker) failedDup(s *syntax.Stmt, env fdtable.Table) fdtable.Table {
	switch {
	case w.dupEnds(s):
		w.fatal()
	case s.Background:
		w.startJob(s, env)
	}
	return env
}
