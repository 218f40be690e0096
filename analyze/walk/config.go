package walk

import (
	"io/fs"

	"github.com/shguard/shguard/analyze/dialect"
)

// Config is what the walk reads of the options (the façade's Option sets
// it: analyze.WithLang, WithCaller, WithScriptFile, WithShebangShell,
// WithFiles, WithServers): the shell, how it is started, and what the
// caller knows of the directory and of its own servers. What only the
// floors above the walk read (the fixes' style, directives, the filter)
// is not here, so the walk cannot depend on it.
type Config struct {
	Lang         dialect.Lang
	Caller       dialect.Caller
	ScriptFile   bool
	ShebangGuess bool  // (see analyze.WithShebangShell)
	Files        fs.FS // (see analyze.WithFiles)
	Servers      map[string]bool
}
