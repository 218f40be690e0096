package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// killSubshell applies the signal to the subshell of a compound job. The
// subshell dies, unless it defers the signal (see
// dialect.subshellDefersTerm) or a trap of its own takes it. What it was
// waiting for runs on: the program it ran in the foreground, taken to be
// the last one that may take a while (`a && server >log 2>&1 &` then
// `kill $!`: the server stays with its log, the caller's output is free;
// the job is that program now, and $! names a dead process), and the jobs
// it started and waited for (`(server & wait) &`: the server is orphaned).
// With only brief commands in its foreground (`wait`, a loop of `sleep
// 0.1`, builtins) nothing of the job itself runs on. Checked under bash,
// zsh, dash and mksh.
func (w *walker) killSubshell(j *Job) {
	if w.endedAlone(j) {
		// The subshell ended by itself before the kill came: the signal
		// finds no process, and its traps do not run. `( trap 'kill $c'
		// TERM; server & c=$! ) & sleep 1; kill $!` leaves the server
		// (bash, zsh, dash and mksh; and zsh's `wait` there returns at
		// once when the server was started with &!).
		w.end(j)
		return
	}
	if w.watchdogDone(j) {
		// A watchdog whose kill the shell saw happen (it waited for the
		// job it killed) is gone, or has nothing left to run after it
		// (see walk_watchdogjob.go).
		w.end(j)
		return
	}
	fg := j.fgLong > 0 || j.heldReads > 0 // a foreground child may be running
	if w.subshellDefers(j) {
		return // mksh: it dies when that child ends, holding what it holds till then
	}
	t := j.sigTrap(w.kills.killSig)
	if t != nil && fg {
		// The trap runs once the child ends, and the subshell goes on:
		// the kill changes nothing the walk can tell.
		return
	}
	// The kill of a job the subshell had yet to reach does not happen:
	// one after a command that may take a while, or after more time
	// than the shell let pass before this kill.
	slow, bounded := w.slow-j.startSlow, w.bounded-j.startBounded
	for _, e := range j.innerEnded {
		if !e.fired && (e.slow > 0 || slow == 0 && e.bounded > bounded) {
			e.job.Killed = false
			if e.job.parent == j {
				j.innerWaited = append(j.innerWaited, e.job)
			}
		}
	}
	if t != nil && !(w.sh.d.TailDropsTraps && w.trapDropped(j, t)) {
		// The trap interrupts the wait and runs; then the subshell goes
		// on with what follows, which is brief (fg is false), unless it
		// loops and the trap does not exit.
		exits := w.runSigTrap(j, t)
		if exits && len(j.trapSh.traps) > 0 {
			// `trap 'exit 0' TERM`: the exit runs the EXIT trap
			// (`trap 'kill $(jobs -p)' EXIT` stops what it waited for).
			w.runSigTrap(j, &sigTrap{trapBody: j.trapSh.traps[len(j.trapSh.traps)-1]})
		}
		if !exits && loops(j.Stmt) {
			return
		}
	} else if x := j.exitTrapOnSignal(w.kills.killSig); t == nil && x != nil {
		w.runSigTrap(j, x) // bash: the EXIT trap, and then it dies
	}
	for _, k := range j.innerWaited {
		if !k.Killed {
			k.waited, k.Orphaned = false, true
		}
	}
	if j.fgLong > 0 {
		j.Fds = j.fgFds
		j.SubshellGone = true
		return
	}
	w.end(j)
}

// subshellDefers reports whether the signal being sent is one the
// subshell of j leaves for later while a foreground child runs, and one
// may run (see dialect.subshellDefersTerm).
func (w *walker) subshellDefers(j *Job) bool {
	d := w.sh.d // a subshell is the same program
	if j.procD != nil {
		d = j.procD // the job is another shell (bash -c '…' &)
	} else if j.Kind == JobSimple && len(j.Prog) > 0 && !j.forks {
		return false // find -exec, xargs: a program, which dies at once
	}
	return d.SubshellDefersTerm && softSignal(w.kills.killSig) && (j.fgLong > 0 || j.heldReads > 0)
}

// sigTrap is the trap j's own shell set on sig, or nil. SIGKILL cannot
// be trapped.
func (j *Job) sigTrap(sig string) *sigTrap {
	if j.trapSh == nil || uncatchable(sig) || j.trapRan {
		return nil
	}
	return j.trapSh.trapFor(sig)
}

// trapFor is the trap the shell has on sig, or nil.
func (sh *shell) trapFor(sig string) *sigTrap {
	b := dialect.SigBit(sig)
	for i := range sh.sigTraps {
		if t := &sh.sigTraps[i]; t.sigs&b != 0 {
			return t
		}
	}
	return nil
}

// exitTrapOnSignal is the EXIT trap that j's own shell runs when sig
// kills it (see dialect.signalRunsExitTrap), or nil.
func (j *Job) exitTrapOnSignal(sig string) *sigTrap {
	if j.trapSh == nil || uncatchable(sig) || j.trapRan || !j.trapSh.d.SignalRunsExitTrap || len(j.trapSh.traps) == 0 {
		return nil
	}
	return &sigTrap{trapBody: j.trapSh.traps[len(j.trapSh.traps)-1]}
}

// runSigTrap walks the action of a signal trap in the shell of j, the
// job it was set in, as that shell stood when its body ended (its jobs,
// $!, the variables that hold pids): `trap 'kill $c' TERM` passes the
// kill on to the job's own jobs. It reports whether the action exits.
func (w *walker) runSigTrap(j *Job, t *sigTrap) (exits bool) {
	j.trapRan = true // once: a kill in it that reaches j again runs nothing
	f, err := w.p.ParseNested(t.code, j.trapSh.d.Variant)
	if err != nil {
		return false
	}
	savedSh, savedJob, savedSrc, savedSig := w.sh, w.job, w.src, w.kills.killSig
	slow, bounded := w.slow, w.bounded
	w.sh, w.job = j.trapSh, nil
	w.src = &Source{Offs: t.offs, Text: []byte(t.code), File: f}
	// The jobs started long before (no kill race, see
	// dialect.killRaces): no job's start matches this count.
	w.slow = -1
	savedLast := w.sh.last
	if t.set {
		w.sh.last = t.last
	}
	restore := w.sh.bindTrapVars(t.vars)
	w.stmts(f.Stmts, j.Fds)
	restore()
	w.sh.last = savedLast
	w.sh, w.job, w.src, w.kills.killSig = savedSh, savedJob, savedSrc, savedSig
	w.slow, w.bounded = slow, bounded
	for _, s := range f.Stmts {
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && knowledge.WordLit(ce.Args[0]) == "exit" {
			return true
		}
	}
	return t.ends
}

// isWait reports whether s is a call of the wait builtin.
func isWait(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) > 0 && knowledge.WordLit(ce.Args[0]) == "wait"
}

// loops reports whether s runs a while or until loop in its own shell's
// foreground (one that may never end).
func loops(s *syntax.Stmt) bool {
	found := false
	knowledge.Inspect(s.Cmd, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.WhileClause:
			found = true
		case *syntax.Stmt:
			return !n.Background && !found
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		}
		return !found
	})
	return found
}

// lastStmt is the statement a background statement's subshell runs last:
// the right of its last && or ||, the last of a ( ) or { } body.
func lastStmt(s *syntax.Stmt) *syntax.Stmt {
	for {
		switch c := s.Cmd.(type) {
		case *syntax.BinaryCmd:
			if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
				return s
			}
			s = c.Y
		case *syntax.Subshell:
			if len(c.Stmts) == 0 {
				return s
			}
			s = c.Stmts[len(c.Stmts)-1]
		case *syntax.Block:
			if len(c.Stmts) == 0 {
				return s
			}
			s = c.Stmts[len(c.Stmts)-1]
		default:
			return s
		}
	}
}

// assignsOnly reports whether a statement only assigns variables (which
// the shell does itself, its $( ) included, without a process of its own).
func assignsOnly(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(ce.Args) == 0 && len(ce.Assigns) > 0 && !s.Background
}
