package analyze_test

import (
	"testing"

	"github.com/shguard/shguard/analyze"
)

// Job.Program is where a wrapper that execs (setsid) can go before a job:
// only a job that is one program its fork execs, never a builtin, a
// function or a compound, whose process is the shell itself.
func TestJobProgram(t *testing.T) {
	for _, c := range []struct {
		lang analyze.Lang
		src  string
		want string // the text from Program on; "" for -1
	}{
		{analyze.LangBash, "python3 -m http.server & sleep 1", "python3 -m http.server & sleep 1"},
		{analyze.LangBash, "PORT=1 nohup srv & x", "nohup srv & x"},
		{analyze.LangBash, ">log srv & x", "srv & x"},
		{analyze.LangBash, `bash -c "srv & sleep 1; echo"`, `srv & sleep 1; echo"`},
		{analyze.LangZsh, "srv &! sleep 1", "srv &! sleep 1"},
		{analyze.LangBash, "f(){ srv; }; f & x", ""},
		{analyze.LangBash, "f(){ exec srv; }; f & x", ""},
		{analyze.LangBash, "wait & x", ""},
		{analyze.LangBash, "exec srv & x", ""},
		{analyze.LangBash, "a | b & x", ""},
		{analyze.LangBash, "(srv) & x", ""},
		{analyze.LangBash, "$SRV & x", ""},
	} {
		res, err := analyze.Run([]byte(c.src), analyze.WithLang(c.lang))
		if err != nil || len(res.Jobs) == 0 {
			t.Errorf("%q: %v, %d jobs", c.src, err, len(res.Jobs))
			continue
		}
		got := ""
		if p := res.Jobs[0].Program; p >= 0 {
			got = c.src[p:]
		}
		if got != c.want {
			t.Errorf("%q: Program at %q, want %q", c.src, got, c.want)
		}
	}
}
