package rewrite

import (
	"errors"

	"github.com/shguard/shguard/analyze"
)

// Result is the outcome of Fix.
type Result struct {
	// Out is the fixed source. It equals the input byte for byte when
	// nothing was fixed, and never gains a trailing newline.
	Out []byte
	// Applied are the findings whose fix was applied, positioned in the
	// input source.
	Applied []analyze.Finding
	// Remaining are the findings of Out: those without a fix that keeps
	// behaviour (a plain `server &`, say), positioned in Out.
	Remaining []analyze.Finding
}

// maxRounds bounds Fix. One round applies every fix at once; another is
// needed only when two fixes touched the same bytes (one waits for the
// next round), and a last one confirms that nothing is left to fix.
const maxRounds = 8

// Fix analyzes src, applies the first fix of every finding, and repeats on
// the result until no finding carries a fix, so that fixing the output
// again changes nothing. Options are the analyzer's (analyze.WithStyle
// chooses the style of the compound-background fix, analyze.WithLang the
// dialect).
//
// A source that does not parse returns the analyzer's *analyze.ParseError
// and no Result. Fix never produces a source that does not parse: a fix
// whose result would not parse is dropped and its finding stays in
// Remaining (that would be an analyzer bug; the fuzz targets look for it).
func Fix(src []byte, opts ...analyze.Option) (*Result, error) {
	res, err := analyze.Run(src, opts...)
	if err != nil {
		return nil, err
	}
	return FixResult(src, res, opts...), nil
}

// FixResult is Fix for a source already analysed: res is what analyze.Run
// gave for src with the same options (it is read, not changed). Only
// what the fixes make is analysed again, to verify it parses and to find
// what is left.
func FixResult(src []byte, res *analyze.Result, opts ...analyze.Option) *Result {
	cur := src
	var (
		applied []analyze.Finding // positioned in cur's coordinates of their round
		rounds  []offsetMap       // the edits of each round, for mapping back
		since   []int             // applied[i] was found in round since[i]
		skip    = map[fkey]bool{} // findings whose fix broke the parse, in cur's offsets
	)
	for round := 0; round < maxRounds; round++ {
		set, took := takeFixes(res.Findings, skip)
		edits := set.edits
		if len(took) == 0 {
			break
		}
		next, nres, edits, took := applyParsing(cur, res.Findings, edits, took, skip, opts)
		if len(took) == 0 {
			continue // every fix of this round broke the parse: skipped now, try the others
		}
		sortEdits(edits)
		m := newOffsetMap(edits)
		moved := map[fkey]bool{}
		for k := range skip {
			k.start = m.forward(k.start)
			moved[k] = true
		}
		skip = moved
		for _, f := range took {
			applied = append(applied, f)
			since = append(since, round)
		}
		rounds = append(rounds, m)
		cur, res = next, nres
	}

	// Carry the applied findings' positions back to src.
	lines := newLineIndex(src)
	for i := range applied {
		f := &applied[i]
		s, e := f.Start.Offset, f.End.Offset
		for r := since[i] - 1; r >= 0; r-- {
			s, e = rounds[r].back(s), rounds[r].back(e)
		}
		f.Start, f.End = lines.position(s), lines.position(e)
	}
	out := cur
	if len(rounds) == 0 {
		out = append([]byte(nil), src...)
	}
	return &Result{Out: out, Applied: applied, Remaining: res.Findings}
}

// takeFixes is one round's pick: the first fix of every finding that has
// one, is not in skip, and touches nothing a fix picked before it does.
func takeFixes(fs []analyze.Finding, skip map[fkey]bool) (*editSet, []analyze.Finding) {
	set := &editSet{}
	var took []analyze.Finding
	for _, f := range fs {
		if len(f.Fixes) == 0 || skip[key(f)] || !set.add(f.Fixes[0].Edits) {
			continue
		}
		took = append(took, f)
	}
	return set, took
}

// fkey identifies a finding within one text.
type fkey struct {
	rule  string
	start int
}

func key(f analyze.Finding) fkey { return fkey{f.Rule, f.Start.Offset} }

// applyParsing applies the edits and analyzes the result. If the result
// does not parse, it falls back to taking the fixes one by one, keeping
// those that leave a parseable source and marking the others in skip.
func applyParsing(cur []byte, all []analyze.Finding, edits []analyze.Edit, took []analyze.Finding, skip map[fkey]bool, opts []analyze.Option) ([]byte, *analyze.Result, []analyze.Edit, []analyze.Finding) {
	next, err := Apply(cur, edits)
	if err == nil {
		if nres, err := analyze.Run(next, opts...); err == nil {
			return next, nres, edits, took
		} else if !isParseError(err) {
			panic(err) // analyze.Run fails only on parse errors
		}
	}
	edits, kept := nil, took[:0:0]
	var nres *analyze.Result
	next = cur
	for _, f := range took {
		try := append(append([]analyze.Edit(nil), edits...), f.Fixes[0].Edits...)
		out, err := Apply(cur, try)
		if err == nil {
			if r, err := analyze.Run(out, opts...); err == nil {
				edits, kept, next, nres = try, append(kept, f), out, r
				continue
			}
		}
		skip[key(f)] = true
	}
	return next, nres, edits, kept
}

func isParseError(err error) bool {
	var pe *analyze.ParseError
	return errors.As(err, &pe)
}
