package corpus

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MarkVar is the environment variable Observe sets, to a value unique to
// each run, in the shell it starts. Every process the shell starts inherits
// it, wherever it goes afterwards (setsid, double fork, re-parenting), so a
// scan of /proc/*/environ finds the run's processes without relying on the
// parent chain.
const MarkVar = "SHGUARD_CORPUS_MARK"

// Options say how to run the shell and bound an observation.
type Options struct {
	// Shell is the shell program, run as `SHELL -c script` (default bash).
	Shell string
	// Leader starts the shell as the leader of its own process group, as
	// agent tools and shexec do. By default it runs in a group it does not
	// lead, as when Python's subprocess and make start it in theirs; the
	// group is led by a placeholder process, not by the observer, so that
	// a `kill 0` in the script (zsh's `kill $!` before any job) stops the
	// run, not the tests.
	Leader bool
	// Exit is how long the shell may run before it counts as blocked
	// (default 5s), unless its run is still working then: see Busy.
	// Stand-ins are short (a foreground of at most 3 s), so a shell
	// still running after this with nothing of its run doing anything is
	// blocked, not slow. (It was 2.5s, which a foreground of 1.5 to 2.3 s
	// missed on a busy machine; only the entries whose shell blocks, 15
	// of 1,950, wait the longer bound out.)
	Exit time.Duration
	// Busy is how long past Exit a shell may run while its run is still
	// working: a process of the run was started or ended, used CPU time,
	// or waits for a CPU or a disk, within the last quarter second
	// (default: as long as Exit). A busy machine makes a stand-in's foreground of
	// ps, pgrep or a poll loop take seconds; a blocked shell (a wait, a
	// read of a pipe nobody closes) does nothing, and a shell that works
	// on forever (a poll that never ends) is blocked at Exit+Busy.
	Busy time.Duration
	// EOF is how long after the shell exits the output pipe may stay open
	// before the caller counts as hung (default 1s).
	EOF time.Duration
	// Settle is a pause after the shell exited and the pipe reached EOF,
	// before looking for survivors, so that a builtin job that ends within
	// a few milliseconds is not counted (default 50ms).
	Settle time.Duration
	// Linger is how long after that a process found may still run and not
	// count as a survivor (default 1s, the same bound as EOF: a job that
	// ends that soon is brief, for bash's caller and for the analyzer,
	// whether or not it held the output). Runs with no such process do
	// not wait for it.
	Linger time.Duration
}

func (o *Options) defaults() {
	if o.Exit == 0 {
		o.Exit = 5 * time.Second
	}
	if o.Busy == 0 {
		o.Busy = o.Exit
	}
	if o.EOF == 0 {
		o.EOF = time.Second
	}
	if o.Linger == 0 {
		o.Linger = time.Second
	}
	if o.Settle == 0 {
		o.Settle = 50 * time.Millisecond
	}
	if o.Shell == "" {
		o.Shell = "bash"
	}
}

// Outcome is what bash did with a script.
type Outcome struct {
	Exited    bool   // the shell exited within Options.Exit (or Busy, see there)
	EOF       bool   // the output pipe reached EOF within Options.EOF of the exit
	Survivors []Proc // processes of the run still alive after exit and EOF (or at the deadline)
	Holders   []Proc // when EOF did not come: the run's processes that held the pipe's writing end
	Output    string // what the shell and its processes wrote (stdout and stderr together)
	Elapsed   time.Duration
	// ExitedAfter is when the shell exited, counted from its start (0 when
	// it did not exit within Options.Exit). TestMargins reads it: a shell
	// that exits close to Options.Exit is one a busier machine blocks.
	ExitedAfter time.Duration
}

// Proc is a process found by Observe.
type Proc struct {
	Pid     int
	Cmdline string
}

// Verdict maps the outcome to the corpus verdicts: a shell that did not
// exit or a pipe that did not reach EOF is an error (the caller hangs); a
// process that outlived the shell is a warning; anything else is clean.
func (o Outcome) Verdict() Verdict {
	switch {
	case !o.Exited || !o.EOF:
		return Error
	case len(o.Survivors) > 0:
		return Warning
	}
	return Clean
}

func (o Outcome) String() string {
	var ps []string
	for _, p := range o.Survivors {
		ps = append(ps, fmt.Sprintf("%d %q", p.Pid, p.Cmdline))
	}
	var hs []string
	for _, p := range o.Holders {
		hs = append(hs, strconv.Itoa(p.Pid))
	}
	return fmt.Sprintf("%s (exited=%v eof=%v survivors=[%s] holders=[%s] elapsed=%v output=%q)",
		o.Verdict(), o.Exited, o.EOF, strings.Join(ps, ", "), strings.Join(hs, " "), o.Elapsed.Round(time.Millisecond), o.Output)
}

// Observation is the outcome of one script of ObserveAll.
type Observation struct {
	Outcome Outcome
	Err     error
	first   *Observation // the run before this one, when the tests ran it again
}

// ObserveAll observes every script with the same options; see ObserveEach.
func ObserveAll(scripts []string, opts Options, parallel int, timeout time.Duration) []Observation {
	runs := make([]Run, len(scripts))
	for i, s := range scripts {
		runs[i] = Run{Script: s, Options: opts}
	}
	return ObserveEach(runs, parallel, timeout)
}

// Run is a script and how to run it.
type Run struct {
	Script  string
	Options Options
}

// ObserveEach observes every run, at most parallel at a time, each with
// its own timeout, and returns the observations in the order of the runs.
// The scripts mostly sleep until Observe kills them, so parallel can be
// well above the number of cores.
func ObserveEach(runs []Run, parallel int, timeout time.Duration) []Observation {
	out := make([]Observation, len(runs))
	sem := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			o, err := Observe(ctx, r.Script, r.Options)
			out[i] = Observation{Outcome: o, Err: err}
		}()
	}
	wg.Wait()
	return out
}
