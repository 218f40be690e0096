package dialect

const (
	// dupOpensFile: `>&file` is `>file 2>&1` (bash, zsh).
	DupOpensFile badDupEffect = iota
	// dupFailsCommand: the redirection fails, the command does not run
	// and its status is 1; with a special builtin (`exec >&log`, `:
	// >&log`) the error ends the shell (mksh: "illegal file descriptor
	// name", then "redirection failure").
	dupFailsCommand
	// dupEndsShell: the redirection raises a syntax error when it is
	// made, which ends the shell it is made in: the shell, a subshell, or
	// the process of a background job (dash: "Syntax error: Bad fd
	// number"; `server >&/dev/null &` starts no server, and `cmd
	// >&/dev/null; kill $!` never reaches the kill).
	DupEndsShell
)

// BraceKind is what brace expansion a shell does.
type BraceKind uint8
