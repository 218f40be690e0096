package corpus

import (
	"os"
	"regexp"
	"testing"
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
			checkObservation(t, e, results[i])
			t.Logf("line %d: %s", e.Line, results[i].Outcome)
		})
	}
}
