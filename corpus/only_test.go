package corpus

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/shguard/shguard/analyze"
)

// TestShellsOnly is TestShells for the entries whose id matches the
// regular expression $SHGUARD_CORPUS_ONLY, so that new entries can be
// checked under their shells without running the whole corpus (TestShells
// observes every entry before it reports on any):
//
//	SHGUARD_CORPUS_ONLY='^p36-' go test ./corpus -run TestShellsOnly -v
func TestShellsOnly(t *testing.T) {
	expr := os.Getenv("SHGUARD_CORPUS_ONLY")
	if expr == "" {
		t.Skip("set SHGUARD_CORPUS_ONLY to a regular expression of entry ids")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	if err := Subreaper(); err != nil {
		t.Skip(err)
	}
	var es []Entry
	for _, e := range Load() {
		if re.MatchString(e.ID) {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		t.Fatalf("no entry id matches %q", expr)
	}
	results := observeEntries(es, "")
	for i, e := range es {
		t.Run(e.ID, func(t *testing.T) {
			o, err := results[i].Outcome, results[i].Err
			if err != nil {
				t.Fatalf("line %d: %v", e.Line, err)
			}
			if slices.Contains(e.Rules, analyze.NotValidShell.ID) && !syntaxError.MatchString(o.Output) {
				t.Errorf("line %d: %s ran the script without a syntax error, the corpus says it refuses it (SG1000)\noutput: %q", e.Line, e.Shell, o.Output)
			}
			if got := o.Verdict(); got != e.Verdict {
				t.Errorf("line %d: %s says %s, the corpus says %s\nscript: %s", e.Line, e.Shell, o, e.Verdict, e.Script())
			} else {
				t.Logf("line %d: %s", e.Line, o)
			}
		})
	}
}
