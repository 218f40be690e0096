package hook

import (
	"os"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/shguardrc"
)

// getenv reads the environment the agent started the hook with (Options.Getenv, or the process's).
func (o Options) getenv(key string) string {
	if o.Getenv != nil {
		return o.Getenv(key)
	}
	return os.Getenv(key)
}

// forAgent completes the options for one call: the shell from the first
// of the environment variables that names one (unless the caller set
// Options.ShellSet), and the .shguardrc found from the command's cwd.
func (o Options) forAgent(cwd string, shellVars ...string) Options {
	if !o.ShellSet {
		for _, v := range shellVars {
			if l, ok := analyze.LangFromPath(o.getenv(v)); ok && o.getenv(v) != "" {
				o.Lang, o.ShellSet = l, true
				break
			}
		}
	}
	if cwd == "" || o.NoRC {
		return o
	}
	path, err := shguardrc.Find(cwd)
	if err != nil || path == "" {
		return o
	}
	rc, err := shguardrc.Load(path)
	if err != nil {
		return o
	}
	if rc.Lang != nil && !o.ShellSet {
		o.Lang = *rc.Lang
	}
	if rc.Style != nil && !o.StyleSet {
		o.Style = *rc.Style
	}
	return o
}
