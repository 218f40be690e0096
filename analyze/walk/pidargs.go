package walk

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What one argument of kill, wait or disown can name. A job is a child of
// the shell that runs the command, started after the caller: its pid can
// only reach an argument through $!, a variable the command assigns, a
// file the command (or a program it runs) writes, or a program that looks
// processes up (pgrep). An argument made only of things that cannot carry
// it names none of the jobs, and one that expands to nothing is no
// argument at all (an unquoted one: `wait $unset` waits for every job).

// argJobs resolves one argument word that is not a literal. known is false
// when it could name any job (a pid from somewhere the walk does not
// follow); empty is true when it expands to nothing for sure.
func (w *walker) argJobs(a *syntax.Word) (named []*Job, known, empty bool) {
	empty = true
	opaque := false // a part whose value the walk does not know
	var visit func(n syntax.Node) bool
	visit = func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if n.Value != "" {
				empty = false
			}
			return false
		case *syntax.SglQuoted:
			if n.Value != "" {
				empty = false
			}
			return false
		case *syntax.ParamExp:
			if n.Param == nil && reshapesOnly(n) {
				knowledge.Inspect(n.NestedParam, visit) // ${(f)"$(jobs -p)"}: what the nested one names
				return false
			}
			if n.Param == nil {
				empty, opaque = false, true
				return true
			}
			name := n.Param.Value
			if p, ok := w.posJobs(n); ok {
				// $1, "$@" inside a function call: what the call's
				// arguments named (see walk_args.go)
				known = known || p.known
				if !p.known {
					empty, opaque = false, true
					return true
				}
				if p.joined && !w.splits(n, quotedIn(a, n)) {
					empty = false
					return false // one argument "pid1 pid2": illegal pid
				}
				if !p.empty {
					empty = false
					named = append(named, p.jobs...)
				}
				return false
			}
			if name == "!" {
				named = append(named, w.sh.lasts()...)
				known, empty = true, false
				return true
			}
			if js, ok := w.sh.pidVars[name]; ok {
				known, empty = true, false
				if js, ok := w.pidElement(n, js); ok {
					named = append(named, js...)
					return false
				}
				if w.sh.joined[name] && !w.splits(n, quotedIn(a, n)) {
					return true // one argument "pid1 pid2" (zsh, or quoted): illegal pid
				}
				named = append(named, js...)
				return true
			}
			if (plainParam(n) || elementsParam(n)) && (w.sh.empty[name] || isName(name) && (!w.mayBeAssigned(name) || w.unassignedYet(name))) {
				return false // holds nothing (see mayBeAssigned)
			}
			empty, opaque = false, true
			return true // ${pid:-$!}: what is inside may still name one
		case *syntax.CmdSubst:
			js, ok, none := w.substJobs(n)
			if ok && none {
				return false // prints nothing
			}
			if ok {
				known, empty = true, false
				named = append(named, js...)
				return false
			}
			named = append(named, js...) // a pid file with these and maybe others
			empty, opaque = false, true
			return true // $(echo $!) names $!
		}
		empty, opaque = false, true
		return true
	}
	knowledge.Inspect(a, visit)
	// A part that holds nothing settles the word when the rest is text
	// (`"$UNSET "` names no job), but not after a %: `%$unset` is `%`,
	// the current job.
	if l, ok := a.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "%") {
		opaque = true
	}
	return named, known || empty || !opaque, empty
}

// splits reports whether the shell splits the value of pe into words:
// unquoted where the shell splits words, and in zsh wherever ${=name}
// asks for it (`kill ${=pids}`, also quoted), unless ${==name} turns
// it off, or ${(z)…} (quoted too) or an unquoted ${(s: :)…} does.
func (w *walker) splits(pe *syntax.ParamExp, quoted bool) bool {
	switch pe.Split {
	case syntax.OptOn:
		return true
	case syntax.OptOff:
		return false
	}
	if pe.Flags != nil && (strings.Contains(pe.Flags.Value, "z") || !quoted && splitsAtSpaces(pe.Flags.Value)) {
		return true // zsh: ${(z)pids}, also quoted; ${(s: :)pids}
	}
	return w.splitsWords() && !quoted
}

// pidElement is what an expansion of a pid array names when it picks
// elements: `${pids[1]}` one job, and a bare `$pids` the first in bash and
// mksh (zsh expands the whole array). Arrays count from 0, zsh's from 1
// (`${pids[0]}` is empty there); -1 is the last, but in mksh, which
// takes no negative index, none. ok is false when the
// expansion names every element, or which one is not known.
func (w *walker) pidElement(pe *syntax.ParamExp, js []*Job) (named []*Job, ok bool) {
	name := pe.Param.Value
	if w.sh.kshArrays && pe.Short && pe.Index != nil {
		return nil, true // zsh's KSH_ARRAYS: `$pids[1]` is the text PID[1]
	}
	if !w.sh.arrays[name] || pe.Excl || pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil {
		return nil, false
	}
	i := 0 // a bare $pids
	if pe.Index != nil {
		lit := ""
		switch x := pe.Index.(type) {
		case *syntax.Word:
			lit = knowledge.WordLit(x)
		case *syntax.UnaryArithm:
			if w, ok := x.X.(*syntax.Word); ok && x.Op == syntax.Minus && !x.Post {
				lit = "-" + knowledge.WordLit(w) // ${pids[-1]}
			}
		}
		if lit == "@" || lit == "*" {
			return nil, false
		}
		n, err := strconv.Atoi(lit)
		if err != nil {
			return nil, false
		}
		i = n
		if w.arraysFromOne() && n > 0 {
			i = n - 1
		} else if w.arraysFromOne() && n == 0 {
			return nil, true
		}
		if n < 0 && w.sh.d.NoNegativeIndex {
			return nil, true // mksh: ${pids[-1]} is empty
		} else if n < 0 {
			i = len(js) + n
		}
	} else if w.arraysFromOne() {
		return nil, false // zsh: $pids is every element
	}
	if i < 0 || i >= len(js) {
		return nil, true
	}
	return js[i : i+1], true
}

// splitsAtSpaces reports whether zsh's expansion flags split the value
// at a (s:sep:) separator holding a space, where pids joined with spaces
// meet.
func splitsAtSpaces(flags string) bool {
	i := strings.IndexByte(flags, 's')
	if i < 0 || i+1 >= len(flags) {
		return false
	}
	sep, _, _ := strings.Cut(flags[i+2:], flags[i+1:i+2])
	return strings.Contains(sep, " ")
}

// reshapesOnly reports whether pe is a zsh nested expansion whose flags
// only split or join what the inner one gives (`${(f)"$(jobs -p)"}`,
// `${(s: :)…}`, `${(j: :)…}`): empty inside, it is empty too.
func reshapesOnly(pe *syntax.ParamExp) bool {
	if pe.NestedParam == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil || pe.Length || pe.Width || pe.Excl {
		return false
	}
	return reshapingFlags(pe.Flags)
}

// reshapingFlags reports whether zsh's expansion flags (nil: none) only
// split or join the value (f, F, @, z, 0, s:sep:, j:sep:).
func reshapingFlags(flags *syntax.Lit) bool {
	if flags == nil {
		return true
	}
	f := flags.Value
	if i := strings.IndexAny(f, "sj"); i >= 0 {
		f = f[:i] // s:sep: and j:sep: take a separator
	}
	return strings.Trim(f, "fF@=z0") == ""
}

// isName reports whether s is a variable name (not $$, $1, $@…, which the
// shell sets).
func isName(s string) bool {
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// plainParam reports whether pe is just $name or ${name} (or zsh's
// ${(f)name}, which only splits it): nothing that gives text when the
// variable is unset.
func plainParam(pe *syntax.ParamExp) bool {
	return pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && pe.Index == nil && !pe.Length && !pe.Excl && !pe.Width && reshapingFlags(pe.Flags) && pe.NestedParam == nil
}

// elementsParam reports whether pe is an array's elements as they are,
// `${pids[@]}`, `${pids[*]}` or `${pids[0]}`: nothing when the array holds
// nothing (zsh's and mksh's `mapfile -t pids` assigns none: there is no
// mapfile).
func elementsParam(pe *syntax.ParamExp) bool {
	if pe.Index == nil {
		return false
	}
	x := *pe
	x.Index = nil
	return plainParam(&x)
}

// hasQuotes reports whether a word has quotes, which keep an argument that
// expands to nothing as one empty argument.
func hasQuotes(a *syntax.Word) bool {
	for _, p := range a.Parts {
		switch p.(type) {
		case *syntax.DblQuoted, *syntax.SglQuoted:
			return true
		}
	}
	return false
}

// substJobs resolves a command substitution used as a pid: the output of
// jobs -p (nothing, where jobs -p lists nothing in a substitution), a pid
// file, or pgrep. ok is false for any other command; empty: it prints
// nothing.
func (w *walker) substJobs(cs *syntax.CmdSubst) (js []*Job, ok, empty bool) {
	if len(cs.Stmts) != 1 {
		return nil, false, false
	}
	s := cs.Stmts[0]
	if l, isJobs := jobsListed(s); isJobs {
		js, known := w.listedJobs(l)
		return js, known, known && len(js) == 0
	}
	if name, isRead := w.readsFile(s); isRead {
		if s.Cmd == nil && !w.sh.d.SubstReadsFile {
			return nil, true, true // dash: $(< f) prints nothing
		}
		js, ok = w.pidFileJobs(name)
		return js, ok, ok && len(js) == 0
	}
	if m, judged := w.lookedUp(s); judged && len(m.tails) == 0 && !m.every {
		return m.kills, true, len(m.kills) == 0
	}
	return nil, false, false
}

// lookedUp reads a statement that looks processes up and prints their
// pids, pgrep or a process listing (see kill_pslist.go), as what it finds;
// judged is false for any other, and for one the walk cannot judge.
func (w *walker) lookedUp(s *syntax.Stmt) (m nameMatch, judged bool) {
	if s.Background || s.Negated {
		return m, false
	}
	if ce, isCall := s.Cmd.(*syntax.CallExpr); isCall {
		if r := w.p.resolveCall(ce); r.Name == "pgrep" && !r.Wrapped {
			return w.byName(r)
		}
	}
	return w.psListed(s)
}

// selfMatch reports whether `pgrep -f PATTERN` (m) finds the shell that
// runs the command line: started as `sh -c SCRIPT`, its own command line
// holds the script, and with it the text of every job the script starts.
// pgrep lists pids in order, the shell's first, so `kill $(pgrep -f
// PATTERN)` kills the shell before it gets to the job.
func (w *walker) selfMatch(m nameMatch) bool {
	if !m.full || w.p.Cfg.ScriptFile || m.newest && len(m.kills)+len(m.tails) > 0 {
		return false // (-n: a job it finds is newer than the shell)
	}
	return m.finds("sh -c " + string(w.p.Src))
}

// killsShell reports whether the kill argument a is `$(pgrep -f PATTERN)`
// that finds the shell itself (see selfMatch).
func (w *walker) killsShell(a *syntax.Word) bool {
	cs, ok := knowledge.SolePart(a).(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	m, judged := w.lookedUp(cs.Stmts[0])
	return judged && w.selfMatch(m)
}

// compilePattern compiles a pkill pattern (an extended regular expression,
// in which . matches a newline too). Compiled patterns are kept: an agent
// repeats its `pkill -f "vite"` far more often than it writes a new one,
// and compiling costs more than analysing the rest of the command.
func compilePattern(p string) (*regexp.Regexp, error) {
	patterns.Lock()
	defer patterns.Unlock()
	if c, ok := patterns.m[p]; ok {
		return c.rx, c.err
	}
	if len(patterns.m) >= maxPatterns || patterns.m == nil {
		patterns.m = make(map[string]compiled, 64) // (a bound, not an LRU: enough for a session's patterns)
	}
	rx, err := regexp.Compile("(?s)" + p)
	patterns.m[p] = compiled{rx, err}
	return rx, err
}

const maxPatterns = 512

var patterns struct {
	sync.Mutex
	m map[string]compiled
}

type compiled struct {
	rx  *regexp.Regexp
	err error
}
