package fuzz

import (
	"errors"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

func FuzzPlan(f *testing.F) {
	fuzz(f, checkPlan)
}

// checkPlan: a plan loses nothing and invents nothing. The foreground is
// the source minus the jobs' spans (or empty when only preludes remain),
// each job is its span without the &, and all of them parse.
func checkPlan(t *testing.T, src []byte) {
	t.Helper()
	p, err := rewrite.Plan(src)
	if _, aerr := analyze.Analyze(src); aerr != nil {
		var pe *analyze.ParseError
		if !errors.As(err, &pe) || p != nil {
			t.Fatalf("Plan of unparseable %q: %v, %v", src, p, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Plan(%q): %v", src, err)
	}
	if len(p.Jobs) == 0 {
		if p.Foreground != string(src) {
			t.Fatalf("Plan(%q) promotes nothing but changes the foreground to %q", src, p.Foreground)
		}
		return
	}
	var rest strings.Builder
	last := 0
	for _, j := range p.Jobs {
		if j.Start < last || j.End <= j.Start || j.End > len(src) {
			t.Fatalf("Plan(%q): bad job span %d:%d", src, j.Start, j.End)
		}
		span := string(src[j.Start:j.End])
		if !strings.HasPrefix(span, j.Command) || !strings.HasSuffix(span, "&") {
			t.Fatalf("Plan(%q): job %q is not its span %q without the &", src, j.Command, span)
		}
		if tail := strings.TrimRight(span[len(j.Command):len(span)-1], " \t\\\n"); tail != "" {
			t.Fatalf("Plan(%q): job %q drops %q of its span", src, j.Command, tail)
		}
		for _, part := range []string{j.Command, j.Script()} {
			res, err := analyze.Run([]byte(part))
			if err != nil {
				t.Fatalf("Plan(%q): job %q does not parse: %v", src, part, err)
			}
			for _, s := range res.File.Stmts {
				if s.Background && part == j.Command && len(res.File.Stmts) == 1 {
					t.Fatalf("Plan(%q): job %q is still a background statement", src, part)
				}
			}
		}
		rest.Write(src[last:j.Start])
		last = j.End
	}
	rest.Write(src[last:])
	if p.Foreground != "" && p.Foreground != rest.String() {
		t.Fatalf("Plan(%q): foreground %q, want the source without the jobs: %q", src, p.Foreground, rest.String())
	}
	if _, err := analyze.Analyze([]byte(rest.String())); err != nil {
		t.Fatalf("Plan(%q): the source without its jobs, %q, does not parse: %v", src, rest.String(), err)
	}
}
