package fix

import "github.com/shguard/shguard/analyze/walk"

// Fixer makes the fixes of one analysis. It reads the walk's pass (the
// jobs' statements and sources, the tree, the shell) and keeps what it
// works out once per source: the scopes that say whether `exec B` runs
// what `B` ran. The façade's checker holds one, pooled with it, and hands
// it to SG1002, the one rule with a fix; analyze.WithStyle sets Style.
type Fixer struct {
	*walk.Pass
	Style Style // the form of the compound fix (exported: the option sets it)
	// scopes of the exec fix, computed once per source
	outerScope   *scope
	nestedScopes map[*walk.Source]*scope
}

// Reset clears what the previous analysis left and points the fixer at
// the pass of this one; each field only when set (see walk.Pass.Reset).
func (p *Fixer) Reset(pass *walk.Pass) {
	if p.Pass != pass {
		p.Pass = pass
	}
	p.Style = 0
	if p.outerScope != nil {
		p.outerScope = nil
	}
	if p.nestedScopes != nil {
		p.nestedScopes = nil
	}
}
