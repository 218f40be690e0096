package analyze

import (
	"io/fs"
	"path"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fix"
	"github.com/shguard/shguard/analyze/walk"
)

// options are what an Option sets: each floor's own settings where that
// floor keeps them (the walk's config, the fixer's style), and what only
// the façade reads: the directives' switch and the findings' filter.
type options struct {
	cfg          *walk.Config
	fixes        *fix.Fixer
	noDirectives bool
	keep         func(diag.Finding) bool
}

// Option configures Analyze.
type Option func(*options)

// WithLang sets the dialect the source is parsed as.
func WithLang(l dialect.Lang) Option { return func(o *options) { o.cfg.Lang = l } }

// WithStyle sets the style of the fixes attached to findings.
func WithStyle(s Style) Option { return func(o *options) { o.fixes.Style = s } }

// WithFilter keeps only the findings for which keep returns true: a linter's
// severity, include and exclude choices. Directives see every finding
// first, so a directive is not reported unused because of the filter, and
// rewrite.Fix, given the option, applies only the fixes of kept findings.
func WithFilter(keep func(diag.Finding) bool) Option { return func(o *options) { o.keep = keep } }

// WithServers adds program names (as a command names them: ./run-dev or
// run-dev both match run-dev) that run until stopped, for a project's own
// servers: in the foreground they get the SG3001 advice. .shguardrc's
// `servers=` key sets them.
func WithServers(names ...string) Option {
	return func(o *options) {
		if o.cfg.Servers == nil {
			o.cfg.Servers = map[string]bool{}
		}
		for _, n := range names {
			o.cfg.Servers[path.Base(n)] = true
		}
	}
}

// WithCaller says how the shell is started (default CallerGroupLeader,
// what agent tools do).
func WithCaller(c dialect.Caller) Option { return func(o *options) { o.cfg.Caller = c } }

// WithScriptFile says the source is a script file the shell reads (`bash
// deploy.sh`), not a -c string: a shell execs the last command of a -c
// string in place of itself, never that of a script file.
func WithScriptFile() Option { return func(o *options) { o.cfg.ScriptFile = true } }

// WithFiles gives the analysis the directory the command will run in, to
// read the files a command runs (a script, a Go package, package.json)
// where only their content says whether the command ends: `node
// server.js` of a server.js that listens never does (SG3001). os.DirFS of
// the working directory is the usual value; nil reads nothing.
func WithFiles(fsys fs.FS) Option { return func(o *options) { o.cfg.Files = fsys } }

// WithShebangShell says the shell (WithLang) was read from the script's
// shebang line and nothing else named it: a guess at what will run the
// script, since `#!/bin/sh` scripts full of bash syntax are often run as
// `bash script.sh`. Only then is a sh script that dash cannot parse
// analysed as bash, with SG3003 saying so, as ShellCheck does. Without it
// the shell is known (-s, a directive, .shguardrc, the shell an agent or
// shexec runs), and a source it refuses is a *ParseError (SG1000), as
// for every other shell: dash prints "Syntax error", runs nothing of the
// line and exits 2.
func WithShebangShell() Option { return func(o *options) { o.cfg.ShebangGuess = true } }
