package walk

import (
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A loop that polls until a job is gone waits for it: `while kill -0 $PID
// 2>/dev/null; do sleep 1; done` (also `ps -p $PID`, or `until ! kill -0
// $PID`) ends only once the process has ended, as `wait $PID` does (the
// shells reap their children meanwhile, when the body's foreground
// program ends: checked under bash, zsh, dash and mksh, where a job that
// ends by itself a second in leaves nothing behind, while the walk took
// it for one that runs on). A body that may leave the loop early (break,
// an exit, a return) makes it no wait.

// pollsGone returns the pid a while or until loop polls until its
// process is gone, or nil.
func (w *walker) pollsGone(c *syntax.WhileClause) *syntax.Word {
	if len(c.Cond) != 1 || c.Cond[0].Negated != c.Until {
		return nil
	}
	pid := aliveOperand(c.Cond[0])
	if pid == nil {
		return nil
	}
	if named, all, _ := w.jobsNamed([]*syntax.Word{pid}); all || len(named) == 0 {
		return nil // a pid the walk does not know: not a wait for every job
	}
	for _, s := range c.Do {
		if mayLeaveRound(s) || w.exits(s, 0) != endsNever || knowledge.Holds(s, func(n syntax.Node) bool { return knowledge.IsCallOf(n, "return") }) {
			return nil
		}
	}
	return pid
}
