package analyze

import (
	"strings"
	"testing"
)

// newPass clears only the used part of the pooled scratch slices, which is
// enough only if whatever shrinks them zeroes what it drops. A pass that
// left stale findings or jobs past the end would keep their memory alive
// and, worse, hand them to a later append's reader.
func TestPassScratchZeroBeyondLen(t *testing.T) {
	many := strings.Repeat("sleep 1 & sleep 2 &\n", 20)
	fewer := "sleep 3 &\n# shguard disable=SG1001 -- dropped from the middle\nsleep 4 &\nsleep 5 &\n"
	for _, src := range []string{many, fewer, "echo hi\n"} {
		if _, err := Analyze([]byte(src)); err != nil {
			t.Fatal(err)
		}
		p := passes.Get().(*pass)
		for i, f := range p.findings[len(p.findings):cap(p.findings)] {
			if f.Rule != "" || f.Message != "" || f.Fixes != nil {
				t.Fatalf("after %q: findings[%d] beyond len is %+v", src, len(p.findings)+i, f)
			}
		}
		for i, j := range p.jobs[len(p.jobs):cap(p.jobs)] {
			if j != nil {
				t.Fatalf("after %q: jobs[%d] beyond len is set", src, len(p.jobs)+i)
			}
		}
		passes.Put(p)
	}
}
