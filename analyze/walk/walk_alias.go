package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Aliases: `alias dev='npm run dev &'` and then `dev` runs the server in
// the background. A shell expands an alias where it parses a command
// word, so the definition counts only for code it parses after running
// it: bash, dash and mksh parse a -c string a line at a time (a compound
// command spanning lines whole), so `alias a=…; a` on one line runs no
// alias and `a` on the next line does; zsh parses the whole -c string, and
// an eval's string, before it runs any of it, so only code parsed later
// (an eval's string, a nested file) sees its aliases. bash does not
// expand aliases at all without `shopt -s expand_aliases`, which counts
// the same way (checked with `SH -c` under all four shells; bash's
// parse_and_execute reads one command at a time, zsh's execstring parses
// it whole). A function's body is parsed where it is defined: an alias
// defined after it is not expanded there, and the line rule gives that.
// The walk expands an alias by walking the command's text with the alias
// replaced, as eval walks code, in the same shell.

// aliasDef is an alias's value, or for expandAliases the option, and
// where it was defined: the source and the last line of the unit the shell
// parsed with it.
type aliasDef struct {
	value string
	src   *Source
	line  uint
	ok    bool
}

// defineAlias sets an alias of the shell.
func (sh *shell) defineAlias(name string, a aliasDef) {
	if sh.aliases == nil {
		sh.aliases = map[string]aliasDef{}
	}
	sh.aliases[name] = a
}

// here is a definition made by the statement s, in force from the next
// unit the shell parses.
func (w *walker) here(s *syntax.Stmt, value string) aliasDef {
	return aliasDef{value: value, src: w.src, line: w.unitEnd(s), ok: true}
}

// unitEnd is the last line of the unit the shell parsed s in: the
// top-level command of the current source that holds it, and those that
// follow it on the line it ends on.
func (w *walker) unitEnd(s *syntax.Stmt) uint {
	f := w.src.File
	if f == nil {
		f = w.p.File
	}
	off := s.Pos().Offset()
	end := uint(0)
	for _, t := range f.Stmts {
		if end == 0 {
			if t.End().Offset() >= off {
				end = t.End().Line()
			}
			continue
		}
		if t.Pos().Line() != end {
			break
		}
		end = t.End().Line()
	}
	if end == 0 {
		end = s.End().Line()
	}
	return end
}

// applies reports whether a definition made as a counts for the command
// s: parsed after it ran.
func (w *walker) applies(a aliasDef, s *syntax.Stmt) bool {
	if !a.ok {
		return false
	}
	if a.src != w.src {
		return true // code parsed later: an eval's string, a written script
	}
	return !w.sh.d.ParsesWholeC && s.Pos().Line() > a.line
}

// alias records the definitions `alias name=value` makes, where the walk
// surely runs it.
func (w *walker) alias(s *syntax.Stmt, args []*syntax.Word) {
	for _, a := range args {
		v, _, ok := knowledge.Unquote(a, false)
		name, value, def := strings.Cut(v, "=")
		if !ok || !def || name == "" {
			continue
		}
		if !w.surelyRuns() {
			delete(w.sh.aliases, name) // may be either: taken as none
			continue
		}
		w.sh.defineAlias(name, w.here(s, value))
	}
}

// unalias removes aliases (-a: all).
func (w *walker) unalias(args []*syntax.Word) {
	for _, a := range args {
		if knowledge.WordLit(a) == "-a" {
			clear(w.sh.aliases)
			continue
		}
		delete(w.sh.aliases, knowledge.WordLit(a))
	}
}

// shopt follows bash's expand_aliases.
func (w *walker) shopt(s *syntax.Stmt, args []*syntax.Word) {
	on, named := false, false
	for _, a := range args {
		switch v := knowledge.WordLit(a); v {
		case "-s":
			on = true
		case "-u":
			on = false
		case "expand_aliases":
			named = true
		}
	}
	if !named {
		return
	}
	if on && w.surelyRuns() {
		w.sh.expandAliases = w.here(s, "")
	} else if !on {
		w.sh.expandAliases = aliasDef{}
	}
}

// expandAlias walks s with its command word's alias expanded, when it
// names one in force; it reports whether it did.
func (w *walker) expandAlias(s *syntax.Stmt, env fdtable.Table) bool {
	if len(w.sh.aliases) == 0 || w.nest.depth >= maxNested {
		return false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 || len(ce.Args[0].Parts) != 1 {
		return false
	}
	lit, ok := ce.Args[0].Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsRune(lit.Value, '\\') {
		return false // a quoted or escaped word is no alias
	}
	a, ok := w.sh.aliases[lit.Value]
	if !ok || !w.applies(a, s) || w.sh.d.AliasesOff && !w.applies(w.sh.expandAliases, s) {
		return false
	}
	for _, rd := range s.Redirs {
		if rd.Hdoc != nil {
			return false // the document's body is not in the text after it
		}
	}
	from, to := int(lit.End().Offset()), int(s.End().Offset())
	if to > len(w.src.Text) && w.src.File != nil || to > len(w.p.Src) {
		return false
	}
	text := w.p.Src
	if w.src.File != nil {
		text = w.src.Text
	}
	code := a.value + string(text[from:to])
	offs := make([]int, 0, len(code)+1)
	pos := int(lit.Pos().Offset())
	for range len(a.value) {
		offs = append(offs, pos)
	}
	for i := from; i <= to; i++ {
		offs = append(offs, i)
	}
	// An alias is not expanded again inside its own expansion.
	delete(w.sh.aliases, lit.Value)
	sh := w.sh
	w.nestedCode(code, offs, 0, w.sh.d, env, 0xff)
	if _, again := sh.aliases[lit.Value]; !again {
		sh.defineAlias(lit.Value, a)
	}
	return true
}
