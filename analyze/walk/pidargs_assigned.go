package walk

import (
	"bytes"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Which variables the command line may assign: one it never assigns, or
// has not yet assigned where the walk stands, holds no pid of its jobs
// (see argJobs).

// mayBeAssigned reports whether the command line could give the variable
// name a value: its name appears in the source other than where it is
// read ($name, ${name…}), or the source assigns variables it does not
// name (eval, source, a name in a variable). A variable it never assigns
// comes from the caller's environment, if at all, which was there before
// any job of the command started.
func (w *walker) mayBeAssigned(name string) bool {
	p := w.p
	if p.assigned == nil {
		lacks := p.Cfg.Lang.Dialect().Missing
		p.assigned = scanAssigned(p.Src, lacks)
		p.assigned.opaque = p.assigned.opaque || opaqueAssigns(p.File, lacks) || p.assigned.evals > 0 && evalsOpaque(p.File, p.assigned.evals, lacks)
	}
	a := p.assigned
	if a.opaque || a.names[name] || shellSet.Has(name) || a.names["coproc"] && strings.HasSuffix(name, "_PID") {
		return true
	}
	if f := w.src.File; f != nil && f != p.File {
		if _, done := p.opaqueFiles[f]; !done {
			if p.opaqueFiles == nil {
				p.opaqueFiles = map[*syntax.File]bool{}
			}
			p.opaqueFiles[f] = opaqueAssigns(f, w.sh.d.Missing)
		}
		return p.opaqueFiles[f]
	}
	return false
}

// unassignedYet reports whether the walk has not yet passed an
// assignment of name where every assignment the source has of it is a
// plain `name=…` (which the walk notes as it passes: see pass.sawAssign):
// then it holds nothing of the script's so far, at most a value from the
// environment, which names no job of this command. `server & kill $P;
// P=$!` kills nothing.
func (w *walker) unassignedYet(name string) bool {
	a := w.p.assigned
	top := w.src.File == nil || w.src.File == w.p.File // (a nested script has its own variables)
	return top && a != nil && !a.opaque && !a.other[name] && !shellSet.Has(name) && !w.p.constSeen[name]
}

// shellSet are variables the shells set themselves (read without a
// name sets REPLY, zsh lists its jobs in jobstates…).
var shellSet = knowledge.SetOf(`_ REPLY reply MAPFILE OPTARG OPTIND BASH_REMATCH match COPROC jobstates jobtexts jobdirs`)

// assignedNames are the names the source could assign. other are those
// it could assign otherwise than by `name=…` (`read name`, `for name
// in`, `${name:=…}`, `((name=…))`, or anywhere the scan cannot tell).
type assignedNames struct {
	names, other map[string]bool
	opaque       bool
	// evals counts the words eval in the text: each may run code that
	// assigns any name, unless the walk reads it (see evalsOpaque).
	evals int
}

// scanAssigned collects every name in the source text that is not a read
// ($name, ${name} and its operators other than = and :=), in every
// string and here-document, so that code run by another shell counts too.
// A source the shell lacks (lacks: dash's) is "not found" and assigns
// nothing: `source env.sh || kill $P` kills no pid in dash.
func scanAssigned(src []byte, lacks *knowledge.WordSet) *assignedNames {
	a := &assignedNames{names: map[string]bool{}, other: map[string]bool{}}
	isName := func(c byte, first bool) bool {
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
	}
	for i := 0; i < len(src); {
		if !isName(src[i], true) || i > 0 && isName(src[i-1], false) {
			i++
			continue
		}
		j := i
		for j < len(src) && isName(src[j], false) {
			j++
		}
		name := string(src[i:j])
		before := string(src[max(0, i-3):i])
		switch {
		case strings.HasSuffix(before, "$") && !strings.HasSuffix(before, "{$"):
			// $name: a read
		case strings.HasSuffix(before, "${") || strings.HasSuffix(before, "${#") || strings.HasSuffix(before, "${!"):
			rest := string(src[j:min(len(src), j+3)])
			if strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") || strings.HasPrefix(rest, "::=") {
				a.names[name], a.other[name] = true, true
			}
		default:
			a.names[name] = true
			if name == "eval" {
				a.evals++
			}
			rest := src[j:]
			plain := bytes.HasPrefix(rest, []byte("=")) || bytes.HasPrefix(rest, []byte("+=")) || bytes.HasPrefix(rest, []byte("["))
			if !plain || strings.HasSuffix(before, "((") || bytes.HasSuffix(src[:i], []byte("let ")) {
				a.other[name] = true
			}
		}
		i = j
	}
	a.opaque = a.names["source"] && !lacks.Has("source") || a.names["nameref"]
	return a
}

// opaqueAssigns reports whether a parsed script assigns variables whose
// names it does not spell out: `.` and source (the file's code), eval,
// read, declare, printf -v… of a name in a variable, a nameref, an
// arithmetic assignment to $v, zsh's ${(P)v}; not a source the shell
// lacks (see scanAssigned).
func opaqueAssigns(f *syntax.File, lacks *knowledge.WordSet) bool {
	if f == nil {
		return false
	}
	opaque := false
	dynamic := func(ws ...*syntax.Word) bool {
		for _, w := range ws {
			if w != nil && knowledge.WordLit(w) == "" && knowledge.Value(w) == "" {
				return true
			}
		}
		return false
	}
	knowledge.Inspect(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			r := knowledge.Resolve(n.Args)
			switch r.Name {
			case ".", "source", "nameref":
				opaque = opaque || !lacks.Has(r.Name)
			case "eval":
				opaque = opaque || !evalSpelled(r.Args) // (see evalAssigns)
			case "read", "mapfile", "readarray", "getopts", "vared", "zparseopts", "export", "declare", "typeset", "local", "readonly":
				opaque = opaque || dynamic(r.Args...)
			case "printf", "print":
				for i, a := range r.Args {
					if knowledge.WordLit(a) == "-v" && (i+1 >= len(r.Args) || dynamic(r.Args[i+1])) {
						opaque = true
					}
				}
			}
		case *syntax.DeclClause:
			for _, as := range n.Args {
				if as.Naked && as.Name == nil && (dynamic(as.Value) || strings.HasPrefix(knowledge.WordLit(as.Value), "-") && strings.Contains(knowledge.WordLit(as.Value), "n")) {
					opaque = true
				}
			}
		case *syntax.BinaryArithm:
			if n.Op >= syntax.Assgn && n.Op <= syntax.ShrAssgn {
				if x, ok := n.X.(*syntax.Word); ok && dynamic(x) {
					opaque = true
				}
			}
		case *syntax.ParamExp:
			if n.Flags != nil && strings.Contains(n.Flags.Value, "P") {
				opaque = true
			}
		}
		return !opaque
	})
	return opaque
}
