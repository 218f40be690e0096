package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// eval runs its arguments as code: the shell expands them, joins them
// with spaces and parses the result (`eval sleep 5 '&'` runs `sleep 5 &`,
// `cmd="server &"; eval "$cmd"` runs the server in the background, in all
// four shells). The walk follows the code when each argument is literal
// text and plain variable reads: a constant the script assigns (see
// constVars) stands as its value, and any other variable as its own read,
// which the eval'd code expands to the same value when it runs (`eval
// "kill $P"` is `kill $P`), except `$!` after a `&` of the code itself,
// which eval expanded before that job started.

// evalCode is the code eval runs with the words args, with the offset of
// each of its bytes in the current source (plus one for its end) and the
// quoting it sits in (see source.quote: 0, no fixes, where the code is
// not one quoted string); ok is false where the walk cannot know it.
func (w *walker) evalCode(args []*syntax.Word) (code string, offs []int, quote byte, ok bool) {
	if len(args) == 1 {
		if code, offs, ok := knowledge.Literal(args[0]); ok {
			return code, offs, quoteOf(args[0]), true
		}
	}
	if len(args) == 0 || !evalSpelled(args) {
		return "", nil, 0, false
	}
	var e evalText
	for i, a := range args {
		if i > 0 {
			e.write(" ", int(a.Pos().Offset()), 1)
		}
		if !e.parts(w, a.Parts, false) {
			return "", nil, 0, false
		}
	}
	offs = append(e.offs, int(args[len(args)-1].End().Offset()))
	return e.b.String(), offs, 0, true
}

// evalSpelled reports whether eval's words are literal text and plain
// variable reads only: no command substitution, arithmetic or operator
// expansion, whose code the source does not spell.
func evalSpelled(args []*syntax.Word) bool {
	ok := len(args) > 0
	for _, a := range args {
		knowledge.Inspect(a, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Word, *syntax.Lit, *syntax.DblQuoted:
			case *syntax.SglQuoted:
				ok = ok && !n.Dollar
			case *syntax.ParamExp:
				ok = ok && n.Param != nil && plainParam(n)
				return false
			default:
				ok = false
			}
			return ok
		})
	}
	return ok
}

// evalText builds eval's code and its offsets. The walker is passed to
// its methods rather than kept in it: what it holds escapes (offs grows
// on the heap), and a walker kept here would make every analysis's walker
// a heap object.
type evalText struct {
	b    strings.Builder
	offs []int
	bg   bool // the code so far holds a `&`
}

// write appends s, whose bytes come from the n bytes of source at pos.
func (e *evalText) write(s string, pos, n int) {
	e.b.WriteString(s)
	for i := range len(s) {
		e.offs = append(e.offs, pos+min(i, max(n-1, 0)))
	}
	e.bg = e.bg || strings.Contains(s, "&")
}

// parts appends the expansion of word parts, inside double quotes when
// quoted; false for one the walk cannot know.
func (e *evalText) parts(w *walker, ps []syntax.WordPart, quoted bool) bool {
	for _, p := range ps {
		switch p := p.(type) {
		case *syntax.Lit:
			if !e.lit(p, quoted) {
				return false
			}
		case *syntax.SglQuoted:
			e.write(p.Value, int(p.Pos().Offset())+1, len(p.Value))
		case *syntax.DblQuoted:
			if p.Dollar || !e.parts(w, p.Parts, true) {
				return false
			}
		case *syntax.ParamExp:
			if !e.param(w, p, quoted) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// lit appends a literal's value, its escapes removed as the shell removes
// them (unquoted, any character; in double quotes, `"`, `\`, `$` and
// backquote). An unquoted glob character would match files: not known.
func (e *evalText) lit(l *syntax.Lit, quoted bool) bool {
	base, s := int(l.Pos().Offset()), l.Value
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == '\n' {
				i++
				continue
			}
			if !quoted || strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
				i++
			}
		} else if !quoted && strings.IndexByte("*?[", s[i]) >= 0 {
			return false
		}
		e.write(s[i:i+1], base+i, 1)
	}
	return true
}

// param appends a variable read: a constant's value (unquoted, split
// into words that eval joins with spaces), or the read itself.
func (e *evalText) param(w *walker, p *syntax.ParamExp, quoted bool) bool {
	pos, n := int(p.Pos().Offset()), int(p.End().Offset()-p.Pos().Offset())
	name := p.Param.Value
	if v, ok := w.constParam(p); ok {
		if !quoted {
			if strings.ContainsAny(v, "*?[") {
				return false
			}
			v = strings.Join(strings.Fields(v), " ")
		}
		e.write(v, pos, n)
		return true
	}
	if name == "!" && e.bg {
		return false // the pid of the job before the code's own
	}
	if len(name) == 1 && !isName(name) {
		e.write("$"+name, pos, n)
	} else {
		e.write("${"+name+"}", pos, n)
	}
	return true
}

// evalAssigns is what the evals of f whose words are spelled out (see
// evalSpelled) may assign, given the constants vals the rest of f
// assigns: any name in their text or in the values of the constants they
// read (`cmd="pid=1"; eval "$cmd"` assigns pid). opaque: one reads a
// variable that is no such constant nor a number the shell sets ($!, $$,
// $?, $#), whose value could be any code.
func evalAssigns(f *syntax.File, vals map[string]string) (names []string, opaque bool) {
	knowledge.Inspect(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || opaque {
			return !opaque
		}
		r := knowledge.Resolve(ce.Args)
		if r.Name != "eval" || !evalSpelled(r.Args) {
			return true
		}
		for _, a := range r.Args {
			knowledge.Inspect(a, func(n syntax.Node) bool {
				switch n := n.(type) {
				case *syntax.Lit:
					names = append(names, identifiers(n.Value)...)
				case *syntax.SglQuoted:
					names = append(names, identifiers(n.Value)...)
				case *syntax.ParamExp:
					name := n.Param.Value
					if v, ok := vals[name]; ok {
						names = append(names, identifiers(v)...)
					} else if !strings.Contains("!$?#", name) || len(name) != 1 {
						opaque = true
					}
					return false
				}
				return true
			})
		}
		return true
	})
	return names, opaque
}

// identifiers are the words of s that could name a variable.
func identifiers(s string) []string {
	return strings.FieldsFunc(s, func(c rune) bool {
		return c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9')
	})
}

// evalsOpaque reports whether the n words eval in the text of f may run
// code that assigns names the text does not spell: one is not an eval
// command of f's own (a string's, run by a trap or another shell), or one
// reads a variable whose value the walk does not know (see evalAssigns).
func evalsOpaque(f *syntax.File, n int, lacks *knowledge.WordSet) bool {
	calls := 0
	knowledge.Inspect(f, func(node syntax.Node) bool {
		if ce, ok := node.(*syntax.CallExpr); ok && knowledge.Resolve(ce.Args).Name == "eval" {
			calls++
		}
		return true
	})
	if calls != n {
		return true
	}
	_, opaque := evalAssigns(f, scanConsts(f, lacks))
	return opaque
}

// jobFunc is the function a background job's command r calls, or, for an
// eval whose code the walk knows, that code as a function body: the job's
// subshell runs it as it runs a function's, forking each program (`eval
// "server >log 2>&1" & kill $!` leaves the server) unless the code ends in
// exec. nil for any other command.
func (w *walker) jobFunc(r knowledge.Resolved) *function {
	if len(r.All) == 0 {
		return nil
	}
	if w.callsFunc(r) {
		return w.fns.funcs[r.Name]
	}
	if r.Name != "eval" || r.NoProgram || w.nest.depth >= maxNested {
		return nil
	}
	code, _, _, ok := w.evalCode(r.Args)
	if !ok {
		return nil
	}
	f, err := w.p.ParseNested(code, w.sh.d.Variant)
	if err != nil {
		return nil
	}
	return &function{body: &syntax.Stmt{Cmd: &syntax.Block{Stmts: f.Stmts}}}
}
