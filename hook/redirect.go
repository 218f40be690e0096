package hook

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// redirectJobs sends the output of every background job that still holds
// the caller's output to a log file of its own: `server & x` becomes
// `server >LOG 2>&1 & x`, and `A && B & x` (whose background subshell
// holds the output too) becomes `{ A && B; } >LOG 2>&1 & x`; a job inside
// a nested string (`bash -c "srv & x"`) is wrapped the same way in place.
// Each job's pid is written beside its log (pidFile): `server >LOG 2>&1 &
// echo $! >PID; x`. Where the agent kills the tool's process group
// (Options.GroupKilled), each job starts in a process group of its own
// that outlives the command (group.go: setsid before a lone program, else
// job control around its start), stopped by a kill of that group. It
// returns the logs and, for each, the command that stops its job.
// Jobs without an & (coproc, setsid -f), or no Options.LogFile: an error.
func redirectJobs(src []byte, opt Options) (*redirected, error) {
	res, err := analyze.Run(src, opt.analyzeOpts()...)
	if err != nil {
		return nil, err
	}
	if opt.LogFile == nil {
		return nil, errors.New("no log file to send the output to")
	}
	r := &redirected{}
	group := newGrouping(src, opt)
	var edits []analyze.Edit
	seen := map[int]bool{} // a function's job is listed once per call
	for _, j := range res.Jobs {
		if !j.HoldsOutput || j.Resolved || j.Amp >= 0 && seen[j.Amp] {
			continue
		}
		seen[j.Amp] = true
		if j.Amp < 0 {
			return nil, errors.New("a background job inside a coprocess, a nested string that is not simply quoted, or a string of a string holds the output")
		}
		log := opt.LogFile(len(r.logs))
		if quote(log) != log {
			// Spliced into the command, also inside a job's quoted
			// `bash -c '…'` string, the name must read the same unquoted.
			return nil, fmt.Errorf("the log file name %q needs quoting", log)
		}
		r.logs = append(r.logs, log)
		monitor, prefix := group.how(j)
		if monitor || prefix != "" {
			r.stops = append(r.stops, stopGroup(pidFile(log)))
		} else {
			r.stops = append(r.stops, stopJob(pidFile(log)))
		}
		if prefix != "" {
			edits = append(edits, analyze.Edit{Start: j.Program, End: j.Program, New: prefix})
		}
		// After the & (or zsh's two-byte &! and &|) the job's pid goes
		// beside its log, so that it can be stopped: nothing the hook
		// leaves running is unnamed. In a double-quoted nested string
		// the outer shell must not expand $!.
		after := j.Amp + 1
		if j.Disown {
			after++
		}
		bang := "$!"
		if j.Quote == '"' {
			bang = `\$!`
		}
		rec := " echo " + bang + " >" + pidFile(log)
		if monitor {
			rec += "; set +m"
		}
		if rest, _, _ := strings.Cut(string(src[after:]), "\n"); strings.TrimSpace(rest) != "" {
			rec += ";" // before `}`, `fi`, `done` or the next command
		}
		edits = append(edits, analyze.Edit{Start: after, End: after, New: rec})
		r.jobs = append(r.jobs, [2]int{j.Start, after})
		// mksh keeps what a compound's (or a function call's)
		// redirections replace, and what its exec replaces first, in
		// the job's shell, which waits for the job: only a job that is
		// one program takes `>LOG 2>&1` there (see execOpen).
		if j.List || monitor || opt.Lang == analyze.LangMksh && j.Program < 0 {
			// A pipeline or list runs in a subshell whose pid is $!; its
			// parts are that subshell's children, which the stop command
			// (stopJob) reaches. The output is redirected inside the
			// group with exec: mksh, redirecting a backgrounded group
			// from outside, leaks the caller's stdout into the job (its
			// saved copy, fd 251) and the tool waits for it.
			end := j.Amp
			for end > j.Start && (src[end-1] == ' ' || src[end-1] == '\t') {
				end--
			}
			edits = append(edits,
				analyze.Edit{Start: j.Start, End: j.Start, New: execOpen(log, opt.Lang, monitor)},
				analyze.Edit{Start: end, End: j.Amp, New: "; } "})
		} else {
			edits = append(edits, analyze.Edit{Start: j.Amp, End: j.Amp, New: ">" + log + " 2>&1 "})
		}
	}
	if len(edits) == 0 {
		return nil, errors.New("no background job to redirect")
	}
	if r.out, err = rewrite.Apply(src, edits); err != nil {
		return nil, err
	}
	if fs, err := analyze.Analyze(r.out, opt.analyzeOpts()...); err != nil || analyze.Verdict(fs) == analyze.Error {
		return nil, errors.New("the output would still be held")
	}
	for i, span := range r.jobs {
		r.jobs[i] = [2]int{shift(edits, span[0], false), shift(edits, span[1], true)}
	}
	return r, nil
}

// execOpen opens the group that redirects a job's output from inside:
// `{ exec >LOG 2>&1; JOB; } &`. Under job control (monitor: bash, mksh,
// see grouping) the job reads /dev/null, as without it. mksh's exec keeps a copy of the first
// descriptor it replaces (on fd 10) for the life of the job's shell,
// which waits for JOB: there stdin goes first, which a background list
// has as /dev/null in mksh already (as in bash and dash; not in zsh,
// which keeps the caller's), so that the copy it keeps is not the
// caller's stdout. Measured under mksh R59 started with fds 0-2 only:
// `{ exec >LOG 2>&1; sleep 3 | cat; } & echo x` held the caller 3 s, with
// `</dev/null` first it returned at once (corpus mksh-exec-stdin-first-*).
func execOpen(log string, lang analyze.Lang, monitor bool) string {
	open := "{ exec >" + log + " 2>&1; "
	switch {
	case lang == analyze.LangMksh:
		open = "{ exec </dev/null >" + log + " 2>&1; "
	case monitor:
		open = "{ exec >" + log + " 2>&1 </dev/null; "
	}
	if monitor {
		open = "set -m; " + open
	}
	return open
}

// redirected is a command whose jobs redirectJobs sent to log files.
type redirected struct {
	out         []byte
	logs, stops []string // each job's log, and the command that stops it
	// jobs are the spans in out of each job with what was added to it
	// (the pid record, the group it starts in).
	jobs [][2]int
}

// beyond drops the findings about the jobs the hook itself recorded: each
// is named with its log and stop command, so "unmanaged", "runs in a new
// session" or "set -m turns on job control" would tell the model the
// opposite of what it was told.
func (r *redirected) beyond(fs []analyze.Finding) []analyze.Finding {
	var kept []analyze.Finding
	for _, f := range fs {
		if !slices.ContainsFunc(r.jobs, func(s [2]int) bool { return s[0] <= f.Start.Offset && f.Start.Offset < s[1] }) {
			kept = append(kept, f)
		}
	}
	return kept
}

// shift moves offset o of the source to where it is after edits; text
// inserted right at o counts as before it when past.
func shift(edits []analyze.Edit, o int, past bool) int {
	n := o
	for _, e := range edits {
		if e.End < o || e.End == o && (past || e.Start < e.End) {
			n += len(e.New) - (e.End - e.Start)
		}
	}
	return n
}
