// Package version says which build of a command is running: the module
// version `go install …@vX` records, and for a build from a clone the VCS
// revision, its time and whether the tree had uncommitted changes. Bug
// reports and pinned CI need to say which build ran.
package version

import (
	"fmt"
	"runtime/debug"
)

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
