package analyze

// The bytes parseAmpGt (in the dialect) moved to read dash's `&>` as
// `& >`, as the findings and fixes of this pass see them.

// dropMovedFixes removes the fixes of findings whose edits would touch a
// byte parseAmpGt moved: they were computed on the parsed copy.
func (p *checker) dropMovedFixes() {
	for i := range p.Findings {
		f := &p.Findings[i]
		for _, fx := range f.Fixes {
			for _, e := range fx.Edits {
				for _, m := range p.AmpGt {
					if e.Start <= m+3 && e.End >= m-1 {
						f.Fixes = nil
					}
				}
			}
		}
	}
}
