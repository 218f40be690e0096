package rewrite

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/corpus"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// corpus.Observe made this process a subreaper; every run is over, so
	// the zombies of short-lived orphans can be collected.
	corpus.ReapZombies()
	os.Exit(code)
}

// Every compound-background command of the corpus whose last command is
// fully redirected stops hanging after the default fix: bash, run the way
// an agent tool runs it, exits and its output reaches EOF. (With the last
// command not redirected the fix removes the waiting subshell but the
// command itself still holds the output: SG1001 stays, and no claim is
// made.)
func TestCorpusFixStopsHang(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash for every fixed entry")
	}
	type run struct {
		e       corpus.Entry
		fixed   string
		o       corpus.Outcome
		err     error
		applied int
	}
	var runs []*run
	for _, e := range corpus.Load() {
		src := e.Script()
		res, err := Fix([]byte(src))
		if err != nil || len(res.Applied) == 0 {
			continue
		}
		compound := false
		for _, f := range res.Applied {
			compound = compound || f.Rule == "SG1002"
		}
		if !compound || analyze.Verdict(res.Remaining) == analyze.Error {
			continue
		}
		runs = append(runs, &run{e: e, fixed: string(res.Out), applied: len(res.Applied)})
	}
	if len(runs) == 0 {
		t.Fatal("no corpus entry has a compound background job with a fully redirected last command")
	}
	sem := make(chan struct{}, 16) // they mostly sleep
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r.o, r.err = corpus.Observe(ctx, r.fixed, corpus.Options{})
		}()
	}
	wg.Wait()
	wasError := 0
	for _, r := range runs {
		if r.e.Verdict == corpus.Error {
			wasError++
		}
		if r.err != nil {
			t.Errorf("%s: %v", r.e.ID, r.err)
			continue
		}
		if v := r.o.Verdict(); v == corpus.Error {
			t.Errorf("%s (line %d) still hangs after the fix:\n%s\n%s", r.e.ID, r.e.Line, r.fixed, r.o)
		}
	}
	t.Logf("%d corpus entries fixed and run under bash (%d of them hang as written); none hangs fixed", len(runs), wasError)
}
