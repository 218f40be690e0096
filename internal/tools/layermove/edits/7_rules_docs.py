import re
def rd(p): return open(p).read()
def wr(p,s): open(p,'w').write(s)
p='analyze/rules/pass.go'; s=rd(p)
s=s.replace('''type Pass struct {
	walk.Pass
	Fixes    fix.Fixer
	Findings []diag.Finding
	Rule     *Rule // the rule being checked
}''','''//
// Its fields are exported for the façade, which resets them for each
// command and reads the findings after every rule ran; a rule reads the
// walk's facts and calls Report.
type Pass struct {
	walk.Pass
	Fixes    fix.Fixer      // SG1002's fixes; analyze.WithStyle sets its style
	Findings []diag.Finding // what the rules reported, in the order they did
	Rule     *Rule          // the rule being checked, whose ID Report gives a finding
}''')
s=s.replace('''// CheckRules runs every rule's check, in ID order; the order does not
// matter (TestRuleOrderIrrelevant runs them in reverse): no rule reads
// another's findings.''','''// CheckRules runs every rule's check, in ID order; the order does not
// matter (TestRuleOrderIrrelevant runs them in reverse): no rule reads
// another's findings. The façade calls it once the walk is done.''')
s=s.replace('''// Report adds a finding; positions are outer byte offsets, turned into
// lines and columns once all rules ran.''','''// Report adds a finding of the rule being checked; positions are outer
// byte offsets, which the façade turns into lines and columns once all
// rules ran. The façade reports the directive rules' findings with it too.''')
wr(p,s)
for f in ['analyze/rules/sg3101_invalid_directive.go','analyze/rules/sg3102_unused_directive.go']:
    s=rd(f); s=s.replace('// Reported by applyDirectives once every other rule has run.','// Reported by the façade (analyze.applyDirectives) once every other\n\t// rule has run.'); wr(f,s)
