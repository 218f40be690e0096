package rewrite

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
)

func TestPlan(t *testing.T) {
	type job struct{ cmd, prelude string }
	cases := []struct {
		src  string
		fg   string
		jobs []job
	}{
		{"cd app && npm run dev &", "", []job{{"cd app && npm run dev", ""}}},
		{"npm run dev &", "", []job{{"npm run dev", ""}}},
		{"npm run dev   &\n", "", []job{{"npm run dev", ""}}},
		{"(cd x; B) > log 2>&1 &", "", []job{{"(cd x; B) > log 2>&1", ""}}},
		{"{ A; B; } &", "", []job{{"{ A; B; }", ""}}},
		{"server & # start it", "", []job{{"server", ""}}},
		{"# start\nserver \\\n  --port 8 \\\n &\n", "", []job{{"server \\\n  --port 8", ""}}},
		{"server >log 2>&1 & sleep 1; curl localhost", " sleep 1; curl localhost", []job{{"server >log 2>&1", ""}}},
		{"a & b &\ncurl x", " \ncurl x", []job{{"a", ""}, {"b", ""}}},
		// State-only statements before a job become its prelude.
		{"cd app; npm run dev &", "", []job{{"npm run dev", "cd app\n"}}},
		{"set -euo pipefail\nexport PORT=8080\ncd app\nnpm start &", "", []job{{"npm start", "set -euo pipefail\nexport PORT=8080\ncd app\n"}}},
		{"cd app; server & sleep 1; curl x", "cd app;  sleep 1; curl x", []job{{"server", "cd app\n"}}},
		{"f() { srv; }; X=1; f &", "", []job{{"f", "f() { srv; }\nX=1\n"}}},
		{"server &\ncd x", "\ncd x", []job{{"server", ""}}},
		{"f() { echo \"$1\" $(find .); }; f a &", "", []job{{"f a", "f() { echo \"$1\" $(find .); }\n"}}},
		{"f() { echo $$; }; f &", "", nil},
		// Nothing promoted: the original stays as it is.
		{"server & pid=$!; sleep 1; kill $pid", "", nil},
		{"server & sleep 1; eval 'kill $!'", "", nil},
		{"server & wait", "", nil},
		{"a & b & wait -n", "", nil},
		{"server & disown", "", nil},
		{"server & jobs", "", nil},
		{"server & sleep 1; kill %1", "", nil},
		{"npm install; npm run dev &", "", nil},
		{"cd $(mktemp -d); server &", "", nil},
		{"cd -; server &", "", nil},
		{"pushd app; server &", "", nil},
		{"export; server &", "", nil},
		{"echo hi; server &", "", nil},
		{"server --pid-file /tmp/$$.pid &", "", nil},
		{"server \"$1\" &", "", nil},
		{"cat <<EOF > f &\nbody\nEOF\n", "", nil},
		{"<< EOF &\nEOF", "", nil},
		{"coproc cat", "", nil},
		{"setsid -f server", "", nil},
		{"if x; then server & fi", "", nil},
		{"f() { server & }; f", "", nil},
		{"bash -c 'server &'", "", nil},
		{"echo hi", "", nil},
		{"", "", nil},
	}
	for _, c := range cases {
		p, err := Plan([]byte(c.src))
		if err != nil {
			t.Errorf("Plan(%q): %v", c.src, err)
			continue
		}
		var got []job
		for _, j := range p.Jobs {
			got = append(got, job{j.Command, j.Prelude})
			if span := c.src[j.Start:j.End]; !strings.HasPrefix(span, j.Command) || !strings.HasSuffix(span, "&") {
				t.Errorf("Plan(%q): job %q spans %q", c.src, j.Command, span)
			}
		}
		wantFg := c.fg
		if c.jobs == nil {
			wantFg = c.src
		}
		if p.Foreground != wantFg || fmt.Sprint(got) != fmt.Sprint(c.jobs) {
			t.Errorf("Plan(%q):\n got fg %q jobs %q\nwant fg %q jobs %q", c.src, p.Foreground, got, wantFg, c.jobs)
		}
		// Every job and the foreground are valid shell on their own.
		for _, j := range p.Jobs {
			if _, err := analyze.Analyze([]byte(j.Script())); err != nil {
				t.Errorf("Plan(%q): job script %q does not parse: %v", c.src, j.Script(), err)
			}
		}
		if _, err := analyze.Analyze([]byte(p.Foreground)); err != nil {
			t.Errorf("Plan(%q): foreground %q does not parse: %v", c.src, p.Foreground, err)
		}
	}
}

// zsh runs a background and-or list's first commands in its foreground
// (analyze's bgLastPipeline): the list is promoted whole when it is the
// last statement, where nothing after it could tell the difference, or
// when its first command is state-only and joined by &&, which then stays
// in the foreground too.
func TestPlanZshList(t *testing.T) {
	zsh := analyze.WithLang(analyze.LangZsh)
	cases := []struct {
		src, cmd, fg string // cmd "": nothing promoted, fg src
	}{
		{"cd app && npm run dev &", "cd app && npm run dev", ""},
		{"cd app; npm i && npm run dev &", "npm i && npm run dev", ""},
		{"cd app && npm run dev & sleep 5", "cd app && npm run dev", "cd app; sleep 5"},
		{"cd app && npm run dev &\necho started", "cd app && npm run dev", "cd app;\necho started"},
		{"npm i && npm run dev & sleep 5", "", ""},
		{"cd app || npm run dev & sleep 5", "", ""},
		{"false || npm run dev &", "false || npm run dev", ""},
	}
	for _, c := range cases {
		p, err := Plan([]byte(c.src), zsh)
		if err != nil {
			t.Fatalf("Plan(%q): %v", c.src, err)
		}
		var got string
		if len(p.Jobs) == 1 {
			j := p.Jobs[0]
			got = j.Command
			if span := c.src[j.Start:j.End]; !strings.HasPrefix(span, j.Command) || !strings.HasSuffix(span, "&") {
				t.Errorf("Plan(%q): job %q spans %q", c.src, j.Command, span)
			}
		} else if len(p.Jobs) > 1 {
			t.Errorf("Plan(%q): %d jobs", c.src, len(p.Jobs))
		}
		wantFg := c.fg
		if c.cmd == "" {
			wantFg = c.src
		}
		if got != c.cmd || p.Foreground != wantFg {
			t.Errorf("Plan(%q) under zsh promotes %q with foreground %q, want %q and %q", c.src, got, p.Foreground, c.cmd, wantFg)
		}
		if _, err := analyze.Analyze([]byte(p.Foreground), zsh); err != nil {
			t.Errorf("Plan(%q): foreground %q does not parse: %v", c.src, p.Foreground, err)
		}
	}
}

func TestPlanParseError(t *testing.T) {
	p, err := Plan([]byte("a & (b"))
	var pe *analyze.ParseError
	if !errors.As(err, &pe) || p != nil {
		t.Fatalf("got %v, %v; want a *analyze.ParseError", p, err)
	}
}

// A promoted job's script, run on its own, sees the directory and the
// variables it saw in the original; the foreground sees what it saw.
func TestPlanPreludeUnderBash(t *testing.T) {
	bash := bashPath(t)
	dir := t.TempDir()
	// tee, not echo or cat of a here-string: a job of one of those is
	// Brief, never promoted.
	p, err := Plan([]byte("cd " + dir + "; export X=1; Y=2; tee out <<<\"$PWD $X $Y\" >/dev/null &"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Foreground != "" || len(p.Jobs) != 1 {
		t.Fatalf("plan: %+v", p)
	}
	out, err := runBash(bash, t.TempDir(), p.Jobs[0].Script()+"; wait; cat out")
	if err != nil {
		t.Fatal(err, out)
	}
	if want := dir + " 1 2\n"; out != want {
		t.Fatalf("job script printed %q, want %q", out, want)
	}
}
