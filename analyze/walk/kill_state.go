package walk

// killState is the walker's state of the kills it applies: which signal,
// and the kills that reach the script from a subshell or a nested shell.
// Only the kill files and the walks of forks and nested shells touch it.
type killState struct {
	// killSig is the signal of the kill being applied ("" for SIGTERM).
	killSig string
	// forkKill is the signal of a kill of $$ that a foreground subshell
	// of the script ran, which the script dies of when the walk returns
	// to it (see walk_forkkill.go); forkKills: there is one.
	forkKill  string
	forkKills bool
	// forkByChild: that kill was a nested shell's of $PPID (see
	// walk_ppidkill.go); ppidScript is the nested shell being walked
	// whose parent is the script.
	forkByChild bool
	ppidScript  *shell
	// killProg: the kill being applied is the kill program xargs runs
	// (`pgrep -f server | xargs kill`), which signals every pid it is
	// given, the shell's own among them, and then exits.
	killProg bool
}
