package analyze

import (
	"path/filepath"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// dash (and the other descendants of the Almquist shell: busybox ash)
// differs from bash in one way that decides hangs: in the subshell of a
// background job it execs the last simple command instead of forking it
// and waiting. `cd app && server >log 2>&1 &` hangs a caller under bash
// (the subshell waits for the server, holding the caller's output) and
// does not under dash (the subshell becomes the server, whose output goes
// to the log). Checked on this machine for and-or lists, ( ) and { }
// bodies; loops and functions fork under both.

// isDash reports whether a shell name runs dash: dash and ash by name, and
// sh when /bin/sh is one of them here (Debian, Ubuntu, Alpine; not macOS or
// Fedora, where sh is bash). The verdict is about the machine the command
// runs on, which for the pre-exec hook and shexec is this one.
func isDash(name string) bool {
	switch name {
	case "dash", "ash":
		return true
	case "sh":
		return shIsDash()
	}
	return false
}

var shIsDash = sync.OnceValue(func() bool {
	p, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		return false
	}
	switch filepath.Base(p) {
	case "dash", "ash", "busybox":
		return true
	}
	return false
})

// dashExecsTail reports whether dash execs ce, the last simple command of
// a background subshell: a program, not a builtin or a function of the
// script.
func (w *walker) dashExecsTail(ce *syntax.CallExpr) bool {
	r := resolve(ce.Args)
	if len(r.all) == 0 || builtins.has(r.name) || w.funcs[r.name] != nil {
		return false
	}
	return plainName(r.head.Lit())
}
