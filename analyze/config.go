package analyze

import (
	"io/fs"

	"github.com/shguard/shguard/analyze/dialect"
)

// config is what the walk reads of the options (see options.go, whose
// Option sets it): the shell, how it is started, and what the caller
// knows of the directory and of its own servers. What only the floors
// above the walk read (the fixes' style, directives, the filter) is not
// here, so the walk cannot depend on it.
type config struct {
	lang         dialect.Lang
	caller       dialect.Caller
	scriptFile   bool
	shebangGuess bool  // (see WithShebangShell)
	files        fs.FS // (see WithFiles)
	servers      map[string]bool
}
