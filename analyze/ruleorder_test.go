package analyze

import (
	"fmt"
	"slices"
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/corpus"
)

// TestRuleOrderIrrelevant runs the rules in reverse order over the corpus
// (each entry under its shell) and requires the same findings as in ID
// order: no rule may read what another reported (dropping what an error
// already covers is the driver's step, dropSubsumed).
func TestRuleOrderIrrelevant(t *testing.T) {
	saved := sortedRules()
	defer func() { rulesList = saved }()
	reversed := slices.Clone(saved)
	slices.Reverse(reversed)
	for _, e := range corpus.Load() {
		lang, err := dialect.ParseLang(e.Shell)
		if e.Shell == "" {
			lang, err = dialect.LangBash, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{e.Cmd, e.Run} {
			if src == "" {
				continue
			}
			rulesList = saved
			want, werr := Analyze([]byte(src), WithLang(lang))
			rulesList = reversed
			got, gerr := Analyze([]byte(src), WithLang(lang))
			if fmt.Sprint(want, werr) != fmt.Sprint(got, gerr) {
				t.Errorf("%s: rules in reverse order give\n%v\nin ID order\n%v", e.ID, got, want)
			}
		}
	}
}
