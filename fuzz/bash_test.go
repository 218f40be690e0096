package fuzz

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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
// and job scripts. That is a bash process per seed and per output (about
// 6,000): they run a few at a time, which is most of what makes this test
// take seconds rather than a minute on a busy machine.
func TestBashAcceptsFixedSeeds(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	srcs := allSeeds(t)
	accepted := bashAccepts(bash, srcs)
	// what: a text bash -n must accept, and what to say if it does not.
	type check struct{ text, what string }
	var checks []check
	for i, src := range srcs {
		if !accepted[i] {
			continue
		}
		for _, style := range []analyze.Style{analyze.StyleExec, analyze.StyleBrace} {
			res, err := rewrite.Fix([]byte(src), analyze.WithStyle(style))
			if err != nil {
				continue // bash accepts what mvdan.cc/sh does not: nothing to fix
			}
			if out := string(res.Out); out != src {
				checks = append(checks, check{out, fmt.Sprintf("%s fix of %q gives %q, which bash -n rejects", style, src, out)})
			}
		}
		if p, err := rewrite.Plan([]byte(src)); err == nil && len(p.Jobs) > 0 {
			checks = append(checks, check{p.Foreground, fmt.Sprintf("plan of %q: bash -n rejects the foreground %q", src, p.Foreground)})
			for _, j := range p.Jobs {
				checks = append(checks, check{j.Script(), fmt.Sprintf("plan of %q: bash -n rejects the job %q", src, j.Script())})
			}
		}
	}
	texts := make([]string, len(checks))
	for i, c := range checks {
		texts[i] = c.text
	}
	for i, ok := range bashAccepts(bash, texts) {
		if !ok {
			t.Error(checks[i].what)
		}
	}
	if len(checks) < 20 {
		t.Errorf("only %d outputs of a fix or a plan: the seeds no longer exercise the rewriter", len(checks))
	}
	t.Logf("%d fixed outputs and plans checked with bash -n", len(checks))
}

// bashAccepts runs bash -n on each source, a few at a time, and says
// which it accepts.
func bashAccepts(bash string, srcs []string) []bool {
	ok := make([]bool, len(srcs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 2 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ok[i] = bashOK(bash, srcs[i])
			}
		}()
	}
	for i := range srcs {
		next <- i
	}
	close(next)
	wg.Wait()
	return ok
}

func bashOK(bash, src string) bool {
	return exec.Command(bash, "-n", "-c", src).Run() == nil
}
