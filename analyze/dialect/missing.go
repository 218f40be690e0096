package dialect

const (
	FgTailBash fgTailRule = iota // see above
	FgTailBg                     // zsh, dash
	FgTailLone                   // mksh
)

// Absence is how a simple command names a builtin the shell does not
// have (see dialect.missing).
type Absence uint8
