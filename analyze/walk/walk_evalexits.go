package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// An exit or a return in eval's code ends what it would end written in
// its place: eval runs the code in the current shell, so `eval 'exit 1'`
// ends the script, `[ -f .env ] || eval exit` may, `eval "return 1"`
// returns from the function that runs it (what follows in its body never
// runs, the caller goes on), and outside any function ends zsh, dash and
// mksh as a bare return does (bash refuses it and goes on). Before, the
// walk followed the code's jobs and kills but took its exits to end only
// the code: the kill after `eval 'exit 1'` counted. Checked under bash,
// zsh, dash and mksh, as group leader and in the caller's group.

// evalExits is exits for a call of eval whose code the walk can read (see
// evalCode): the code's statements, read as the current shell's; ok is
// false for any other call.
func (w *walker) evalExits(c *syntax.CallExpr, depth int) (k exitKind, ok bool) {
	src := w.evalSource(c)
	if src == nil {
		return endsNever, false
	}
	saved := w.src
	w.src = src
	k = w.listExits(src.File.Stmts, depth)
	w.src = saved
	return k, true
}

// evalsReturn reports whether s holds an eval whose code holds a return
// (see returnsEarly).
func (w *walker) evalsReturn(s *syntax.Stmt) bool {
	return knowledge.Holds(s, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || knowledge.WordLit(c.Args[0]) != "eval" {
			return false
		}
		src := w.evalSource(c)
		return src != nil && knowledge.Holds(src.File, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "return") })
	})
}

// evalSource is the parsed code of an eval call, as a source of its own,
// or nil. It is kept per call (pass.evals): exits asks about a statement
// more than once, and the code is the same each time (its constants are
// the script's).
func (w *walker) evalSource(c *syntax.CallExpr) *Source {
	if src, ok := w.p.evals[c]; ok {
		return src
	}
	var src *Source
	if r := w.p.resolveCall(c); r.Name == "eval" && !r.NoProgram && w.nest.depth < maxNested {
		if code, offs, _, ok := w.evalCode(r.Args); ok {
			if f, err := w.p.ParseNested(code, w.sh.d.Variant); err == nil {
				src = &Source{Offs: w.mapOffs(offs), Text: []byte(code), File: f}
			}
		}
	}
	if w.p.evals == nil {
		w.p.evals = map[*syntax.CallExpr]*Source{}
	}
	w.p.evals[c] = src
	return src
}
