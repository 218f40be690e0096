package hook

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/corpus"
)

// Over the corpus's real agent commands that hang or leak, per kind of
// agent: how many the hook makes safe with the work kept (a change the
// agent applies), how many it refuses (the model must run what the
// reason says: "exact" when it gives the whole command to run, else how
// to start the job), how many run unchanged; "to bg" are the changes
// that move the command to the agent's background mode. A command that
// hangs the tool never runs unchanged (no answer an agent ignores), a
// change never still hangs, and a command that only leaks is never
// changed or refused (no friction without a hang). "Hangs" counts the
// commands whose shell does not end (error) and those that never end in
// the foreground (SG3001: a server, follower, watcher or a wait on them,
// which hold the tool until its timeout whatever their verdict). `go test ./hook -run Corpus -v`
// prints the table.
func TestCorpusOutcomes(t *testing.T) {
	profiles := []struct {
		name string
		caps Caps
	}{
		{"Claude Code, interactive (ask, background)", Caps{Ask: true, Rewrite: true, Background: true, BackgroundParam: "run_in_background"}},
		{"Claude Code -p, rules deny (no one asked)", Caps{Rewrite: true, Background: true, BackgroundParam: "run_in_background"}},
		{"Crush (silent, background)", Caps{Rewrite: true, Silent: true, Background: true, BackgroundParam: "run_in_background"}},
		{"Gemini, Codex, Cline CLI, OpenCode (silent)", Caps{Rewrite: true, Silent: true}},
		{"Qwen Code (background, no rewrite)", Caps{Background: true, BackgroundParam: "is_background"}},
		{"Copilot CLI, Cursor (no rewrite)", Caps{}},
	}
	dir := t.TempDir()
	var table strings.Builder
	fmt.Fprintf(&table, "%-44s %6s %8s %7s %8s %7s %7s | %6s %7s\n", "agent", "hangs", "changed", "(to bg)", "refused", "(exact)", "passed", "leaks", "passed")
	for _, p := range profiles {
		var hang, changed, moved, refused, exact, passedHang, leak, passedLeak int
		for _, e := range corpus.Load() {
			lang, err := analyze.ParseLang(e.Shell)
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Lang: lang, LogFile: func(n int) string { return filepath.Join(dir, fmt.Sprintf("job%d.log", n)) }}
			fs, err := analyze.Analyze([]byte(e.Cmd), analyze.WithLang(lang))
			if err != nil {
				continue
			}
			v := analyze.Verdict(fs)
			hangs := v == analyze.Error || forever(fs)
			if !hangs && (e.Verdict == corpus.Clean || v < analyze.Warning) {
				continue // the analyzer's misses are the corpus tests' business
			}
			ans, err := Respond(Request{Command: e.Cmd}, p.caps, opt)
			if err != nil {
				t.Fatalf("%s: %v", e.ID, err)
			}
			if hangs {
				hang++
				switch ans.Kind {
				case Change:
					changed++
					if ans.Background {
						moved++
					}
					after, err := analyze.Analyze([]byte(ans.Command), analyze.WithLang(lang))
					if err != nil || (analyze.Verdict(after) == analyze.Error || forever(after)) && !ans.Background {
						t.Errorf("%s (%s): the change %q still hangs: %v", e.ID, p.name, ans.Command, err)
					}
				case Refuse:
					refused++
					if strings.Contains(ans.Reason, "Run this instead") || strings.Contains(ans.Reason, "Run it again as") || strings.Contains(ans.Reason, "Run instead, each as its own call") {
						exact++
					}
					if !strings.Contains(ans.Reason, "Run ") && !strings.Contains(ans.Reason, "Start ") {
						t.Errorf("%s (%s): the refusal does not say what to run: %s", e.ID, p.name, ans.Reason)
					}
				default:
					passedHang++
					t.Errorf("%s (%s): a command that hangs runs unchanged", e.ID, p.name)
				}
				continue
			}
			leak++
			if ans.Kind != Pass {
				t.Errorf("%s (%s): a command that only leaks got %v", e.ID, p.name, ans.Kind)
			} else {
				passedLeak++
			}
		}
		fmt.Fprintf(&table, "%-44s %6d %8d %7d %8d %7d %7d | %6d %7d\n", p.name, hang, changed, moved, refused, exact, passedHang, leak, passedLeak)
	}
	t.Log("corpus commands the analyzer finds hanging or leaking, by answer:\n" + table.String())
}
