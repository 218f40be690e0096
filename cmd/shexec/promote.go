//go:build linux || darwin || freebsd

package main

import (
	"fmt"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/exec"
	"github.com/shguard/shguard/rewrite"
)

// shellLang is the analyzer's shell for a --shell value (a path or a name:
// /bin/dash, zsh-5.9). A shell the analyzer does not know (fish, nu...)
// gets no plan: parsed as another dialect, its background statements
// could be cut at the wrong place.
func shellLang(shell string) (analyze.Lang, bool) { return analyze.LangFromPath(shell) }

// planner is rewrite.Plan for the shell's language, as an exec.Planner. It
// gives no plan when the shell has no language (the command then runs
// unchanged).
//
// Nothing of the analyzer runs before the planner is called, and exec.Run
// calls it only for a script with a '&': a background statement that a plan
// could promote is a top-level one, always written with '&' (coproc,
// setsid -f and nohup without '&' are never promoted: TestPlanNeedsAmpersand).
// `shexec -c true` pays for the analyzer only what linking it costs
// (docs/benchmarks.md).
func planner(shell string) exec.Planner {
	return func(script string) (plan *exec.Plan, err error) {
		lang, ok := shellLang(shell)
		if !ok {
			return nil, nil
		}
		// shexec must run any command bash would: a planner bug must
		// cost the promotion, never the run.
		defer func() {
			if p := recover(); p != nil {
				plan, err = nil, fmt.Errorf("planner panic: %v", p)
			}
		}()
		p, err := rewrite.Plan([]byte(script), analyze.WithLang(lang))
		if err != nil {
			return nil, err
		}
		plan = &exec.Plan{Foreground: p.Foreground}
		for _, j := range p.Jobs {
			plan.Jobs = append(plan.Jobs, exec.PlannedJob{Script: j.Script(), Start: j.Start, End: j.End})
		}
		return plan, nil
	}
}
