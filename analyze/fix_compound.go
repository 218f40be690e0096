package analyze

import "mvdan.cc/sh/v3/syntax"

// compoundFixes returns the behaviour-preserving fix for a compound
// background job in the configured style, or nil when none is provably
// safe (the finding then stays, with its suggestion).
func (p *pass) compoundFixes(j *job) []Fix {
	if p.cfg.style == StyleBrace {
		if b, ok := j.stmt.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
			if f, ok := p.braceFix(j, b); ok {
				return []Fix{f}
			}
			return nil
		}
	}
	if f, ok := p.execFix(j); ok {
		return []Fix{f}
	}
	return nil
}

// execFix turns the job's tail command B into `exec B`. Valid only when B
// is the last thing the subshell runs, names a program literally, and is
// not a builtin, keyword, alias or function (exec would bypass those), and
// when the subshell has no EXIT trap that exec would skip.
func (p *pass) execFix(j *job) (Fix, bool) {
	if j.tail == nil {
		return Fix{}, false
	}
	ce, ok := j.tail.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return Fix{}, false
	}
	name := ce.Args[0].Lit()
	if name == "" || builtins[name] || p.definedNames()[name] || j.trap {
		return Fix{}, false
	}
	at := int(ce.Args[0].Pos().Offset())
	e, ok := j.src.edit(at, at, "exec ")
	if !ok {
		return Fix{}, false
	}
	return Fix{Message: "exec `" + name + "` so the background subshell becomes it instead of waiting for it", Edits: []Edit{e}}, true
}

// braceFix turns `A && B &` into `A && { B & }`: only B runs in the
// background, A runs in the shell's foreground. What follows the & on the
// same line is kept apart with `;` so the result stays valid bash.
func (p *pass) braceFix(j *job, b *syntax.BinaryCmd) (Fix, bool) {
	if !j.stmt.Background || !j.stmt.Semicolon.IsValid() || len(j.stmt.Redirs) > 0 {
		return Fix{}, false
	}
	amp := int(j.stmt.Semicolon.Offset())
	text := j.src.text
	closing := " }"
	for i := amp + 1; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			continue
		}
		if c != '\n' && c != '#' && c != ';' && c != ')' {
			closing = " };"
		}
		break
	}
	open, ok1 := j.src.edit(int(b.Y.Pos().Offset()), int(b.Y.Pos().Offset()), "{ ")
	cl, ok2 := j.src.edit(amp+1, amp+1, closing)
	if !ok1 || !ok2 {
		return Fix{}, false
	}
	return Fix{Message: "background only the last command: `A && { B & }`", Edits: []Edit{open, cl}}, true
}

// definedNames are the functions and aliases the script defines: exec
// would bypass them, so they cannot be exec'd. The walk collects them.
func (p *pass) definedNames() map[string]bool { return p.defined }
