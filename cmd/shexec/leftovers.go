//go:build linux || darwin || freebsd

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/exec"
	"github.com/shguard/shguard/rewrite"
)

// briefWait bounds how long leftovers of brief work are waited for: the
// analyzer calls a background statement brief when it ends by itself within
// a moment (a quick builtin, a sleep under a second), so a second is its
// whole life.
const briefWait = time.Second

// leftoverPolicy is what shexec does with leftovers. The rule for brief
// work: when every background statement of the script that the shell ran
// (the -c command after promotion, the script file, the script on stdin)
// is one the analysis calls brief and none is waited for, the leftovers are
// waited for up to briefWait, as the shell's caller would have waited for
// the output's end; those that end in that time are neither reported nor
// adopted. Anything still there after it, or left by a script with other
// background work, or by a script shexec cannot analyse (interactive, too
// long, not parsed), goes to the --leftovers policy at once.
type leftoverPolicy struct {
	next  exec.LeftoverPolicy
	adopt *exec.AdoptPolicy // next, when it is adopt: its job gets the script's name
	// script is nil when there is nothing to analyse (an interactive shell,
	// -n); shell picks the analyzer's language.
	script *scriptSource
	shell  string
	// promoting: the -c command's leading background statements were
	// started as jobs, so the shell ran the plan's foreground.
	promoting bool
}

func (p *leftoverPolicy) Name() string { return p.next.Name() }

func (p *leftoverPolicy) Handle(ctx context.Context, set *exec.LeftoverSet) error {
	var jobs []analyze.Job
	var ran string
	if p.script != nil {
		if t, ok := p.script.text(); ok {
			ran, jobs = p.analyse(t)
		}
	}
	if allBrief(jobs) && set.WaitGone(briefWait) {
		return nil
	}
	if p.adopt != nil && p.adopt.Command == "" && p.script != nil {
		p.adopt.Command = jobName(ran, jobs)
	}
	return p.next.Handle(ctx, set)
}

// jobName names the job that adopts leftovers after what started them, as
// the user wrote it: the background statements of the script that the
// shell does not wait for and that are not brief, or, when there is none
// (a program that daemonizes itself, nohup in the foreground), the script
// itself; "" (the leftovers' command lines) when there is no script.
func jobName(ran string, jobs []analyze.Job) string {
	var parts []string
	for _, j := range jobs {
		if j.Resolved || j.Brief {
			continue
		}
		end := j.End
		if j.Amp >= 0 {
			end = j.Amp
		}
		if j.Start < 0 || end > len(ran) || j.Start >= end {
			continue
		}
		if s := scriptLine(ran[j.Start:end]); s != "" && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return scriptLine(ran)
	}
	return strings.Join(parts, "; ")
}

// analyse returns the script the shell ran and its background statements.
// A script that does not parse, or an analyzer panic, gives none: shexec
// must run any command the shell would, and a planner bug may cost the
// waiting, never the run.
func (p *leftoverPolicy) analyse(script string) (ran string, jobs []analyze.Job) {
	lang, ok := shellLang(p.shell)
	if !ok {
		return script, nil
	}
	defer func() {
		if recover() != nil {
			jobs = nil
		}
	}()
	res, err := analyze.Run([]byte(script), analyze.WithLang(lang))
	if err != nil {
		return script, nil
	}
	if p.promoting && strings.Contains(script, "&") {
		// The plan is made from this analysis; only the foreground it
		// leaves is new, and analysed.
		if plan := rewrite.PlanResult([]byte(script), res, analyze.WithLang(lang)); len(plan.Jobs) > 0 {
			script = plan.Foreground
			if res, err = analyze.Run([]byte(script), analyze.WithLang(lang)); err != nil {
				return script, nil
			}
		}
	}
	return script, res.Jobs
}

// allBrief reports whether the script's background work is all brief: at
// least one background statement the shell does not wait for, and each
// such statement brief.
func allBrief(jobs []analyze.Job) bool {
	n := 0
	for _, j := range jobs {
		if j.Resolved {
			continue
		}
		if !j.Brief {
			return false
		}
		n++
	}
	return n > 0
}

// jobLine is the one line shexec writes about an adopted job: the caller
// must know that work of its command goes on, and where to read it.
func jobLine(j *exec.Job) string {
	return fmt.Sprintf("job %s holds what the command left running: %s (shexec logs %s, shexec kill %s)", j.ID, short(scriptLine(j.Command)), j.ID, j.ID)
}
