package walk

import (
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Scripts name their pid files through a variable set once at the top
// (`PIDFILE=/tmp/app.pid`, `BATS_TMPDIR=…; echo $! > "$BATS_TMPDIR/srv.pid"`),
// and the pattern pkill looks for too (rc.d's `pexp="server --port 80"`;
// `pkill -f "^${pexp}"`), and the pid file walk (pidargs.go) and the name
// matching (kill_byname.go) follow literals. wordValue gives such a word
// the value it has when every assignment of its variables in the script
// gives them the same literal value.

// wordValue is the value of a word the walk can name without running it:
// its literal value, or the value it has with its variables replaced by the
// constants the script assigns them (see constVars); "" when some part of
// it is neither.
func (w *walker) wordValue(word *syntax.Word) string {
	if v := knowledge.Value(word); v != "" {
		return v
	}
	var b strings.Builder
	if !w.constParts(&b, word.Parts) {
		return ""
	}
	return b.String()
}

// constParts writes the value of the word parts ps into b: literals,
// quoted text and plain variable reads of a constant.
func (w *walker) constParts(b *strings.Builder, ps []syntax.WordPart) bool {
	for _, p := range ps {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\*?[~`) {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !w.constParts(b, p.Parts) {
				return false
			}
		case *syntax.CmdSubst:
			if !unameWord(&syntax.Word{Parts: []syntax.WordPart{p}}) {
				return false
			}
			b.WriteString(host) // (see status_literal.go)
		case *syntax.ParamExp:
			v, ok := w.constParam(p)
			if !ok {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
	}
	return true
}

// constParam is the value of $NAME or ${NAME:-default} where NAME is a
// constant the walk has passed an assignment of, or, for the second, the
// literal default where the script never assigns NAME (a variable the
// command line does not assign is taken to be unset, as elsewhere).
func (w *walker) constParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil {
		return "", false
	}
	name := p.Param.Value
	if v, bound := w.frameValue(p); bound {
		return v, v != "" // $1, or name=$1, in a function call
	}
	if v, ok := w.constVars()[name]; ok && w.p.constSeen[name] && (plainParam(p) || defaultOf(p) != nil) {
		return v, true
	}
	if d := defaultOf(p); d != nil && isName(name) && !w.mayBeAssigned(name) {
		return knowledge.Value(d), literalWord(d)
	}
	return "", false
}

// defaultOf is the word of ${NAME:-word} or ${NAME-word}, or nil.
func defaultOf(p *syntax.ParamExp) *syntax.Word {
	if p.Exp == nil || p.Exp.Op != syntax.DefaultUnset && p.Exp.Op != syntax.DefaultUnsetOrNull || p.Exp.Word == nil {
		return nil
	}
	q := *p
	q.Exp = nil
	if !plainParam(&q) {
		return nil
	}
	return p.Exp.Word
}

// sawAssign notes that the walk passed an assignment of name: from here
// on a constant's value is in force (`echo $! > "$PF"` before `PF=…`
// writes to no file).
func (p *Pass) sawAssign(name string) {
	if p.constSeen == nil {
		p.constSeen = map[string]bool{}
	}
	p.constSeen[name] = true
}

// constVars are the variables of the script being walked that every
// assignment in it sets to one literal value with no expansion (`PIDFILE=
// /tmp/app.pid`, also through export, readonly, local, and the default of
// `PIDFILE=${PIDFILE:-/tmp/app.pid}`), by name. A name
// also assigned otherwise (another value, a prefix to a command, a for
// loop, read, ${X:=…}, a declaration without a value) or a script that
// assigns names it does not spell (eval, source) has none. Code the
// command line's own shell runs (a trap's action, an eval'd string) sees
// the command line's variables; a nested shell (`sh -c '…'`) its own
// script's. Worked out once per script.
func (w *walker) constVars() map[string]string {
	f := w.src.File
	if f == nil || w.nest.depth == 0 {
		f = w.p.File
	}
	if vs, ok := w.p.consts[f]; ok {
		return vs
	}
	vs := scanConsts(f, w.sh.d.Missing)
	if w.p.consts == nil {
		w.p.consts = map[*syntax.File]map[string]string{}
	}
	w.p.consts[f] = vs
	return vs
}

// scanConsts finds the constants of a parsed script (see constVars).
func scanConsts(f *syntax.File, lacks *knowledge.WordSet) map[string]string {
	if f == nil || opaqueAssigns(f, lacks) {
		return nil
	}
	vals, bad := map[string]string{}, map[string]bool{}
	set := func(name, v string, ok bool) {
		if old, seen := vals[name]; !ok || seen && old != v {
			bad[name] = true
		}
		vals[name] = v
	}
	assign := func(as *syntax.Assign) {
		if as.Name == nil {
			return
		}
		v, ok := "", false
		if as.Value != nil {
			v, ok = knowledge.Value(as.Value), literalWord(as.Value)
			if unameWord(as.Value) {
				v, ok = host, true // unamestr=`uname` (see status_literal.go)
			}
			// PIDFILE=${PIDFILE:-/tmp/app.pid}: the default, the
			// environment being taken not to set it
			if pe, isParam := knowledge.SolePart(as.Value).(*syntax.ParamExp); isParam && pe.Param != nil && pe.Param.Value == as.Name.Value {
				if d := defaultOf(pe); d != nil {
					v, ok = knowledge.Value(d), literalWord(d)
				}
			}
		}
		set(as.Name.Value, v, ok && !as.Append && as.Index == nil && as.Array == nil && v != "")
	}
	knowledge.Inspect(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			for _, as := range n.Assigns {
				if len(n.Args) > 0 {
					set(as.Name.Value, "", false) // FOO=x cmd: cmd's environment only
					continue
				}
				assign(as)
			}
			for _, d := range declArgs(n) {
				set(d.name, d.value, d.ok)
			}
			switch knowledge.Resolve(n.Args).Name {
			case "read", "mapfile", "readarray", "getopts", "vared", "printf", "print", "zparseopts", "unset":
				for _, a := range n.Args[1:] {
					if l := a.Lit(); isName(l) {
						set(l, "", false)
					}
				}
			}
		case *syntax.DeclClause:
			for _, as := range n.Args {
				if as.Naked && as.Name != nil {
					set(as.Name.Value, "", false) // local pid: empty, or the caller's
				} else if !as.Naked {
					assign(as)
				}
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok {
				set(wi.Name.Value, "", false)
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				set(n.Param.Value, "", false)
			}
		case *syntax.BinaryArithm:
			if x, ok := n.X.(*syntax.Word); ok && n.Op >= syntax.Assgn && n.Op <= syntax.ShrAssgn {
				set(x.Lit(), "", false)
			}
		case *syntax.UnaryArithm:
			if x, ok := n.X.(*syntax.Word); ok {
				set(x.Lit(), "", false)
			}
		}
		return true
	})
	for name := range bad {
		delete(vals, name)
	}
	names, opaque := evalAssigns(f, vals)
	for _, name := range names {
		delete(vals, name)
	}
	if _, opaque2 := evalAssigns(f, vals); opaque || opaque2 {
		return nil
	}
	return vals
}

// declArg is what an argument of a declaration builtin that parses as a
// command (dash's `local pf=/tmp/x.pid`, export and readonly in sh) does
// to a name: assigns value (ok: a literal one), or declares it local
// without a value (ok false).
type declArg struct {
	name, value string
	ok          bool
}

// declArgs reads the arguments of such a command; nil for any other.
func declArgs(ce *syntax.CallExpr) []declArg {
	if len(ce.Args) < 2 {
		return nil
	}
	cmd := ce.Args[0].Lit()
	if cmd != "local" && cmd != "export" && cmd != "readonly" {
		return nil
	}
	var ds []declArg
	for _, a := range ce.Args[1:] {
		lead := ""
		if l, ok := a.Parts[0].(*syntax.Lit); ok {
			lead = l.Value
		}
		name, rest, assigns := strings.Cut(lead, "=")
		switch {
		case !isName(name):
		case assigns:
			v, lit := knowledge.Value(a), literalWord(a)
			_, v, _ = strings.Cut(v, "=")
			ds = append(ds, declArg{name, v, lit && v != "" && !strings.ContainsAny(rest, "~")})
		case cmd == "local" && len(a.Parts) == 1:
			ds = append(ds, declArg{name: name}) // local pf: empty, or the caller's
		}
	}
	return ds
}

// literalWord reports whether a word expands nothing: its value is its
// text.
func literalWord(w *syntax.Word) bool {
	_, _, ok := knowledge.Unquote(w, false)
	return ok
}

// cleanName is wordValue made a path, "" for none.
func (w *walker) cleanName(word *syntax.Word) string {
	if n := w.wordValue(word); n != "" {
		return path.Clean(n)
	}
	return ""
}
