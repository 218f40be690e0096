//go:build linux || darwin || freebsd

package exec

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// A Plan splits a script into background jobs to start as managed jobs and
// the part that still runs in the foreground. It mirrors rewrite.Promotion
// (see Planner) so that this package does not depend on the analyzer.
type Plan struct {
	// Foreground is what the shell runs once the jobs are started; ""
	// means nothing is left to run (the exit status is then 0, as for a
	// script whose last statement is asynchronous).
	Foreground string
	// Jobs are started in order, before Foreground runs.
	Jobs []PlannedJob
}

// PlannedJob is one background statement of a Plan.
type PlannedJob struct {
	// Script is what the job's shell runs: the statement without its &,
	// preceded by the state-only statements (cd, export...) it depends on.
	Script string
	// Start and End are the bytes of the original script that the job
	// takes out of the foreground. When a job cannot be started, Run puts
	// it and the jobs after it back: the foreground becomes the original
	// script without the jobs that did start.
	Start, End int
}

// A Planner returns the plan for a script, or an error (or a nil plan) when
// it has none; the script then runs unchanged, so a script that does not
// parse reaches the shell, which reports the syntax error itself. Run only
// consults the planner for scripts that contain '&': without one there is
// no background statement, and parsing would cost more than running `true`.
//
// The shexec command plans with rewrite.Plan, in the language of the shell.
type Planner func(script string) (*Plan, error)

// WithPromotion makes Run start the background statements the planner
// finds as managed jobs in store (see Store.Start) before the foreground
// part runs, instead of letting the shell fork them.
//
// That is the clean way to run `server & sleep 1; curl localhost` for a
// caller that reads the output until EOF: the server's output goes to its
// job's logs instead of holding the caller's pipe, it is listed and can be
// stopped later (`shexec kill`), and nothing has to be found at exit.
// Leftover handling (WithLeftovers) stays the safety net for what static
// analysis cannot see.
//
// Each job runs with the run's shell, directory, environment and $0/$@,
// stdin /dev/null, the given session, and the run's grace. The jobs outlive
// a normal end of the run, as the shell's background jobs would have; a
// timeout or a cancellation stops them too, since then the caller was
// promised that nothing of the command survives. Signals forwarded to the
// shell (WithForwardSignals) do not reach them: they are managed jobs, to be
// stopped through the store. Result.Promoted lists them.
//
// As with any Store.Start, the program must call MaybeSupervise at the top
// of main. The jobs' supervisors are children of the calling process,
// started before the shell, so Run counts them as pre-existing children,
// never as leftovers; whichever of Run's reaper and Store.Start's waiter
// sees one exit first reaps it, harmlessly for the other (os/exec waits
// through a pidfd).
func WithPromotion(store *Store, plan Planner, session string) Option {
	return func(c *config) { c.promote = &promotion{store: store, plan: plan, session: session} }
}

type promotion struct {
	store   *Store
	plan    Planner
	session string
}

// promote starts the jobs of script's plan and returns the script the shell
// must run instead, whether anything is left to run, and a message when a
// job could not be started.
func (r *run) promote(ctx context.Context, script string, shellArgs, env []string) (fg string, run bool, msg string) {
	p := r.cfg.promote
	if p == nil || p.store == nil || p.plan == nil || !strings.Contains(script, "&") {
		return script, true, ""
	}
	plan, err := p.plan(script)
	if err != nil || plan == nil || len(plan.Jobs) == 0 {
		return script, true, ""
	}
	for i, pj := range plan.Jobs {
		j, err := p.store.Start(ctx, JobSpec{
			Command: pj.Script, Shell: r.cfg.shell, Flags: r.cfg.shellFlags, Args: shellArgs, Dir: r.cfg.dir, Env: env,
			Session: p.session, Grace: r.cfg.grace, Stdin: JobStdinNull, Origin: OriginPromoted,
		})
		if err != nil {
			// Run the rest as written: the shell forks what could not
			// be promoted, and the leftover policy deals with it.
			return withoutJobs(script, plan.Jobs[:i]), true, fmt.Sprintf("could not start `%s` as a job (%v); it ran in the shell", shortCommand(pj.Script), err)
		}
		r.promoted = append(r.promoted, j)
	}
	return plan.Foreground, plan.Foreground != "", ""
}

// withoutJobs is script with the bytes of jobs (in source order) taken out.
func withoutJobs(script string, jobs []PlannedJob) string {
	var b strings.Builder
	at := 0
	for _, j := range jobs {
		if j.Start < at || j.End < j.Start || j.End > len(script) {
			return script // not a plan of this script; run it as written
		}
		b.WriteString(script[at:j.Start])
		at = j.End
	}
	b.WriteString(script[at:])
	return b.String()
}

// stopPromoted stops the promoted jobs (see Store.Kill), all at once, and
// returns their main processes as Stopped entries.
func (r *run) stopPromoted() []Stopped {
	if len(r.promoted) == 0 {
		return nil
	}
	store := r.cfg.promote.store
	stopped := make([]*Stopped, len(r.promoted))
	var wg sync.WaitGroup
	for i, j := range r.promoted {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if cur, err := store.Load(j.ID); err == nil && cur.Finished() && cur.Status != JobLost {
				return // over on its own: nothing to stop
			}
			st := &Stopped{PID: j.PID, Command: "job " + j.ID + ": " + j.Command, Signal: "SIGTERM"}
			if k, err := store.Kill(context.Background(), j.ID, r.cfg.grace); err == nil && k.Signal != "" {
				st.Signal = k.Signal
			}
			stopped[i] = st
		}()
	}
	wg.Wait()
	var out []Stopped
	for _, st := range stopped {
		if st != nil {
			out = append(out, *st)
		}
	}
	return out
}

// stopAll stops the shell's tree (see terminate) and the promoted jobs at
// the same time: each takes up to the grace period.
func (r *run) stopAll() []Stopped {
	jobs := make(chan []Stopped, 1)
	go func() { jobs <- r.stopPromoted() }()
	return append(r.terminate(r.cfg.grace), <-jobs...)
}
