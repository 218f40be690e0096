package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// FuzzShells holds, for every shell the analysis models and both callers
// (the shell leading its own group, as agent tools start it, or in its
// caller's group), what FuzzFix holds for bash alone where it does not
// depend on bash's syntax:
//
//   - nothing panics, and a source the shell refuses is a *ParseError;
//   - findings lie inside the source, in order, with lines and columns
//     that agree with their offsets;
//   - the analysis gives the same answer twice (passes, parsers and
//     compiled patterns are pooled: nothing may leak from one to the next);
//   - the fixes of that shell only insert, and fixing twice is fixing once.
func FuzzShells(f *testing.F) {
	fuzz(f, checkShells)
}

var shellLangs = []analyze.Lang{analyze.LangBash, analyze.LangZsh, analyze.LangDash, analyze.LangMksh}

func checkShells(t *testing.T, src []byte) {
	t.Helper()
	for _, lang := range shellLangs {
		for _, caller := range []analyze.Caller{analyze.CallerGroupLeader, analyze.CallerInGroup} {
			opts := []analyze.Option{analyze.WithLang(lang), analyze.WithCaller(caller)}
			where := fmt.Sprintf("%s, caller %d", lang, caller)
			res, err := analyze.Run(src, opts...)
			if err != nil {
				var pe *analyze.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("%s: Run(%q): %v is not a *ParseError", where, src, err)
				}
				continue
			}
			checkPositions(t, where, src, res.Findings)
			again, err := analyze.Analyze(src, opts...)
			if err != nil || !slices.EqualFunc(res.Findings, again, sameFinding) {
				t.Fatalf("%s: %q analysed twice differs:\n%v\n%v (%v)", where, src, res.Findings, again, err)
			}
			fixed, err := rewrite.Fix(src, opts...)
			if err != nil {
				t.Fatalf("%s: Fix(%q): %v, but it parses", where, src, err)
			}
			if !subsequence(src, fixed.Out) {
				t.Fatalf("%s: Fix(%q) = %q drops or changes bytes of the source", where, src, fixed.Out)
			}
			twice, err := rewrite.Fix(fixed.Out, opts...)
			if err != nil {
				t.Fatalf("%s: fixed output of %q does not parse: %q: %v", where, src, fixed.Out, err)
			}
			if !bytes.Equal(twice.Out, fixed.Out) {
				t.Fatalf("%s: fixing twice differs from fixing once:\nsrc   %q\nonce  %q\ntwice %q", where, src, fixed.Out, twice.Out)
			}
		}
	}
}

// checkPositions holds a list of findings to the source they are about.
func checkPositions(t *testing.T, where string, src []byte, fs []analyze.Finding) {
	t.Helper()
	for i, f := range fs {
		if f.Start.Offset < 0 || f.End.Offset > len(src) || f.Start.Offset > f.End.Offset {
			t.Fatalf("%s: finding %v of %q lies outside the source", where, f, src)
		}
		if i > 0 && fs[i-1].Start.Offset > f.Start.Offset {
			t.Fatalf("%s: findings of %q out of order: %v before %v", where, src, fs[i-1], f)
		}
		for _, p := range []analyze.Position{f.Start, f.End} {
			line := 1 + bytes.Count(src[:p.Offset], []byte{'\n'})
			col := p.Offset - (bytes.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
			if p.Line != line || p.Col != col {
				t.Fatalf("%s: finding %v of %q: offset %d is %d:%d, not %d:%d", where, f, src, p.Offset, line, col, p.Line, p.Col)
			}
		}
	}
}

func sameFinding(a, b analyze.Finding) bool {
	return a.Rule == b.Rule && a.Start == b.Start && a.End == b.End && a.Message == b.Message && len(a.Fixes) == len(b.Fixes)
}
