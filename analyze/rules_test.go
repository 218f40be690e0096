package analyze

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/rules"
)

// Every rule documents itself with a WRONG example that it reports and a
// RIGHT example on which no rule reports anything at warning or above (and
// the rule itself nothing at all).
func TestRuleExamples(t *testing.T) {
	idRe := regexp.MustCompile(`^SG[123]\d{3}$`)
	for _, r := range rules.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if !idRe.MatchString(r.ID) {
				t.Fatalf("rule ID %q is not SGnnnn", r.ID)
			}
			if want := diag.Severity(4 - int(r.ID[2]-'0')); r.Severity != want {
				t.Errorf("%s has severity %s, its class says %s", r.ID, r.Severity, want)
			}
			if r.Name == "" || r.Summary == "" || r.Doc == "" || r.Wrong == "" || r.Right == "" {
				t.Fatalf("%s lacks name, summary, doc or examples", r.ID)
			}
			wrong, err := Analyze([]byte(r.Wrong), exampleOpts(r, r.Wrong)...)
			if r == NotValidShell {
				// Its WRONG example is one the shell cannot parse.
				var pe *diag.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("WRONG example parses: %v, %v", wrong, err)
				}
				wrong = []diag.Finding{pe.Finding()}
			} else if err != nil {
				t.Fatalf("WRONG example does not parse: %v", err)
			}
			if !hasRule(wrong, r.ID) {
				t.Errorf("WRONG example %q is not reported by %s; got %v", r.Wrong, r.ID, wrong)
			}
			right, err := Analyze([]byte(r.Right), exampleOpts(r, r.Right)...)
			if err != nil {
				t.Fatalf("RIGHT example does not parse: %v", err)
			}
			if hasRule(right, r.ID) || diag.Verdict(right) != 0 {
				t.Errorf("RIGHT example %q is not clean: %v", r.Right, right)
			}
		})
	}
}

// exampleOpts analyses an example for its rule's shell; an example that
// starts with a shebang is a script file whose shell is read from it, as
// the linter reads it (WithShebangShell).
func exampleOpts(r *rules.Rule, src string) []Option {
	if strings.HasPrefix(src, "#!") {
		return []Option{WithLang(r.Shell), WithShebangShell()}
	}
	return []Option{WithLang(r.Shell)}
}

func hasRule(fs []diag.Finding, id string) bool {
	for _, f := range fs {
		if f.Rule == id {
			return true
		}
	}
	return false
}
