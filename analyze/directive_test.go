package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shguard/shguard/analyze/diag"
)

// rulesAt lists "RULE@line" for each finding, in order.
func rulesAt(t *testing.T, src string, opts ...Option) []string {
	t.Helper()
	fs, err := Analyze([]byte(src), opts...)
	if err != nil {
		t.Fatalf("Analyze(%q): %v", src, err)
	}
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s@%d", f.Rule, f.Start.Line))
	}
	return out
}

func TestDirectives(t *testing.T) {
	const bg = "./watcher >/tmp/w.log 2>&1 &" // SG2001
	cases := []struct {
		name, src string
		want      []string
	}{
		{"no directive", bg + "\n" + bg, []string{"SG2001@1", "SG2001@2"}},
		{"covers the next statement only",
			"echo start\n# shguard disable=SG2001 -- intended\n" + bg + "\n" + bg,
			[]string{"SG2001@4"}},
		{"top of file covers the file",
			"#!/bin/bash\n# shguard disable=SG2001 -- intended\n" + bg + "\necho x\n" + bg,
			[]string{}},
		{"several rules, one unused",
			"true\n# shguard disable=SG2001,SG1001 -- intended\n" + bg,
			[]string{"SG3102@2"}},
		{"lower-case ids, the rest of the line",
			"true\n# shguard disable=sg2004 -- intended\n" + bg + " disown\n" + bg + " disown",
			[]string{"SG2004@4"}},
		{"spaces in the list",
			"true\n# shguard disable=SG2004 , sg2001 -- intended\n" + bg + " " + bg + " disown",
			[]string{}},
		{"no reason: reported, suppresses nothing",
			"true\n# shguard disable=SG2001\n" + bg,
			[]string{"SG3101@2", "SG2001@3"}},
		{"empty reason",
			"true\n# shguard disable=SG2001 --   \n" + bg,
			[]string{"SG3101@2", "SG2001@3"}},
		{"unknown rule", "true\n# shguard disable=SG9999 -- why\n" + bg,
			[]string{"SG3101@2", "SG2001@3"}},
		{"directive rules cannot be disabled", "true\n# shguard disable=SG3102 -- why\n" + bg,
			[]string{"SG3101@2", "SG2001@3"}},
		{"unknown key", "true\n# shguard enable=SG2001 -- why\n" + bg,
			[]string{"SG3101@2", "SG2001@3"}},
		{"unused", "true\n# shguard disable=SG2001 -- why\necho fine",
			[]string{"SG3102@2"}},
		{"trailing comment covers nothing", bg + " # shguard disable=SG2001 -- why",
			[]string{"SG2001@1", "SG3102@1"}},
		{"end of file", bg + "\n# shguard disable=SG2001 -- why\n",
			[]string{"SG2001@1", "SG3102@2"}},
		{"end of a block", "f() {\n  " + bg + "\n  # shguard disable=SG2001 -- why\n}\nf",
			[]string{"SG2001@2", "SG3102@3"}},
		{"nested statement", "if true; then\n  # shguard disable=SG2001 -- why\n  " + bg + "\n  " + bg + "\nfi",
			[]string{"SG2001@4"}},
		{"covers a whole compound", "true\n# shguard disable=SG2001 -- why\nfor i in 1 2; do\n  " + bg + "\ndone",
			[]string{}},
		{"covers a bash -c string", "true\n# shguard disable=SG1001,SG2001 -- why\nbash -c 'sleep 100 &'",
			[]string{}},
		{"silences exactly the rules it names: the job still leaks", "true\n# shguard disable=SG1001 -- why\nbash -c 'sleep 100 &'",
			[]string{"SG2001@3"}},
		{"takes rule names, as -e does", "true\n# shguard disable=background-holds-output,Unmanaged-Background -- why\nsleep 100 &",
			[]string{}},
		{"an unknown name is invalid", "true\n# shguard disable=no-such-rule -- why\nsleep 100 &",
			[]string{"SG3101@2", "SG1001@3"}},
		{"prose mentioning shguard is no directive", "# shguard keeps this clean\n" + bg,
			[]string{"SG2001@2"}},
		{"only a file with comments", "# shguard disable=SG2001 -- why\n",
			[]string{"SG3102@1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, rulesAt(t, c.src)); diff != "" {
				t.Errorf("%q: findings (-want +got):\n%s", c.src, diff)
			}
		})
	}
}

// A directive covers the here-document its statement reads: a finding
// inside the body is silenced too.
func TestDirectiveCoversHeredoc(t *testing.T) {
	src := "true\n# shguard disable=SG1001,SG2001 -- why\nbash <<'EOF'\nsleep 100 &\nEOF\nsleep 200 &"
	got := rulesAt(t, src)
	if diff := cmp.Diff([]string{"SG1001@6"}, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestWithDirectivesOff(t *testing.T) {
	src := "true\n# shguard disable=SG2001 -- why\n./w >/dev/null 2>&1 &"
	if diff := cmp.Diff([]string{"SG2001@3"}, rulesAt(t, src, WithDirectives(false))); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// The positions of directive findings are those of the comment.
func TestDirectiveFindingPosition(t *testing.T) {
	src := "echo a\n  # shguard disable=SG2001 -- why\necho b"
	fs, err := Analyze([]byte(src))
	if err != nil || len(fs) != 1 {
		t.Fatalf("got %v, %v", fs, err)
	}
	f := fs[0]
	start := strings.Index(src, "#")
	end := strings.Index(src, "why") + 3
	if f.Start.Offset != start || f.End.Offset != end || f.Start.Line != 2 || f.Start.Col != 3 {
		t.Errorf("finding at %+v-%+v, want offsets %d-%d at 2:3", f.Start, f.End, start, end)
	}
	if !strings.Contains(f.Message, "suppresses nothing for SG2001") {
		t.Errorf("message %q", f.Message)
	}
}

// The filter applies after directives: a directive whose findings the
// filter drops is still used, not reported.
func TestFilterAfterDirectives(t *testing.T) {
	src := "true\n# shguard disable=SG2001 -- why\n./w >/dev/null 2>&1 &\n./v >/dev/null 2>&1 &\nnpm run dev"
	noWarnings := WithFilter(func(f diag.Finding) bool { return f.Rule != "SG2001" })
	if diff := cmp.Diff([]string{"SG3001@5"}, rulesAt(t, src, noWarnings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
