package walk

import (
	"bytes"
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// dash parses bash's parameter expansions (`${pids[@]}`, `${x:0:3}`,
// `${x//a/b}`, `${!x}`, `${x^^}`, `${x@Q}`) as words and refuses them
// only where it expands them: "Bad substitution", an error that ends the
// shell (a subshell, `$(…)` or a job only itself) with its EXIT trap, while
// the commands before it, on its line too, have run: `sleep 9 & pids[0]=$!;
// kill "${pids[@]}"` starts the sleep and never kills it. A construct dash
// refuses when it parses (`x=(a b)`, `<(…)`, `function f {`, `|&`, `<<<`)
// stops it at the line it is on instead (see parsedLines). Checked under
// dash 0.5.12: `if false; then echo ${x[@]}; fi; echo b` prints b.

// badSubstsRead reads code, which does not parse as POSIX sh but parses
// as bash (bf), as dash does: each parameter expansion dash refuses is
// replaced by a placeholder `${___}` of the same length, so that every
// offset stays, and the offsets of the replaced ones are returned, for
// the walk to end the shell where it expands one (see walker.badSubst).
// The text is then parsed as POSIX sh up to the line of what dash refuses
// when it parses, if anything. nil when no expansion was replaced (the
// caller cuts the text at its error), or when one spans lines.
func badSubstsRead(p *Pass, code []byte, bf *syntax.File, d *dialect.Dialect) (*syntax.File, []int) {
	patched, bad := patchRefused(code, bf, d)
	if patched == nil {
		return nil, nil
	}
	f, err := p.ParseNested(string(patched), d.Variant)
	switch {
	case err == nil:
	case !d.BashSyntaxStops:
		return nil, nil // zsh, mksh: only the expansions were bash's
	default:
		if f = parsedLines(p, string(patched), d.Variant, err); f == nil {
			f, _ = p.ParseNested("", d.Variant)
		}
	}
	return f, bad
}

// patchRefused replaces each parameter expansion of bf (code as bash
// parses it) that the shell refuses where it expands it by a placeholder
// `${___}` of the same length, and returns the patched text and the
// offsets of the replaced ones in order; nil when none was replaced or
// one spans lines.
func patchRefused(code []byte, bf *syntax.File, d *dialect.Dialect) ([]byte, []int) {
	var bad []int
	var patched []byte
	ok := true
	knowledge.Inspect(bf, func(n syntax.Node) bool {
		pe, isPe := n.(*syntax.ParamExp)
		if !ok || !isPe || !d.ExpansionRefused(pe) {
			return ok
		}
		start, end := int(pe.Pos().Offset()), int(pe.End().Offset())
		if end-start < 5 || end > len(code) || bytes.IndexByte(code[start:end], '\n') >= 0 {
			ok = false
			return false
		}
		if patched == nil {
			patched = slices.Clone(code)
		}
		patched[start], patched[start+1], patched[end-1] = '$', '{', '}'
		for i := start + 2; i < end-1; i++ {
			patched[i] = '_'
		}
		bad = append(bad, start)
		return false // (what it holds is never expanded)
	})
	if !ok || len(bad) == 0 {
		return nil, nil
	}
	slices.Sort(bad)
	return patched, bad
}

// expansionsRead reads code that does not parse as the shell's syntax
// but as bash's, where only bash's parameter expansions were in the way
// and the shell (zsh, mksh) parses them as words and refuses them where
// it expands them (see dialect.refusesExpansion): as badSubstsRead. nil
// when anything else is in the way.
func expansionsRead(p *Pass, code []byte, d *dialect.Dialect) (*syntax.File, []int) {
	if d.RefusesExpansion == nil || d.BashSyntaxStops {
		return nil, nil
	}
	bf, err := p.ParseNested(string(code), syntax.LangBash)
	if err != nil {
		return nil, nil
	}
	return badSubstsRead(p, code, bf, d)
}

// badSubst reports whether one of the words, as the shell expands them
// for the command that holds them, is an expansion it refuses (see
// badSubstsRead): the shell ends there. The words of a `$(…)` in them
// are its subshell's, walked as such.
func (w *walker) badSubst(words ...*syntax.Word) bool {
	bad := w.src.Bad
	found := false
	for _, word := range words {
		if word == nil || knowledge.PlainWord(word) {
			continue
		}
		knowledge.Inspect(word, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return false
			case *syntax.ParamExp:
				if _, ok := slices.BinarySearch(bad, int(n.Pos().Offset())); ok {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// callBadSubst is badSubst for a simple command: its assignments, its
// words and its redirections.
func (w *walker) callBadSubst(s *syntax.Stmt, ce *syntax.CallExpr) bool {
	for _, a := range ce.Assigns {
		if w.badSubst(a.Value) {
			return true
		}
	}
	return w.badSubst(ce.Args...) || w.badSubst(redirWords(s.Redirs)...)
}

// stmtBadSubst is badSubst for the words a statement expands before it
// runs anything: a simple command's, a for loop's list, a case's word.
func (w *walker) stmtBadSubst(s *syntax.Stmt) bool {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return w.callBadSubst(s, c)
	case *syntax.ForClause:
		wi, ok := c.Loop.(*syntax.WordIter)
		return ok && w.badSubst(wi.Items...)
	case *syntax.CaseClause:
		return w.badSubst(c.Word)
	}
	return false
}

// badWithin reports whether the text of s holds an expansion the shell
// refuses (see badSubstsRead), which may end the shell there.
func (s *Source) badWithin(st *syntax.Stmt) bool {
	if len(s.Bad) == 0 {
		return false
	}
	i, _ := slices.BinarySearch(s.Bad, int(st.Pos().Offset()))
	return i < len(s.Bad) && s.Bad[i] < int(st.End().Offset())
}
