package walk

import (
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// The saved copies of descriptors a shell keeps while a redirected
// compound runs (mksh on fd 10 and up, dialect.childrenKeepSaved and
// keepsSaved), which subshells forked meanwhile inherit.

// saving runs walk with the shell holding saved copies of what the
// redirections rs (from env to inner) replaced (a redirected { }, if, loop
// or function call in the current shell), for the forked subshells started
// meanwhile to inherit (see dialect.childrenKeepSaved).
func (w *walker) saving(rs []*syntax.Redirect, env, inner fdtable.Table, walk func()) {
	if w.sh.d.ExecCloexec {
		// mksh: what these redirections open is not close-on-exec, as
		// exec's are (funcs.c c_exec sets FD_CLOEXEC, iosetup does not).
		prevOpen := w.redirOpen
		w.redirOpen |= fdtable.RedirMask(rs)
		defer func() { w.redirOpen = prevOpen }()
	}
	if !w.sh.d.ChildrenKeepSaved || inner == env {
		walk()
		return
	}
	prev, prevTen := w.saved, w.savedTen
	if w.sh.d.ChildrenKeepFirstSaved {
		w.saveFirst(rs, env)
	} else {
		for fd := range env {
			if inner[fd] != env[fd] && (env[fd] == fdtable.TCaller || env[fd] == fdtable.TBlock) {
				w.saved[fd] = env[fd]
			}
		}
	}
	walk()
	w.saved, w.savedTen = prev, prevTen
}

// saveFirst records the copy that lands on fd 10, the only one children
// keep (see dialect.childrenKeepFirstSaved).
func (w *walker) saveFirst(rs []*syntax.Redirect, env fdtable.Table) {
	if fd, ok := w.tenCopy(rs, env); ok {
		w.savedTen = true
		if env[fd] == fdtable.TCaller || env[fd] == fdtable.TBlock {
			w.saved[fd] = env[fd]
		}
	}
}

// tenCopy is the descriptor of env whose copy lands on fd 10 when the
// shell makes the redirections rs: the first open one they replace, in
// their order (a closed one is not copied). ok is false when fd 10 holds
// a copy already, or rs replace nothing open.
func (w *walker) tenCopy(rs []*syntax.Redirect, env fdtable.Table) (int, bool) {
	if w.savedTen || w.sh.keptTen {
		return 0, false
	}
	for _, r := range rs {
		if fd := fdtable.RedirFD(r); fd >= 0 && fd < len(env) && env[fd] != fdtable.TNone {
			return fd, true
		}
	}
	return 0, false
}

// inheritSaved gives a job that forks a subshell the saved copies the
// shell holds when it starts. (A pipeline's elements are forked one by
// one: pipeElem gives them to those that keep them.)
func (w *walker) inheritSaved(j *Job) {
	if j.Quick || !(j.Kind == JobCompound || j.forks) {
		return
	}
	if w.sh.d.SavedTailExec && j.Kind == JobCompound && j.Tail != nil {
		if ce, ok := j.Tail.Cmd.(*syntax.CallExpr); ok && w.execsTail(ce) {
			return
		}
	}
	for fd, t := range w.heldSaved() {
		if t != fdtable.TNone {
			j.Fds[fd] = t
		}
	}
}

// heldSaved are the saved copies of the caller's descriptors the current
// shell holds, for what it forks to inherit.
func (w *walker) heldSaved() fdtable.Table {
	return w.saved.Union(w.sh.kept)
}

// execKeeps records the copy mksh's `exec` redirections rs (from env)
// leave on fd 10 for the rest of the shell's life (see
// dialect.execKeepsFirstSaved); a job whose own shell it is holds it too.
func (w *walker) execKeeps(rs []*syntax.Redirect, env fdtable.Table) {
	if !w.sh.d.ExecKeepsFirstSaved {
		return
	}
	fd, ok := w.tenCopy(rs, env)
	if !ok {
		return
	}
	w.sh.keptTen = true
	if t := env[fd]; t == fdtable.TCaller || t == fdtable.TBlock {
		w.sh.kept[fd] = t
		if j := w.job; j != nil && j.sh == w.sh && j.Kind == JobCompound {
			j.Fds[fd] = t
		}
	}
}
