package analyze

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/shguard/shguard/analyze/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules/*.md from the rules")

// Every rule has a page, docs/rules/SGxxxx.md, which is its Markdown: the
// helpUri of SARIF and the url of JSON findings point there, so a stale or
// missing page is a test failure (-update rewrites them).
func TestRulePages(t *testing.T) {
	dir := filepath.Join("..", "docs", "rules")
	want := map[string]bool{}
	for _, r := range rules.Rules() {
		name := r.ID + ".md"
		want[name] = true
		path := filepath.Join(dir, name)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(r.Markdown()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s has no page: %v (go test ./analyze -run TestRulePages -update)", r.ID, err)
			continue
		}
		if string(got) != r.Markdown() {
			t.Errorf("%s is stale: it differs from %s's documentation (go test ./analyze -run TestRulePages -update)", path, r.ID)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("docs/rules/%s is the page of no rule", e.Name())
		}
	}
}
