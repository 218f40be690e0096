package rewrite

import (
	"os"
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
// fully redirected stops hanging after the fix, in both styles: the entry's
// own shell (bash, zsh, dash or mksh), run the way the entry says, exits
// and its output reaches EOF. (With the last
// command not redirected the fix removes the waiting subshell but the
// command itself still holds the output: SG1001 stays, and no claim is
// made.)
func TestCorpusFixStopsHang(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash for every fixed entry")
	}
	if err := corpus.Subreaper(); err != nil {
		t.Skip(err)
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
		lang, err := analyze.ParseLang(e.Shell)
		if err != nil {
			t.Fatal(err)
		}
		src := e.Script()
		for _, style := range []analyze.Style{analyze.StyleExec, analyze.StyleBrace} {
			res, err := Fix([]byte(src), analyze.WithLang(lang), analyze.WithStyle(style))
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
	}
	if len(runs) == 0 {
		t.Fatal("no corpus entry has a compound background job with a fully redirected last command")
	}
	scripts := make([]corpus.Run, len(runs))
	shells := map[string]int{}
	for i, r := range runs {
		scripts[i] = corpus.Run{Script: r.fixed, Options: r.e.Options()}
		shells[r.e.Shell]++
	}
	for i, o := range corpus.ObserveEach(scripts, 16, 20*time.Second) {
		runs[i].o, runs[i].err = o.Outcome, o.Err
	}
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
			t.Errorf("%s (line %d) still hangs under %s after the fix:\n%s\n%s", r.e.ID, r.e.Line, r.e.Shell, r.fixed, r.o)
		}
	}
	t.Logf("%d fixes of corpus entries (both styles) run under their shells %v (%d of them hang as written); none hangs fixed", len(runs), shells, wasError)
}
