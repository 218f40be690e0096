package walk

// nestedState is the walker's state of the shells nested in the one it
// walks: how deep it is in -c strings (bounded), what the shell about to
// be walked starts with, whether its script ends in exec, the script a
// pipe feeds a shell on stdin, and ssh's remote commands. Its readers are
// walk_nested.go, walk_shell.go, walk_shellargs.go, walk_shelljob.go,
// walk_tails.go and fed.go; the walker holds it as w.nest.
type nestedState struct {
	depth  int // nesting of -c strings, bounded
	remote int // inside an ssh command string
	// fed is the script the left side of a pipe prints, while the walk is
	// on its right side: a shell there reads it from stdin.
	fed *script
	// starting is what the nested shell about to be walked starts with:
	// set by the command that starts it, taken by nestedCode.
	starting nestedStart
	// tailWatch: the walk is in such a shell's script.
	tailWatch *tailWatch
	// nestedExecs: the script of the nested shell walked last ends in an
	// explicit exec, which replaces that shell (see readsScript).
	nestedExecs bool
}
