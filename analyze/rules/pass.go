package rules

import (
	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/fix"
	"github.com/shguard/shguard/analyze/walk"
)

// Pass is what a rule's check is given: the walk's facts (the embedded
// walk.Pass: its jobs, marks, calls, source and config), the fixer that
// SG1002 asks for its fixes, and the findings the rules report. The
// façade's checker holds one, pooled with it, and goes on from its
// findings (directives, positions, order).
//
// Its fields are exported for the façade, which resets them for each
// command and reads the findings after every rule ran; a rule reads the
// walk's facts and calls Report.
type Pass struct {
	walk.Pass
	Fixes    fix.Fixer      // SG1002's fixes; analyze.WithStyle sets its style
	Findings []diag.Finding // what the rules reported, in the order they did
	Rule     *Rule          // the rule being checked, whose ID Report gives a finding
}

// CheckRules runs every rule's check, in ID order; the order does not
// matter (TestRuleOrderIrrelevant runs them in reverse): no rule reads
// another's findings. The façade calls it once the walk is done.
func (p *Pass) CheckRules() {
	for _, r := range sortedRules() {
		if r.check != nil {
			p.Rule = r
			r.check(p)
		}
	}
}

// Report adds a finding of the rule being checked; positions are outer
// byte offsets, which the façade turns into lines and columns once all
// rules ran. The façade reports the directive rules' findings with it too.
func (p *Pass) Report(start, end int, msg string) *diag.Finding {
	p.Findings = append(p.Findings, diag.Finding{
		Rule:     p.Rule.ID,
		Severity: p.Rule.Severity,
		Start:    diag.Position{Offset: start},
		End:      diag.Position{Offset: end},
		Message:  msg,
		URL:      p.Rule.URL(),
	})
	return &p.Findings[len(p.Findings)-1]
}
