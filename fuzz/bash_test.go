package fuzz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// allSeeds adds the fuzzer's recorded inputs (regressions and whatever a
// local run left in testdata/fuzz) to the shared seeds.
func allSeeds(t *testing.T) []string {
	out := seeds(t)
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "string(") {
			continue
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err == nil {
			out = append(out, s)
		}
	}
	return out
}

// The fuzz targets check that fixed output parses with mvdan.cc/sh; bash
// itself is the judge that matters. Every seed that bash -n accepts must
// still be accepted after either fix, and so must its plan's foreground
// and job scripts.
func TestBashAcceptsFixedSeeds(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	checked := 0
	for _, src := range allSeeds(t) {
		if !bashOK(bash, src) {
			continue
		}
		for _, style := range []analyze.Style{analyze.StyleExec, analyze.StyleBrace} {
			res, err := rewrite.Fix([]byte(src), analyze.WithStyle(style))
			if err != nil {
				continue // bash accepts what mvdan.cc/sh does not: nothing to fix
			}
			if out := string(res.Out); out != src {
				checked++
				if !bashOK(bash, out) {
					t.Errorf("%s fix of %q gives %q, which bash -n rejects", style, src, out)
				}
			}
		}
		if p, err := rewrite.Plan([]byte(src)); err == nil && len(p.Jobs) > 0 {
			checked++
			if !bashOK(bash, p.Foreground) {
				t.Errorf("plan of %q: bash -n rejects the foreground %q", src, p.Foreground)
			}
			for _, j := range p.Jobs {
				if !bashOK(bash, j.Script()) {
					t.Errorf("plan of %q: bash -n rejects the job %q", src, j.Script())
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d seeds were changed by a fix or a plan: the seeds no longer exercise the rewriter", checked)
	}
	t.Logf("%d fixed outputs and plans checked with bash -n", checked)
}

func bashOK(bash, src string) bool {
	return exec.Command(bash, "-n", "-c", src).Run() == nil
}
