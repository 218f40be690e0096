package walk

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// One argument, several pids. kill, wait and disown take one pid per
// argument, and refuse an argument that is more than a number: bash says
// "arguments must be process or job IDs", dash "Illegal number", zsh and
// mksh "illegal pid". So `kill "$API $WEB"`, `kill "$(jobs -p)"` with two
// jobs, or `kill "$a,$b"` stop nothing, and both jobs run on; `kill $a$b`
// names a third number. Blanks around one pid pass where the shell's
// number parser skips them (dialect.pidLead, pidTrail): `kill "$PID
// $UNSET"` stops the job in bash and dash, and not in mksh or zsh.

// pidsInArg is what one argument word puts together: how many pids of
// jobs the walk knows, whether other text (blanks apart) goes with them,
// and the blanks before the first pid and after the last.
type pidsInArg struct {
	pids        int
	text        bool
	lead, trail string
}

// joinsPids reports whether the argument a of kill, wait or disown is one
// the shell refuses because it joins a pid with more (see above). A
// leading - (a process group) or % (a job spec) is the builtin's own
// syntax, and is left to the callers.
func (w *walker) joinsPids(a *syntax.Word) bool {
	if len(a.Parts) == 0 {
		return false
	}
	if l, ok := a.Parts[0].(*syntax.Lit); ok && (strings.HasPrefix(l.Value, "-") || strings.HasPrefix(l.Value, "%")) {
		return false
	}
	in := w.pidsIn(a)
	switch {
	case in.pids >= 2:
		return true
	case in.pids == 1:
		d := w.sh.d
		return in.text || in.lead != "" && !d.PidLead || strings.Trim(in.trail, d.PidTrail) != ""
	}
	return false
}

// pidsIn looks at the parts of a word one by one. An expansion counts as
// a pid when it surely holds one of the walk's jobs ($!, a variable bound
// to jobs, a positional parameter a call bound); one whose value the walk
// does not know counts for nothing, since it may be empty ("$PID $EXTRA").
// A quoted substitution that prints several jobs' pids joins them with
// newlines ("$(jobs -p)").
func (w *walker) pidsIn(a *syntax.Word) pidsInArg {
	var in pidsInArg
	var parts func(ps []syntax.WordPart, quoted bool)
	parts = func(ps []syntax.WordPart, quoted bool) {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				parts(p.Parts, true)
			case *syntax.Lit:
				in.literal(p.Value)
			case *syntax.SglQuoted:
				in.literal(p.Value)
			case *syntax.ParamExp:
				in.pids += w.paramPids(p, quoted)
			case *syntax.CmdSubst:
				js, ok, empty := w.substJobs(p)
				switch {
				case !ok && quoted:
					in.pids += w.tablePids(p) // "$(jobs -p)": one line per job
				case !ok || empty:
				case quoted:
					in.pids += len(slices.Compact(slices.Clone(js)))
				default:
					in.pids++ // split into words, but joined with what is around
				}
			}
		}
	}
	parts(a.Parts, false)
	return in
}

func (in *pidsInArg) literal(s string) {
	blanks := strings.Trim(s, " \t\n") == ""
	switch {
	case !blanks:
		in.text = true
	case in.pids == 0:
		in.lead += s
	default:
		in.trail += s
	}
}

// paramPids is how many pids an expansion surely puts into an argument:
// 1 for one pid, 2 for a variable of pids joined into one string that the
// shell does not split there (see shell.joined), 0 when not known.
func (w *walker) paramPids(pe *syntax.ParamExp, quoted bool) int {
	if pe.Param == nil || !plainParam(pe) {
		return 0
	}
	name := pe.Param.Value
	if p, ok := w.posJobs(pe); ok {
		switch {
		case !p.known || p.empty || len(p.jobs) == 0:
			return 0
		case p.joined && !w.splits(pe, quoted):
			return 2
		}
		return 1
	}
	if name == "!" {
		return min(len(w.sh.lasts()), 1)
	}
	js, ok := w.sh.pidVars[name]
	switch {
	case !ok || len(js) == 0 || w.sh.arrays[name]:
		return 0
	case w.sh.joined[name] && !w.splits(pe, quoted):
		return 2
	}
	return 1
}

// tablePids is how many pids a substitution that lists the whole job
// table (bash's and mksh's `jobs -p`) surely prints: the jobs in the
// table that were started for sure (a job started under a condition may
// not be there).
func (w *walker) tablePids(cs *syntax.CmdSubst) int {
	if len(cs.Stmts) != 1 {
		return 0
	}
	if _, isJobs := jobsListed(cs.Stmts[0]); !isJobs {
		return 0
	}
	n := 0
	for _, j := range w.sh.jobs {
		if w.surelyStarted(j) && w.inTable(j) {
			n++
		}
	}
	return n
}
