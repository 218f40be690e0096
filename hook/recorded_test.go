package hook

import (
	"slices"
	"testing"

	"github.com/shguard/shguard/analyze"
)

// A job that records its pid right after it starts gets no leak advice
// from the hook; one that does not, or records something else, still
// does.
func TestRecordedJobsNotAdvised(t *testing.T) {
	for _, c := range []struct {
		lang analyze.Lang
		cmd  string
		want []string // the rules of the findings Decide keeps
	}{
		{analyze.LangBash, "srv >/tmp/j.log 2>&1 & echo $! >/tmp/j.pid; sleep 1; curl -s x", nil},
		{analyze.LangBash, "srv >/tmp/j.log 2>&1 & echo $! > /tmp/j.pid", nil},
		{analyze.LangBash, `srv >/tmp/j.log 2>&1 & echo "$!" >/tmp/j.pid`, nil},
		{analyze.LangBash, `bash -c "srv >/tmp/j.log 2>&1 & echo \$! >/tmp/j.pid; sleep 1"`, nil},
		{analyze.LangBash, "setsid srv >/tmp/j.log 2>&1 & echo $! >/tmp/j.pid", nil},
		{analyze.LangZsh, "srv >/tmp/j.log 2>&1 &! echo $! >/tmp/j.pid", nil},
		{analyze.LangBash, "srv >/tmp/j.log 2>&1 & sleep 1", []string{analyze.UnmanagedBackground.ID}},
		{analyze.LangBash, "srv >/tmp/j.log 2>&1 & echo $!", []string{analyze.UnmanagedBackground.ID}}, // printed, not recorded
		{analyze.LangBash, "srv >/tmp/j.log 2>&1 & echo $! >/tmp/j.pid; other >/tmp/o.log 2>&1 & sleep 1", []string{analyze.UnmanagedBackground.ID}},
	} {
		out, err := Decide(c.cmd, Options{Lang: c.lang})
		if err != nil {
			t.Fatalf("%q: %v", c.cmd, err)
		}
		var got []string
		for _, f := range out.Findings {
			got = append(got, f.Rule)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: findings %v, want %v", c.cmd, got, c.want)
		}
	}
}
