package main

import (
	"fmt"
	"path/filepath"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/exec"
	"github.com/shguard/shguard/rewrite"
)

// shellLang is the analyzer's language for a --shell value, by basename
// (so /bin/dash and dash agree). A shell the analyzer does not know (zsh,
// fish...) gets no plan: parsed as another dialect, its background
// statements could be cut at the wrong place.
func shellLang(shell string) (analyze.Lang, bool) {
	switch filepath.Base(shell) {
	case "bash":
		return analyze.LangBash, true
	case "sh", "dash", "ash":
		return analyze.LangPOSIX, true
	case "mksh", "ksh":
		return analyze.LangMksh, true
	}
	return 0, false
}

// planner is rewrite.Plan for the shell's language, as an exec.Planner; nil
// when the shell has no language (the command then runs unchanged).
func planner(shell string) exec.Planner {
	lang, ok := shellLang(shell)
	if !ok {
		return nil
	}
	return func(script string) (plan *exec.Plan, err error) {
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
