package hook

import (
	"fmt"
	"strings"

	"github.com/shguard/shguard/rewrite"
)

// What a refusal tells the model to run instead. A refusal is written for
// the model, not for a reviewer: what was wrong, that nothing ran, and the
// exact command, so that the next turn is not a guess.

// instead tells the model exactly what to run instead of a command that
// would hang (cur: the command with its behaviour-preserving fixes):
// logged, the command with its jobs' output sent to log files, when
// there is one; else each background job of the command's plan as its
// own call in the agent's background mode, or as a managed job
// (job.go), then the rest. Only when no plan can be made does it fall
// back to saying how.
func instead(cur, logged []byte, opt Options) string {
	if logged != nil {
		return "Run this instead, which does the same work without holding the tool's output:\n" + string(logged)
	}
	plan, err := rewrite.Plan(cur, opt.analyzeOpts()...)
	if err == nil && len(plan.Jobs) > 0 {
		var b strings.Builder
		b.WriteString("Run instead, each as its own call:")
		for i, j := range plan.Jobs {
			if opt.Background {
				fmt.Fprintf(&b, "\n- `%s` with %s: true", j.Script(), opt.backgroundParam())
				continue
			}
			wrapped, _, _, ok := managedJob(j.Script(), i, opt)
			if !ok {
				b.Reset()
				break
			}
			fmt.Fprintf(&b, "\n- %s", wrapped)
		}
		if b.Len() > 0 {
			if strings.TrimSpace(plan.Foreground) != "" {
				fmt.Fprintf(&b, "\n- then: %s", strings.TrimSpace(plan.Foreground))
			}
			return b.String()
		}
	}
	if opt.Background {
		return "Start the long-running part as its own shell call in the tool's background mode (" + opt.backgroundParam() + ": true, without the &), then run the rest of the command in another call."
	}
	return "Start the long-running part with its output sent to a file (`server >server.log 2>&1 &`, or under `nohup`/`setsid` with output redirected) so that nothing holds the tool's output, then run the rest and read the file."
}

func (o Options) backgroundParam() string {
	if o.BackgroundParam != "" {
		return o.BackgroundParam
	}
	return "background mode"
}

// runInstead is the refusal for an agent that cannot take the change
// itself, written for the model: what was wrong, that nothing ran, and
// the exact command to run instead, so the next turn is not a guess.
//
// An agent with a background mode is told to start each job there (the
// plan), not to run a log-file rewrite: driven end to end, Qwen Code's
// shell tool still waited 34 s on `server >LOG 2>&1 & …`.
func runInstead(out *Outcome, src string, caps Caps, opt Options) string {
	r := "shguard: this command would hang the tool: " + why(out.Findings) + ". "
	if !out.Hang {
		r = "shguard: this command runs until it is stopped and would hold the tool until its timeout: " + neverEnds(out.Findings) + ". "
	}
	r += "It was not run. "
	if out.Background {
		p := caps.BackgroundParam
		if p == "" {
			p = "background mode"
		}
		return r + "Run it again as its own call with " + p + ": true:\n" + out.Command
	}
	if out.Forever {
		return r + "Run this instead, which starts it as a background job and returns with its first lines:\n" + out.Command
	}
	if caps.Background {
		opt.Background, opt.BackgroundParam = true, caps.BackgroundParam
		if plan := instead([]byte(src), nil, opt); strings.HasPrefix(plan, "Run instead, each as its own call:") {
			return r + plan
		}
	}
	r += "Run this instead, which does the same work without holding the tool's output:\n" + out.Command
	for i, l := range out.Logs {
		r += "\n(background output goes to " + l + ", read it with tail or cat; stop the job (and all it started) with: " + out.Stops[i] + ")"
	}
	return r
}
