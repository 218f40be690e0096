package walk

import (
	"path"
	"strings"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// script is shell code found in the source: its text, the source offset of
// each byte (plus one for its end) and the quoting it sits in.
type script struct {
	code  string
	offs  []int
	quote byte
}

// fedScript is the script a pipeline's left side prints, when it is a
// literal a shell on the right would run: `echo 'cmd &' | bash`,
// `printf 'cmd &\n' | sh`, `cat <<'EOF' | bash`. Escapes that printf (and
// echo -e) interpret become the characters they stand for; the script then
// no longer matches its source byte for byte, so no fix is offered in it.
func fedScript(s *syntax.Stmt) *script {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) > 0 && stdinDoc(s.Redirs) == nil {
		return nil
	}
	r := knowledge.Resolve(ce.Args)
	args := r.Args
	switch r.Name {
	case "echo":
		escapes := false
		for len(args) > 1 {
			o := knowledge.WordLit(args[0])
			if o != "-n" && o != "-e" && o != "-E" && o != "-ne" && o != "-en" {
				break
			}
			escapes = strings.Contains(o, "e")
			args = args[1:]
		}
		return wordScript(args, escapes)
	case "printf":
		if len(args) == 1 && !strings.Contains(knowledge.WordLit(args[0])+knowledge.Value(args[0]), "%") {
			return wordScript(args, true)
		}
	case "cat":
		if len(args) == 0 {
			if doc := stdinDoc(s.Redirs); doc != nil {
				return wordScript([]*syntax.Word{doc}, false)
			}
		}
	}
	return nil
}

// wordScript is the script one literal word holds.
func wordScript(args []*syntax.Word, escapes bool) *script {
	if len(args) != 1 {
		return nil
	}
	code, offs, ok := knowledge.Literal(args[0])
	if !ok {
		return nil
	}
	sc := &script{code: code, offs: offs, quote: quoteOf(args[0])}
	if escapes && strings.IndexByte(code, '\\') >= 0 {
		sc.code, sc.offs = unescape(code, offs)
		sc.quote = 0
	}
	return sc
}

// unescape interprets the backslash escapes printf knows for the
// characters a script is made of (\n, \t, \\, \', \"); the byte produced
// keeps the offset of its backslash.
func unescape(code string, offs []int) (string, []int) {
	var b strings.Builder
	out := make([]int, 0, len(offs))
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c == '\\' && i+1 < len(code) {
			switch code[i+1] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case '\\', '\'', '"':
				c = code[i+1]
			default:
				b.WriteByte(c)
				out = append(out, offs[i])
				continue
			}
			b.WriteByte(c)
			out = append(out, offs[i])
			i++
			continue
		}
		b.WriteByte(c)
		out = append(out, offs[i])
	}
	return b.String(), append(out, offs[len(code)])
}

// writtenScript is the script file a command line writes, when it writes
// a literal one over a file named by a literal: `cat > run.sh <<'EOF'`,
// `echo 'server &' > run.sh`, `printf '…' > run.sh`. A later `sh run.sh`
// runs it (see walker.runWritten).
func writtenScript(s *syntax.Stmt) (name string, sc *script) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) == 0 || s.Background || len(ce.Args) == 0 {
		return "", nil
	}
	switch knowledge.WordLit(ce.Args[0]) {
	case "echo", "printf", "cat", "command", "builtin":
	default:
		return "", nil // only these print a script (see fedScript)
	}
	var rest []*syntax.Redirect
	for _, r := range s.Redirs {
		if (r.Op == syntax.RdrOut || r.Op == syntax.ClbOut) && (r.N == nil || r.N.Value == "1") {
			name = knowledge.Value(r.Word)
			continue
		}
		rest = append(rest, r)
	}
	if name == "" {
		return "", nil
	}
	fed := *s
	fed.Redirs = rest
	if sc = fedScript(&fed); sc == nil {
		return "", nil
	}
	return path.Clean(name), sc
}

// runsCode reports whether the command is a shell or eval whose code the
// walk goes through (see nestedShell, runWrittenFile): a literal -c string
// or eval (runsLiteral), a literal here-document or here-string on its
// stdin, a script a pipeline's left side prints to it (w.nest.fed), or a script
// file the command line wrote. It lasts as long as that code, which the
// walk counts, and no longer: `bash -s <<'EOF' & … EOF` whose script only
// starts a redirected job is bash for a moment, not a job that holds the
// caller's output.
func (w *walker) runsCode(r knowledge.Resolved, s *syntax.Stmt) bool {
	if runsLiteral(r) {
		return true
	}
	if r.Timeout || w.nest.depth >= maxNested {
		return false
	}
	if r.Name == "script" {
		// script -c: as long as its shell (see terminalShell)
		cmd := scriptCommand(r.Args)
		return cmd != nil && literalWord(cmd)
	}
	if r.Head == nil {
		return false
	}
	if head := knowledge.WordLit(r.Head); strings.Contains(head, "/") && w.p.writtenScript(head) != nil {
		return true // ./run.sh
	}
	if dialect.DialectOfProgram(r.Name) == nil {
		return false
	}
	script, cflag, sflag, operand := dialect.ShellArgs(r.Args)
	switch {
	case script != nil || cflag:
		return false // a -c string that is not a literal
	case operand != nil && !sflag:
		return w.p.writtenScript(knowledge.Value(operand)) != nil // sh run.sh
	}
	if doc := stdinDoc(s.Redirs); doc != nil {
		_, _, ok := knowledge.Literal(doc)
		return ok
	}
	return w.nest.fed != nil
}

// readsScript reports whether s is a shell that reads its script from its
// stdin (`… | sh`, `sh -s`, `bash <<'EOF'`), not from -c or a file.
func readsScript(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	if dialect.DialectOfProgram(r.Name) == nil {
		return false
	}
	script, cflag, sflag, operand := dialect.ShellArgs(r.Args)
	return script == nil && !cflag && (operand == nil || sflag)
}
