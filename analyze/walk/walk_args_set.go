package walk

import (
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What changes a function call's positional parameters as it runs (shift,
// set --) and dash's `local name=value`, a command there (see
// walk_args.go).

// shiftArgs applies `shift [N]` to the call's parameters: the rest move
// down. One that may not run (in a branch, a loop's rounds) leaves them
// drifting (see argFrame.drift); a count the walk cannot read, or past
// the last, leaves them unknown.
func (w *walker) shiftArgs(args []*syntax.Word) {
	f := w.fns.args
	if f == nil {
		return
	}
	n := 1
	if len(args) > 0 {
		var err error
		if n, err = strconv.Atoi(knowledge.WordLit(args[0])); err != nil || n < 0 {
			w.fns.args = f.lost()
			return
		}
	}
	g := *f
	switch {
	case n > len(f.args):
		w.fns.args = f.lost() // bash and zsh shift nothing, dash exits
		return
	case w.sureCond() != 0 || w.branching != 0:
		g.drift = true
	default:
		g.args = f.args[n:]
	}
	w.fns.args = &g
}

// lost is the frame f once its parameters are no longer known; the
// variables its call bound stay.
func (f *argFrame) lost() *argFrame {
	return &argFrame{open: true, outer: f.outer, vals: f.vals}
}

// setArgs applies `set -- a b` (or `set a b`) inside a call: the words
// after the options are its parameters from then on (in a branch, which
// they are is not known). `set -o name` takes the name; `set -A` (zsh,
// mksh) sets an array instead.
func (w *walker) setArgs(args []*syntax.Word) {
	f := w.fns.args
	if f == nil {
		return
	}
	for i := 0; i < len(args); i++ {
		l := knowledge.WordLit(args[i])
		switch {
		case l == "--":
			w.resetArgs(args[i+1:])
			return
		case l == "-o" || l == "+o":
			i++
		case strings.ContainsAny(l, "As") && (l[0] == '-' || l[0] == '+'):
			return // set -A name …: an array; zsh's set -s sorts
		case l == "" || l[0] != '-' && l[0] != '+':
			w.resetArgs(args[i:])
			return
		}
	}
}

// resetArgs makes the words args the call's parameters (see setArgs).
func (w *walker) resetArgs(args []*syntax.Word) {
	f := w.fns.args
	if w.sureCond() != 0 || w.branching != 0 {
		w.fns.args = f.lost()
		return
	}
	w.fns.args = w.bindArgs(args, &argFrame{outer: f.outer, vals: f.vals})
}

// declaredValues binds the names dash's `local name=value` assigns, a
// command there whose words call has walked: `local pid=$!`, `local
// pid=$1` then name the job as the assignment does elsewhere (see
// bindAssign), and the call being walked notes the value (see
// frameAssign).
func (w *walker) declaredValues(ce *syntax.CallExpr) {
	if len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "local" {
		return
	}
	for _, a := range ce.Args[1:] {
		l, ok := a.Parts[0].(*syntax.Lit)
		if !ok {
			continue
		}
		name, rest, assigns := strings.Cut(l.Value, "=")
		if !isName(name) {
			continue
		}
		if !assigns {
			w.frameAssign(name, nil)
			continue
		}
		// the word without its "name=": a copy, the tree stays as it is
		v := &syntax.Word{Parts: append([]syntax.WordPart{&syntax.Lit{Value: rest}}, a.Parts[1:]...)}
		if rest == "" {
			v.Parts = a.Parts[1:]
		}
		if len(v.Parts) == 0 {
			continue
		}
		w.frameAssign(name, v)
		saved := w.printed
		w.printed = nil
		w.bindAssign(&syntax.Assign{Name: &syntax.Lit{Value: name}, Value: v})
		w.printed = saved
	}
}
