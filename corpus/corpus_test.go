package corpus

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/shguard/shguard/analyze"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// Every Observe is over: no other code here waits for children, so the
	// zombies of short-lived orphans can be collected now.
	ReapZombies()
	os.Exit(code)
}

func TestEntries(t *testing.T) {
	es := Load()
	if len(es) < 150 {
		t.Errorf("%d entries, want at least 150", len(es))
	}
	ids := map[string]int{}
	count := map[Verdict]int{}
	for _, e := range es {
		if l, dup := ids[e.ID]; dup {
			t.Errorf("line %d: id %q already used at line %d", e.Line, e.ID, l)
		}
		ids[e.ID] = e.Line
		count[e.Verdict]++
	}
	t.Logf("%d entries: %d error, %d warning, %d clean", len(es), count[Error], count[Warning], count[Clean])
}

// TestBash runs every entry's stand-in under real bash, the way an agent
// tool runs a command, and checks that bash does what the entry records.
// Stand-ins are short, or are sleeps that Observe kills, so the entries run
// concurrently, 16 at a time. That is done in goroutines rather than with
// t.Parallel, which would cap them at GOMAXPROCS although they mostly sleep.
func TestBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash for every entry")
	}
	es := Load()
	scripts := make([]string, len(es))
	for i, e := range es {
		scripts[i] = e.Script()
	}
	results := ObserveAll(scripts, Options{}, 16, 20*time.Second)
	for i, e := range es {
		t.Run(e.ID, func(t *testing.T) {
			o, err := results[i].Outcome, results[i].Err
			if err != nil {
				t.Fatalf("line %d: %v", e.Line, err)
			}
			if got := o.Verdict(); got != e.Verdict {
				t.Errorf("line %d: bash says %s, the corpus says %s\nscript: %s", e.Line, o, e.Verdict, e.Script())
			}
		})
	}
}

// TestAnalyzer checks that the analyzer gives every entry its recorded
// verdict and exactly its recorded rules, and that the stand-in has the
// same shape as the command: the analyzer's verdict on both is the same.
func TestAnalyzer(t *testing.T) {
	for _, e := range Load() {
		t.Run(e.ID, func(t *testing.T) {
			fs, err := analyze.Analyze([]byte(e.Cmd), analyze.WithCaller(analyze.CallerInGroup))
			if err != nil {
				t.Fatalf("line %d: cmd does not parse: %v", e.Line, err)
			}
			cmdVerdict := verdictOf(fs)
			if cmdVerdict != e.Verdict {
				t.Errorf("line %d: analyzer says %s, the corpus (bash) says %s\ncmd: %s\nfindings: %v", e.Line, cmdVerdict, e.Verdict, e.Cmd, fs)
			}
			if got := ruleSet(fs); !slices.Equal(got, e.Rules) {
				t.Errorf("line %d: analyzer reports %v, the corpus records %v\ncmd: %s\nfindings: %v", e.Line, got, e.Rules, e.Cmd, fs)
			}
			if e.Run == "" {
				return
			}
			rfs, err := analyze.Analyze([]byte(e.Run), analyze.WithCaller(analyze.CallerInGroup))
			if err != nil {
				t.Fatalf("line %d: run does not parse: %v", e.Line, err)
			}
			if got := verdictOf(rfs); got != cmdVerdict {
				t.Errorf("line %d: the stand-in does not have the command's shape: analyzer says %s on it, %s on cmd\nrun: %s\nfindings: %v", e.Line, got, cmdVerdict, e.Run, rfs)
			}
		})
	}
}

func verdictOf(fs []analyze.Finding) Verdict {
	switch analyze.Verdict(fs) {
	case analyze.Error:
		return Error
	case analyze.Warning:
		return Warning
	}
	return Clean
}

func ruleSet(fs []analyze.Finding) []string {
	var ids []string
	for _, f := range fs {
		if !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	slices.Sort(ids)
	return ids
}
