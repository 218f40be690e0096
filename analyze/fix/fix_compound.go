package fix

import (
	"bytes"
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/analyze/walk"
	"mvdan.cc/sh/v3/syntax"
)

// CompoundFixes returns the behaviour-preserving fix for a compound
// background job in the configured style, or nil when none is provably
// safe (the finding then stays, with its suggestion).
//
// In the brace style, `A && B &` and `A || B &` get the brace fix; the
// other compound shapes (`(A; B) &`, `{ A; B; } &`) have no brace form
// (`(A; B &)` would be a double fork) and get the exec fix as in the
// default style.
func (p *Fixer) CompoundFixes(j *walk.Job) []diag.Fix {
	if serverBeforeTail(j.Stmt.Cmd) {
		return nil // neither form stops the wait for it
	}
	if p.Style == StyleBrace {
		if b, ok := j.Stmt.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
			if f, ok := p.braceFix(j, b); ok {
				return []diag.Fix{f}
			}
			return nil
		}
	}
	if f, ok := p.execFix(j); ok {
		return []diag.Fix{f}
	}
	return nil
}

// execFix turns the job's tail command B into `exec B`: the backgrounded
// subshell becomes B instead of waiting for it. This changes nothing else
// only when all of these hold, so otherwise there is no fix:
//
//   - B is in tail position: nothing in the subshell runs after it (the
//     walker's j.tail; `A && B | C`, `time B`, `! B` have none);
//   - B is a simple command whose name is a plain literal word: exec of
//     `$cmd` or `{a,b}` or `\name` is not what the shell would run, and a
//     name starting with `-` would be an option of exec;
//   - B is not a builtin or keyword (exec runs only programs), nor a
//     function or alias the script (or the `bash -c` string B is in)
//     defines, nor possibly one: when the script sources a file or evals
//     code, only a name with a slash is certain to be a program;
//   - the script defines no command_not_found_handle (exec bypasses it);
//   - the subshell runs no trap that exec would skip: no trap inside the
//     job, no trap in a function (the job may call it), and no ERR, DEBUG
//     or RETURN trap anywhere (`set -E`/`-T` make subshells inherit them).
//     EXIT and signal traps of the parent are reset in the subshell, so
//     they do not matter.
//
// Prefix assignments and redirections stay where they are: `FOO=1 exec B`
// exports FOO to B just as `FOO=1 B` does, and `>log exec B` redirects B.
func (p *Fixer) execFix(j *walk.Job) (diag.Fix, bool) {
	if j.Tail == nil {
		return diag.Fix{}, false
	}
	ce, ok := j.Tail.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return diag.Fix{}, false
	}
	name := knowledge.WordLit(ce.Args[0])
	if !knowledge.PlainName(name) || knowledge.Builtins.Has(name) || p.Cfg.Lang == dialect.LangMksh && kshBuiltins.Has(name) || mentionsTrap(j) && hasTrap(j.Stmt) {
		return diag.Fix{}, false
	}
	for _, sc := range p.scopes(j) {
		if sc.defined[name] || sc.notFoundHandler || sc.unsafeTrap || sc.unmapped {
			return diag.Fix{}, false
		}
		if sc.opaque && !strings.Contains(name, "/") {
			return diag.Fix{}, false
		}
	}
	e, ok := p.insert(j.Src, int(ce.Args[0].Pos().Offset()), "exec ")
	if !ok || !bytes.HasPrefix(p.Src[e.Start:], []byte(name)) {
		return diag.Fix{}, false // the parser's offsets are off (a NUL byte does that)
	}
	return diag.Fix{Message: "exec `" + path.Base(name) + "` so the background subshell becomes it instead of waiting for it", Edits: []diag.Edit{e}}, true
}

// kshBuiltins are the mksh builtins bash does not have (exec would run a
// program of the same name, if any, instead).
var kshBuiltins = knowledge.SetOf(`print whence integer autoload functions nameref rename realpath cat sleep`)

// braceFix turns `A && B &` into `A && { B & }`: only B runs in the
// background, A runs in the shell's foreground (so a `cd` or an assignment
// in A now changes the shell: that is what this style means, and why it is
// not the default). What follows the & on the same line is kept apart with
// `;` so the result stays valid bash: `A && B & C` → `A && { B & }; C`.
//
// B must be something bash runs as the background process itself (a simple
// command, possibly negated, or a pipeline); for `time B`, a subshell or a
// loop, `{ B & }` would fork a waiting subshell again, so there is no fix.
func (p *Fixer) braceFix(j *walk.Job, b *syntax.BinaryCmd) (diag.Fix, bool) {
	if !j.Stmt.Background || !j.Stmt.Semicolon.IsValid() || len(j.Stmt.Redirs) > 0 {
		return diag.Fix{}, false
	}
	switch y := b.Y.Cmd.(type) {
	case *syntax.CallExpr:
		if len(y.Args) == 0 || knowledge.Resolve(y.Args).Kind&knowledge.KQuick != 0 {
			// only assignments, or a builtin that ends at once (`cd app
			// && npm run dev || echo failed &`): what the job waits for
			// is before it, and would run in the foreground
			return diag.Fix{}, false
		}
	case *syntax.BinaryCmd:
		if y.Op != syntax.Pipe && y.Op != syntax.PipeAll {
			return diag.Fix{}, false
		}
	default:
		return diag.Fix{}, false
	}
	if j.Src.Offs != nil {
		for _, sc := range p.scopes(j) {
			if sc.unmapped {
				return diag.Fix{}, false
			}
		}
	}
	amp := int(j.Stmt.Semicolon.Offset())
	text := j.Src.Text
	if len(bytes.Trim(text[int(b.Y.End().Offset()):amp], " \t\\\n")) > 0 {
		// Only blanks and line continuations may stand between B and
		// the &: in dash's `{ A && B; } &` (walker.bareBraces) the
		// group's `; }` does, and ` }` after the & would close that
		// group, not a new one around B.
		return diag.Fix{}, false
	}
	closing := " }"
	blank := false
	for i := amp + 1; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			blank = true
			continue
		}
		if c == 0 {
			continue // mvdan.cc/sh skips NUL bytes (found by FuzzFixBrace)
		}
		if c == '#' && commentEndsInBackslash(text[i:]) {
			// `} #…\` followed by a newline: bash reads a comment, but
			// mvdan.cc/sh joins the next line into it after a `}`, so the
			// output would not parse there. Found by FuzzFixBrace.
			return diag.Fix{}, false
		}
		switch {
		case c == '#' && !blank:
			closing = " } " // `&#` starts a comment, `}#` would be a word
		case c != '\n' && c != '#' && c != ';' && c != ')':
			closing = " };"
		}
		break
	}
	open, ok1 := p.insert(j.Src, int(b.Y.Pos().Offset()), "{ ")
	cl, ok2 := p.insert(j.Src, amp+1, closing)
	if !ok1 || !ok2 || cl.Start < 1 || p.Src[cl.Start-1] != '&' || open.Start >= len(p.Src) || p.Src[open.Start] != text[b.Y.Pos().Offset()] {
		return diag.Fix{}, false // the parser's offsets are off (a NUL byte does that)
	}
	return diag.Fix{Message: "background only the last command: `A && { B & }`", Edits: []diag.Edit{open, cl}}, true
}

// serverBeforeTail reports whether an and-or list runs a known server or
// watcher before its last command (`cd app && npm run dev || notify-send
// failed &`): the job waits for it whatever is done to the last command.
func serverBeforeTail(c syntax.Command) bool {
	b, ok := c.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt {
		return false
	}
	var found bool
	knowledge.Inspect(b.X, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && knowledge.EndlessKind(knowledge.Resolve(ce.Args)) != "" {
			found = true
		}
		return !found
	})
	return found
}

// commentEndsInBackslash reports whether the comment at the start of text
// ends its line with a backslash.
func commentEndsInBackslash(text []byte) bool {
	end := bytes.IndexByte(text, '\n')
	if end < 0 {
		end = len(text)
	}
	return end > 0 && text[end-1] == '\\'
}

// insert makes an edit that inserts text before byte off of the walked
// text (off may be its length: insert at the end). In the outer source
// that is the offset itself. Inside a `bash -c '…'` string it must be a
// place where the inner text and the outer source agree: not between an
// escaping backslash and the character it escapes, not inside a line
// continuation, and the text must survive the quoting.
func (p *Fixer) insert(s *walk.Source, off int, text string) (diag.Edit, bool) {
	if s.Offs == nil {
		return diag.Edit{Start: off, End: off, New: text}, true
	}
	switch s.Quote {
	case '\'':
		if strings.ContainsRune(text, '\'') {
			return diag.Edit{}, false
		}
	case '"':
		if strings.ContainsAny(text, "\"\\$`!") {
			return diag.Edit{}, false
		}
	default:
		return diag.Edit{}, false // unquoted or nested twice: no safe place
	}
	n := len(s.Text)
	if off < 0 || off > n || n == 0 {
		return diag.Edit{}, false
	}
	// at is the outer offset just after the inner byte off-1 (or just
	// after the opening quote); the next outer byte must be the inner byte
	// off itself (or the closing quote).
	var at int
	if off == 0 {
		at = s.Outer(0)
		if at < 1 || at > len(p.Src) || p.Src[at-1] != s.Quote {
			return diag.Edit{}, false
		}
	} else {
		at = s.Outer(off-1) + 1
	}
	if off < n {
		if s.Outer(off) != at || at >= len(p.Src) || p.Src[at] != s.Text[off] {
			return diag.Edit{}, false
		}
	} else if at >= len(p.Src) || p.Src[at] != s.Quote {
		return diag.Edit{}, false
	}
	if off > 0 && p.Src[at-1] != s.Text[off-1] {
		return diag.Edit{}, false
	}
	return diag.Edit{Start: at, End: at, New: text}, true
}

// hasTrap reports whether the statement sets a trap, which exec would skip.
// mentionsTrap is a cheap first look for hasTrap: the job's text names
// trap at all (almost no job does).
func mentionsTrap(j *walk.Job) bool {
	s, e := int(j.Stmt.Pos().Offset()), int(j.Stmt.End().Offset())
	return e <= len(j.Src.Text) && s <= e && bytes.Contains(j.Src.Text[s:e], []byte("trap"))
}

func hasTrap(s *syntax.Stmt) bool {
	return knowledge.Holds(s, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "trap") })
}

// scope is what a script (the outer source, or the code of a `bash -c`
// string) says about the names its commands may resolve to.
type scope struct {
	// defined are the functions and aliases it defines: exec would bypass
	// them.
	defined map[string]bool
	// opaque: it sources files or evals code, which may define functions
	// we cannot see.
	opaque bool
	// notFoundHandler: it defines command_not_found_handle, which bash
	// calls for a missing command but exec does not.
	notFoundHandler bool
	// unsafeTrap: it sets a trap a subshell may run (see execFix).
	unsafeTrap bool
	// unmapped: the text of a `bash -c` string does not map byte for byte
	// onto the outer source (the parser drops NUL bytes from literals, so
	// the offsets literal() computes are off after one): no edit can be
	// placed in it.
	unmapped bool
}

// scopes returns the scopes that govern a job's tail: the outer script's,
// and for a job inside a `bash -c` or eval string also that code's.
func (p *Fixer) scopes(j *walk.Job) []*scope {
	if p.outerScope == nil {
		p.outerScope = scopeOf(p.File)
	}
	if j.Src.Offs == nil {
		return []*scope{p.outerScope}
	}
	if p.nestedScopes == nil {
		p.nestedScopes = map[*walk.Source]*scope{}
	}
	sc, ok := p.nestedScopes[j.Src]
	if !ok {
		// The walk parsed the text as the shell that runs it reads it.
		f, err := j.Src.File, error(nil)
		if f == nil {
			f, err = p.ParseNested(string(j.Src.Text), p.Cfg.Lang.Variant())
		}
		if err != nil {
			f, err = p.ParseNested(string(j.Src.Text), syntax.LangBash)
		}
		if err != nil {
			sc = &scope{opaque: true, unsafeTrap: true}
		} else {
			sc = scopeOf(f)
		}
		sc.unmapped = !p.faithful(j.Src)
		p.nestedScopes[j.Src] = sc
	}
	return []*scope{p.outerScope, sc}
}

// faithful reports whether every byte of a nested text is the outer byte
// its offset maps to, at increasing offsets.
func (p *Fixer) faithful(s *walk.Source) bool {
	prev := -1
	for i := 0; i < len(s.Text); i++ {
		o := s.Outer(i)
		if o <= prev || o >= len(p.Src) || p.Src[o] != s.Text[i] {
			return false
		}
		prev = o
	}
	return true
}

func scopeOf(f *syntax.File) *scope {
	sc := &scope{defined: map[string]bool{}}
	top := map[*syntax.CallExpr]bool{}
	for _, s := range f.Stmts {
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && !s.Background && !s.Coprocess {
			top[ce] = true
		}
	}
	knowledge.Inspect(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name == nil {
				break
			}
			sc.defined[n.Name.Value] = true
			if n.Name.Value == "command_not_found_handle" {
				sc.notFoundHandler = true
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			switch knowledge.WordLit(n.Args[0]) {
			case "alias":
				for _, a := range n.Args[1:] {
					// alias B='C -x': the name is in the word's first literal part.
					if l, ok := a.Parts[0].(*syntax.Lit); ok {
						if name, _, ok := strings.Cut(l.Value, "="); ok {
							sc.defined[name] = true
						}
					}
				}
			case "source", ".", "eval":
				sc.opaque = true
			case "trap":
				if !top[n] || !plainTrap(n.Args[1:]) {
					sc.unsafeTrap = true
				}
			}
		}
		return true
	})
	return sc
}

// plainTrap reports whether a top-level trap's conditions are literal and
// none of ERR, DEBUG or RETURN, which subshells may inherit.
func plainTrap(args []*syntax.Word) bool {
	for i, a := range args {
		v := knowledge.WordLit(a)
		if v == "" {
			if i == 0 {
				continue // the action
			}
			return false
		}
		if i == 0 {
			continue
		}
		switch strings.ToUpper(strings.TrimPrefix(v, "SIG")) {
		case "ERR", "DEBUG", "RETURN":
			return false
		}
	}
	return true
}
