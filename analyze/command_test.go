package analyze

import (
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A word with a slash runs a file: it is never a builtin, so exec'ing it
// (the SG1002 fix) must leave a command that resolves to that file.
func TestProgramName(t *testing.T) {
	for lit, want := range map[string]string{
		"nohup":                    "nohup",
		"/usr/bin/nohup":           "nohup",
		"./node_modules/.bin/vite": "vite",
		"/bin/kill":                "kill",
		"exec/":                    "exec/",
		"./exec":                   "./exec",
		"bin/command":              "bin/command",
		"server/":                  "server/",
	} {
		if got := knowledge.ProgramName(lit); got != want {
			t.Errorf("programName(%q) = %q, want %q", lit, got, want)
		}
	}
}

// The wrappers that exec their command take arguments before it that are
// not the command: a new root, an architecture, an option's value.
func TestResolveExecWrappers(t *testing.T) {
	for cmd, want := range map[string]string{
		"prlimit --nofile=1024 server":         "server",
		"prlimit --pid 12 --output RESOURCE x": "x",
		"setpriv --reuid 1000 --init-groups x": "x",
		"setpriv --regid=1000 x":               "x",
		"chroot / x":                           "x",
		"chroot --userspec 1000:1000 /srv x":   "x",
		"setarch x86_64 -R x":                  "x",
		"linux64 x":                            "x",
		"prlimit -p 12":                        "prlimit",
		"nice chroot / setarch i686 x":         "x",
	} {
		if got := resolveText(t, cmd).Name; got != want {
			t.Errorf("resolve(%q) runs %q, want %q", cmd, got, want)
		}
	}
}

// resolveText resolves the first command of cmd, parsed as bash.
func resolveText(t *testing.T, cmd string) knowledge.Resolved {
	t.Helper()
	f, err := dialect.Parse([]byte(cmd), syntax.LangBash)
	if err != nil {
		t.Fatal(err)
	}
	return knowledge.Resolve(f.Stmts[0].Cmd.(*syntax.CallExpr).Args)
}
