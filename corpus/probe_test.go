package corpus

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shguard/shguard/analyze"
)

// TestProbe checks commands nobody has written a corpus entry for yet:
// each command in the file $SHGUARD_PROBE runs under each shell of
// $SHGUARD_PROBE_SHELLS (default "bash zsh dash mksh") by Observe, and the
// analyzer's verdict for that shell must be the shell's. This is how the
// model is tried on new shapes before they become corpus entries:
//
//	SHGUARD_PROBE=cmds.txt go test ./corpus -run TestProbe -v
//
// One command per line (lines starting with # are skipped); a file that
// contains a line "----" holds multi-line commands separated by such
// lines. Use `sleep N` with distinct N as the long-running program.
// $SHGUARD_PROBE_CALLER=group runs the shells in a process group they do
// not lead (as make and Python start them) instead of as group leaders
// (as agent tools do). A command the shell does not finish within Observe's limit
// (a long foreground command, a wait) is logged, not compared: how long
// the foreground takes is not a hang. Without $SHGUARD_PROBE the test is
// skipped.
func TestProbe(t *testing.T) {
	file := os.Getenv("SHGUARD_PROBE")
	if file == "" {
		t.Skip("set SHGUARD_PROBE to a file of commands")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	progs := probeCommands(string(data))
	if err := Subreaper(); err != nil {
		t.Skip(err)
	}
	caller, leader := analyze.CallerGroupLeader, true
	if os.Getenv("SHGUARD_PROBE_CALLER") == "group" {
		caller, leader = analyze.CallerInGroup, false
	}
	shells := strings.Fields(os.Getenv("SHGUARD_PROBE_SHELLS"))
	if len(shells) == 0 {
		shells = []string{"bash", "zsh", "dash", "mksh"}
	}
	for _, shell := range shells {
		t.Run(shell, func(t *testing.T) {
			lang, err := analyze.ParseLang(shell)
			if err != nil {
				t.Fatal(err)
			}
			opts := []analyze.Option{analyze.WithLang(lang), analyze.WithCaller(caller)}
			obs := ObserveAll(progs, Options{Shell: shell, Leader: leader}, 8, 15*time.Second)
			for i, p := range progs {
				fs, err := analyze.Analyze([]byte(p), opts...)
				switch {
				case err != nil:
					t.Logf("not valid %s: %v: %s", shell, err, p)
				case obs[i].Err != nil:
					t.Errorf("%s: %v", p, obs[i].Err)
				case !obs[i].Outcome.Exited:
					t.Logf("%s did not finish (a long foreground, a wait): %s", shell, p)
				case verdictOf(fs) != obs[i].Outcome.Verdict():
					t.Errorf("analyzer says %s, %s says %s\ncommand: %s\n%s: %s\nfindings: %v",
						verdictOf(fs), shell, obs[i].Outcome.Verdict(), p, shell, obs[i].Outcome, fs)
				}
			}
		})
	}
}

// probeCommands splits a probe file into commands.
func probeCommands(data string) []string {
	sep := "\n"
	if strings.Contains(data, "\n----\n") {
		sep = "\n----\n"
	}
	var out []string
	for _, c := range strings.Split(data, sep) {
		if strings.TrimSpace(c) != "" && !strings.HasPrefix(c, "#") {
			out = append(out, strings.TrimSuffix(c, "\n"))
		}
	}
	return out
}
