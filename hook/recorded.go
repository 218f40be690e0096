package hook

import (
	"slices"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/lazy"
)

// A job whose pid the command writes to a file as soon as it starts
// (`srv >LOG 2>&1 & echo $! >PID`) is managed in the sense the hook gives
// the word: someone can stop it (`kill $(cat PID)`), which is what every
// rewrite of the hook that leaves a process running promises and says.
// The linter still reports such a job; the hook's advice does not tell
// the model it is unmanaged, least of all when the model runs the very
// command a refusal told it to run (driven end to end: Qwen Code and
// Copilot CLI's retries were answered "never waited for or stopped ...
// unmanaged").

// recordsPid matches what follows the & of a job that records its pid.
var recordsPid = lazy.Regexp{Expr: `^[ \t]*echo[ \t]+"?\\?\$!"?[ \t]*>[ \t]*[^ \t;&|)]+`}

// leakRule: a finding a recorded pid answers: a job nobody waits for or
// stops, and one that escapes the shell on purpose (nohup, setsid,
// disown). A daemon's double fork is not among them: the pid recorded is
// that of the parent, which has exited.
func leakRule(id string) bool {
	for _, r := range []*analyze.Rule{analyze.UnmanagedBackground, analyze.Nohup, analyze.Setsid, analyze.Disown} {
		if r.ID == id {
			return true
		}
	}
	return false
}

// dropRecorded drops from fs the leak findings about jobs of res that
// record their pid.
func dropRecorded(src []byte, res *analyze.Result, fs []analyze.Finding) []analyze.Finding {
	var spans [][2]int
	for _, j := range res.Jobs {
		if j.Amp < 0 {
			continue
		}
		after := j.Amp + 1
		if j.Disown {
			after++
		}
		if after <= len(src) && recordsPid.Get().Match(src[after:]) {
			spans = append(spans, [2]int{j.Start, j.End})
		}
	}
	if len(spans) == 0 {
		return fs
	}
	var kept []analyze.Finding
	for _, f := range fs {
		recorded := slices.ContainsFunc(spans, func(s [2]int) bool { return f.Start.Offset == s[0] && f.End.Offset == s[1] })
		if !recorded || !leakRule(f.Rule) {
			kept = append(kept, f)
		}
	}
	return kept
}
