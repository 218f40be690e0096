// Package version says which build of a command is running: the module
// version `go install …@vX` records, and for a build from a clone the VCS
// revision, its time and whether the tree had uncommitted changes. Bug
// reports and pinned CI need to say which build ran.
package version

import (
	"fmt"
	"runtime/debug"
)

// Short is the module version alone ("v1.2.0"), or for a build from a
// clone "(devel)" followed by the revision ("(devel)+0123abcd4567",
// "+dirty" when the tree had changes): what a SARIF driver.version says.
func Short() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	if v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 12:
			v += "+" + s.Value[:12]
		case s.Key == "vcs.modified" && s.Value == "true":
			v += "+dirty"
		}
	}
	return v
}

// String is "NAME VERSION (REVISION[, dirty], TIME) GOVERSION".
func String(name string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return name + " (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
			if len(rev) > 12 {
				rev = rev[:12]
			}
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", dirty"
			}
		}
	}
	out := fmt.Sprintf("%s %s", name, v)
	if rev != "" {
		out += fmt.Sprintf(" (%s%s, %s)", rev, dirty, at)
	}
	return out + " " + bi.GoVersion
}
