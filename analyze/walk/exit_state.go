package walk

// exitState is the walker's state of the statements that may end the
// shell (exit, a function that exits, return where it counts) and of what
// the walk knows after one: the maybes they opened and the jobs their
// exits stopped first. Its readers are walk_exits.go, walk_exitkills.go,
// walk_evalexits.go and walk_return.go; the walker holds it as w.ends.
type exitState struct {
	// countReturns: exits counts a return as an end of what is walked
	// (see afterReturn).
	countReturns bool
	// exitLevels are the maybes of cond that a statement that may end the
	// shell opened (see afterExit): what follows `[ -f .env ] || exit
	// 1` runs whenever the shell is still there, so what it does to the
	// shell itself (a trap, an exec, set -e, an error that ends it) is as
	// sure as before the exit (see sureCond), while a kill or wait of a
	// job started before it stays a maybe (see sureFor).
	exitLevels []int // where in scopes they are
	// exitFuncs: a function the script defines has an exit or exec in its
	// text, so a call of it may end the shell (see afterExit).
	exitFuncs bool
	// exitScopes are the maybes after a statement that may end the shell
	// whose exits all stopped some jobs first (see walk_exitkills.go).
	exitScopes []exitScope
}
