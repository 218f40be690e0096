package analyze

import "testing"

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
		if got := programName(lit); got != want {
			t.Errorf("programName(%q) = %q, want %q", lit, got, want)
		}
	}
}
