package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/corpus"
)

// TestRuleOrderIrrelevant runs the rules in reverse order over the corpus
// (each entry under its shell) and requires the same findings as in ID
// order: no rule may read what another reported (dropping what an error
// already covers is the driver's step, dropSubsumed). It compares what the
// rules report before the driver drops anything, so that no later step
// can hide a difference.
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
			want := reportedInOrder(src, lang)
			rulesList = reversed
			got := reportedInOrder(src, lang)
			if want != got {
				t.Errorf("%s: rules in reverse order give\n%v\nin ID order\n%v", e.ID, got, want)
			}
		}
	}
}

// reportedInOrder walks src as Analyze does with the shell lang alone and
// runs the rules in the order of rulesList: what they report, sorted, or
// the walk's error.
func reportedInOrder(src string, lang dialect.Lang) string {
	var p Pass
	p.Pass.Reset([]byte(src))
	p.Cfg.Lang = lang
	if err := p.Walk(); err != nil {
		return err.Error()
	}
	p.Fixes.Reset(&p.Pass)
	p.CheckRules()
	slices.SortStableFunc(p.Findings, func(a, b diag.Finding) int {
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset - b.Start.Offset
		}
		if c := strings.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		if a.End.Offset != b.End.Offset {
			return a.End.Offset - b.End.Offset
		}
		return strings.Compare(a.Message, b.Message)
	})
	return fmt.Sprint(p.Findings)
}
