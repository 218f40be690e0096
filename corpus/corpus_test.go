package corpus

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
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
		if dir := missingDir(e.Script()); dir != "" {
			t.Errorf("line %d: %s runs with %s, which a fresh machine does not have (use /tmp or the run's own directory)", e.Line, e.ID, dir)
		}
	}
	t.Logf("%d entries: %d error, %d warning, %d clean", len(es), count[Error], count[Warning], count[Clean])
}

// TestShells runs every entry's stand-in under its real shell (bash, zsh,
// dash, mksh), started the way the entry says, and checks that the shell
// does what the entry records. Stand-ins are short, or are sleeps that
// Observe kills, so the entries run concurrently, 16 at a time. That is
// done in goroutines rather than with t.Parallel, which would cap them at
// GOMAXPROCS although they mostly sleep.
func TestShells(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a shell for every entry")
	}
	if err := Subreaper(); err != nil {
		t.Skip(err)
	}
	es := Load()
	// A machine without zsh or mksh checks the other shells' entries and
	// says which it skipped; CI, which installs them, sets
	// SHGUARD_REQUIRE_SHELLS so that a missing shell fails there.
	missing := map[string]bool{}
	for _, e := range es {
		if _, err := exec.LookPath(e.Shell); err != nil && !missing[e.Shell] {
			missing[e.Shell] = true
			if os.Getenv("SHGUARD_REQUIRE_SHELLS") != "" {
				t.Errorf("%s is not installed: its entries cannot be checked (.ci/run installs it)", e.Shell)
			} else {
				t.Logf("%s is not installed: its entries are skipped (apt-get install zsh mksh; .ci/run installs them)", e.Shell)
			}
		}
	}
	results := observeEntries(es, "")
	if path := os.Getenv("SHGUARD_CORPUS_TIMES"); path != "" {
		writeTimes(t, path, es, results)
	}
	for i, e := range es {
		t.Run(e.ID, func(t *testing.T) {
			if missing[e.Shell] {
				t.Skipf("%s is not installed", e.Shell)
			}
			checkObservation(t, e, results[i])
		})
	}
}

// checkObservation checks what the entry's shell did against the entry:
// its verdict; for an entry whose foreground never ends, that the shell
// was still running when Observe gave up on it; for one the shell refuses
// (SG1000), that the shell said so.
func checkObservation(t *testing.T, e Entry, r Observation) {
	t.Helper()
	o, err := r.Outcome, r.Err
	if err != nil {
		t.Fatalf("line %d: %v", e.Line, err)
	}
	if slices.Contains(e.Rules, analyze.NotValidShell.ID) && !syntaxError.MatchString(o.Output) {
		t.Errorf("line %d: %s ran the script without a syntax error, the corpus says it refuses it (SG1000)\noutput: %q", e.Line, e.Shell, o.Output)
	}
	if e.Endless {
		if o.Exited {
			t.Errorf("line %d: %s ended (%s), the corpus says its foreground never ends", e.Line, e.Shell, o)
		}
		return
	}
	if got := o.Verdict(); got != e.Verdict {
		t.Errorf("line %d: %s says %s, the corpus says %s\nscript: %s", e.Line, e.Shell, o, e.Verdict, e.Script())
	} else if f := r.first; f != nil {
		t.Logf("line %d: run among sixteen: %s; run again, two at a time: %s", e.Line, f.Outcome, o)
	}
}

// observeEntries runs each entry's script, behind prefix, under its shell
// as its caller starts it.
//
// The stand-ins time what they do (a kill 0.2 s after a start, a setsid
// sleep of 3 s that must still run when the shell exits), which a
// machine running sixteen of them beside other work can be too late for.
// So an entry whose shell does not do what it records is run again, two
// at a time, and that run is the one that counts; the first is logged
// (see confirmed). More than maxAgain such entries is no longer the
// machine's load: they count as they are.
func observeEntries(es []Entry, prefix string) []Observation {
	return observeEntriesWith(es, prefix, nil)
}

// observeEntriesWith is observeEntries with the bounds of every run set
// by bounds (nil: Observe's defaults).
func observeEntriesWith(es []Entry, prefix string, bounds func(*Options)) []Observation {
	runs := make([]Run, len(es))
	for i, e := range es {
		runs[i] = Run{Script: prefix + e.Script(), Options: e.Options()}
		if bounds != nil {
			bounds(&runs[i].Options)
		}
	}
	obs := ObserveEach(runs, 16, 20*time.Second)
	var again []int
	for i, o := range obs {
		if o.Err != nil || !es[i].Endless && o.Outcome.Verdict() != es[i].Verdict || es[i].Endless && o.Outcome.Exited {
			again = append(again, i)
		}
	}
	if len(again) == 0 || len(again) > maxAgain {
		return obs
	}
	rerun := make([]Run, len(again))
	for k, i := range again {
		rerun[k] = runs[i]
	}
	for k, o := range ObserveEach(rerun, 2, 20*time.Second) {
		i := again[k]
		first := obs[i]
		obs[i] = o
		obs[i].first = &first
	}
	return obs
}

// maxAgain bounds the entries observeEntries runs a second time.
const maxAgain = 40

// analyzeOpts are the analyzer options that match how the entry runs.
func analyzeOpts(e Entry) []analyze.Option {
	lang, err := analyze.ParseLang(e.Shell)
	if err != nil {
		panic(err) // Parse accepts only known shells
	}
	caller := analyze.CallerInGroup
	if e.Caller == CallerLeader {
		caller = analyze.CallerGroupLeader
	}
	opts := []analyze.Option{analyze.WithLang(lang), analyze.WithCaller(caller)}
	if strings.HasPrefix(e.Cmd, "#!") {
		// a script file whose shell the linter reads from its shebang
		opts = append(opts, analyze.WithShebangShell())
	}
	return opts
}

// TestAnalyzer checks that the analyzer gives every entry its recorded
// verdict and exactly its recorded rules, and that the stand-in has the
// same shape as the command: the analyzer's verdict on both is the same.
func TestAnalyzer(t *testing.T) {
	for _, e := range Load() {
		t.Run(e.ID, func(t *testing.T) {
			fs, err := analyze.Analyze([]byte(e.Cmd), analyzeOpts(e)...)
			if slices.Contains(e.Rules, analyze.NotValidShell.ID) {
				refused(t, e, err)
				return
			}
			if err != nil {
				t.Fatalf("line %d: cmd does not parse: %v", e.Line, err)
			}
			cmdVerdict := verdictOf(fs)
			if cmdVerdict != e.Verdict {
				t.Errorf("line %d: analyzer says %s, the corpus (%s) says %s\ncmd: %s\nfindings: %v", e.Line, cmdVerdict, e.Shell, e.Verdict, e.Cmd, fs)
			}
			if got := ruleSet(fs); !slices.Equal(got, e.Rules) {
				t.Errorf("line %d: analyzer reports %v, the corpus records %v\ncmd: %s\nfindings: %v", e.Line, got, e.Rules, e.Cmd, fs)
			}
			if e.Run == "" {
				return
			}
			rfs, err := analyze.Analyze([]byte(e.Run), analyzeOpts(e)...)
			if err != nil {
				t.Fatalf("line %d: run does not parse: %v", e.Line, err)
			}
			if got := verdictOf(rfs); got != cmdVerdict {
				t.Errorf("line %d: the stand-in does not have the command's shape: analyzer says %s on it, %s on cmd\nrun: %s\nfindings: %v", e.Line, got, cmdVerdict, e.Run, rfs)
			}
		})
	}
}

// refused checks an entry whose shell refuses the command (rules: SG1000,
// and nothing else, since nothing else can be said of it): the analyzer
// returns a parse error for the command and the stand-in alike, naming a
// shell that accepts it. The verdict recorded is the shell's (what ran of
// it before the line it refused), which the analyzer does not give.
func refused(t *testing.T, e Entry, err error) {
	t.Helper()
	if len(e.Rules) != 1 {
		t.Errorf("line %d: SG1000 comes alone: a script the shell refuses has no other findings", e.Line)
	}
	for _, src := range []string{e.Cmd, e.Run} {
		if src == "" {
			continue
		}
		_, err := analyze.Analyze([]byte(src), analyzeOpts(e)...)
		var pe *analyze.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("line %d: the analyzer parses %q for %s (%v), the corpus says %s refuses it", e.Line, src, e.Shell, err, e.Shell)
		} else if pe.ValidIn == "" {
			t.Errorf("line %d: the parse error names no shell that accepts it: %v", e.Line, pe)
		}
	}
}

// syntaxError matches what the four shells print when they refuse a
// script: bash's, mksh's and dash's "syntax error" ("Syntax error"),
// zsh's "parse error".
var syntaxError = regexp.MustCompile(`(?i)syntax error|parse error`)

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

// absPath finds the absolute paths a script names.
var absPath = regexp.MustCompile(`(?:^|[\s'"=:(<>])(/[A-Za-z0-9._-]+)(/[A-Za-z0-9._-]+)?/`)

// missingDir returns a directory that script writes or reads in but does
// not make itself and that a fresh machine has no reason to have (a
// helper's scratch directory under /work or /tmp, a home), or "". The runs
// happen in a directory of their own, with /tmp beside them on every
// machine.
func missingDir(script string) string {
	for _, m := range absPath.FindAllStringSubmatch(script, -1) {
		top, sub := m[1], m[2]
		switch {
		case top == "/work" || top == "/home" || top == "/root":
			return top + sub
		case top == "/tmp" && sub != "" && !strings.Contains(script, "mkdir -p /tmp"+sub) && !strings.Contains(script, "mkdir /tmp"+sub):
			return top + sub
		}
	}
	return ""
}

// writeTimes writes, for each entry, how its run went and how long it
// took (SHGUARD_CORPUS_TIMES=file): where TestShells's time goes, and
// which entries exit close to a bound.
func writeTimes(t *testing.T, path string, es []Entry, obs []Observation) {
	var b strings.Builder
	b.WriteString("id\tshell\tverdict\texited\texited_after_ms\telapsed_ms\n")
	for i, e := range es {
		o := obs[i].Outcome
		fmt.Fprintf(&b, "%s\t%s\t%s\t%v\t%d\t%d\n", e.ID, e.Shell, o.Verdict(), o.Exited, o.ExitedAfter.Milliseconds(), o.Elapsed.Milliseconds())
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}
