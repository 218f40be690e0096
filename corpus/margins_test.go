package corpus

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// Observe decides with three bounds (Options.Exit, EOF and Linger), and a
// stand-in decides its verdict with its own timing: a job of `sleep 1.5`
// that must still run when the shell exits, a poll that waited 2.1 s for
// a job while the shell had to exit within 2.5 s. An entry whose verdict holds
// only within a few hundred milliseconds of a bound passes on a quiet
// machine and fails on a busy one (a newcomer's laptop), where forks, execs
// and wake-ups come late. TestMargins runs every entry with its bounds
// moved both ways, and the verdict must not change:
//
//   - late: Exit 4 s, EOF and Linger 0.5 s — what a machine that makes
//     the shell's own work a second slower (the foreground) and the
//     shell's exit half a second later than a job's end does to the
//     default bounds;
//   - early: Exit 6 s, EOF and Linger 1.5 s — a job meant to outlive
//     the shell must outlive it by more than half a second, and a shell
//     recorded as blocked must not be a foreground that ends soon after
//     the bound.
//
// It doubles the corpus's run time, so it is opt-in for `go test ./...`
// and run by CI (.ci/run sets SHGUARD_MARGINS=1).
// SHGUARD_MARGINS_IDS=regexp limits it to the entries whose id matches.
func TestMargins(t *testing.T) {
	if os.Getenv("SHGUARD_MARGINS") == "" {
		t.Skip("set SHGUARD_MARGINS=1 to run every entry with its bounds moved both ways (CI does)")
	}
	if err := Subreaper(); err != nil {
		t.Skip(err)
	}
	var es []Entry
	ids := regexp.MustCompile(os.Getenv("SHGUARD_MARGINS_IDS"))
	for _, e := range Load() {
		if _, err := exec.LookPath(e.Shell); err == nil && ids.MatchString(e.ID) {
			es = append(es, e)
		}
	}
	for _, m := range margins {
		t.Run(m.name, func(t *testing.T) {
			obs := observeEntriesWith(es, "", m.bounds)
			for i, e := range es {
				o := obs[i]
				if o.Err != nil {
					t.Errorf("line %d: %s: %v", e.Line, e.ID, o.Err)
				} else if e.Endless {
					// ends: never — judged as TestShells judges it: the
					// shell must still run when the bound gives up.
					if o.Outcome.Exited {
						t.Errorf("line %d: %s: with the bounds %s, %s ended (%s), the corpus says its foreground never ends", e.Line, e.ID, m.name, e.Shell, o.Outcome)
					}
				} else if got := o.Outcome.Verdict(); got != e.Verdict {
					t.Errorf("line %d: %s: with the bounds %s, %s says %s, the corpus says %s\nscript: %s", e.Line, e.ID, m.name, e.Shell, o.Outcome, e.Verdict, e.Script())
				}
			}
		})
	}
}

// margins are the bounds TestMargins moves the entries' runs to.
var margins = []struct {
	name   string
	bounds func(*Options)
}{
	{"late", func(o *Options) {
		o.Exit, o.EOF, o.Linger = 4*time.Second, 500*time.Millisecond, 500*time.Millisecond
	}},
	{"early", func(o *Options) {
		o.Exit, o.EOF, o.Linger = 6*time.Second, 1500*time.Millisecond, 1500*time.Millisecond
	}},
}
