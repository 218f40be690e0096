package analyze

import (
	"os"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/rules"
)

// The README's rule table lists every rule with its anchor, severity, name
// and summary, so the help URLs in SARIF output resolve.
func TestREADMERuleTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, r := range rules.Rules() {
		row := "| <a id=\"" + strings.ToLower(r.ID) + "\"></a>[" + r.ID + "](docs/rules/" + r.ID + ".md) | " + r.Severity.String() + " | " + r.Name + " | " + r.Summary + " |"
		if !strings.Contains(readme, row) {
			t.Errorf("README.md lacks the row\n%s", row)
		}
	}
}
