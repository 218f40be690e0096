package walk

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// What the jobs builtin prints into a command substitution or a pipe,
// read as pids: `kill $(jobs -p)`, `jobs -p | xargs kill`, `for p in
// $(jobs -pr)`, and the pid column of the long listing, `jobs -l | awk
// '{print $2}' | xargs kill`. Measured under bash 5.2, zsh 5.9, dash
// 0.5.12 and mksh R59c, one to three jobs:
//
//	bash  [1]+    12 Running   server &     $2 is the pid
//	mksh  [1] +   12 Running   \server      $2 is the mark of %+ and %-
//	zsh   [1]  + 12 running    server       (prints nothing there)
//	dash  [1] + 12 Running                  (prints nothing there)

// jobsListing is a statement that prints the pids of the shell's jobs:
// `jobs -p` (or -pr…) or `jobs -l | awk '{print $2}'`, alone or through
// filters that print nothing when they read nothing (`jobs -p | tr '\n'
// ' '`).
type jobsListing struct {
	opts   string // the option letters given to jobs
	column bool   // the pids are the long listing's second column
	named  bool   // jobs names the jobs to list (`jobs -p %1`)
}

// jobsListed reads s as a jobsListing, if it is one. `jobs -p || true`
// lists what jobs -p does: the builtin does not fail, and true prints
// nothing (cleanup functions write `pids="$(jobs -p || true)"` under set
// -e; zsh and dash list nothing there either).
func jobsListed(s *syntax.Stmt) (l jobsListing, ok bool) {
	if bc, isBin := s.Cmd.(*syntax.BinaryCmd); isBin && bc.Op == syntax.OrStmt && printsNothing(bc.Y) {
		s = bc.X
	}
	for {
		bc, isBin := s.Cmd.(*syntax.BinaryCmd)
		if !isBin || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
			break
		}
		if _, isCall := bc.X.Cmd.(*syntax.CallExpr); isCall && printsColumnTwo(bc.Y) {
			l.column = true
		} else if !silentFilter(bc.Y) {
			return l, false
		}
		s = bc.X
	}
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) < 2 || knowledge.WordLit(ce.Args[0]) != "jobs" || s.Background {
		return l, false
	}
	for _, a := range ce.Args[1:] {
		if o := knowledge.WordLit(a); len(o) > 1 && o[0] == '-' && !l.named {
			l.opts += o[1:]
		} else {
			l.named = true
		}
	}
	want := "p"
	if l.column {
		want = "l"
	}
	return l, strings.Contains(l.opts, want)
}

// printsNothing reports whether s is `true` or `:`, which print nothing.
func printsNothing(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 1 || len(s.Redirs) > 0 || s.Background {
		return false
	}
	v := knowledge.WordLit(ce.Args[0])
	return v == "true" || v == ":"
}

// printsColumnTwo reports whether a pipeline element is awk printing the
// second field of each line, `awk '{print $2}'`: it prints nothing when
// it reads nothing.
func printsColumnTwo(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || len(ce.Args) != 2 {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	prog := strings.Join(strings.Fields(knowledge.Value(ce.Args[1])), "")
	return r.Name == "awk" && !r.Wrapped && prog == "{print$2}"
}

// listedJobs are the jobs whose pids a jobsListing prints in a command
// substitution or a pipe; known is false where it may print any of them
// (the walk then takes it for all of them).
func (w *walker) listedJobs(l jobsListing) (js []*Job, known bool) {
	d := w.sh.d
	switch {
	case !d.JobsP:
		return nil, true // zsh, dash: nothing in $( ) or a pipe
	case strings.Trim(l.opts, d.JobsOptions) != "":
		return nil, true // an option it does not take: it fails (mksh's jobs -pr)
	case strings.ContainsAny(l.opts, "ns"):
		// -s lists the stopped jobs, which without job control there are
		// none of; -n those whose state changed since the shell last
		// told, which a running job's has not (bash, mksh)
		return nil, true
	case l.column && d.JobsMarkField && !l.named:
		// `[1] + 12 Running`: of the current and the previous job awk
		// prints the mark, not the pid
		marked := append(w.jobSpec("%%"), w.jobSpec("%-")...)
		for _, j := range w.sh.jobs {
			if w.inTable(j) && !slices.Contains(marked, j) {
				js = append(js, j)
			}
		}
		return js, true
	}
	return nil, false
}

// quietFilters print nothing when their input is empty (not wc, which
// prints 0, nor awk, whose BEGIN and END blocks run anyway).
var quietFilters = knowledge.SetOf(`cat tr sort uniq head tail grep egrep fgrep cut sed paste tac rev fmt fold column`)

// silentFilter reports whether a pipeline element prints nothing when it
// reads nothing: a quiet filter, or xargs running echo (which prints an
// empty line: no pid).
func silentFilter(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background {
		return false
	}
	r := knowledge.Resolve(ce.Args)
	if r.Wrapped {
		return false
	}
	if r.Name == "xargs" {
		for _, a := range r.Args {
			if l := knowledge.WordLit(a); !strings.HasPrefix(l, "-") {
				return l == "echo"
			}
		}
		return true
	}
	return quietFilters.Has(r.Name)
}
