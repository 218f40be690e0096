package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
)

// TestWant runs the scripts of testdata/SGxxxx/, each a rule's cases as
// annotated input in the style of golang.org/x/tools' analysistest: a
// line that ends in `# want SGxxxx "fragment"` (one or more rule and
// fragment pairs) must get a finding of that rule starting on that line
// whose message contains the fragment, and every finding must be wanted.
// A script is analysed for the shell of its shebang (bash without one).
// The corpus stays the real-shell truth; these are the rule's own cases,
// beside it, that a newcomer reads first.
func TestWant(t *testing.T) {
	files, err := filepath.Glob("testdata/SG*/*.sh")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/SG*/*.sh")
	}
	for _, name := range files {
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			// As the linter reads a script: its shebang names the shell,
			// a guess that lets a #!/bin/sh script of bash syntax be
			// read as bash (SG3003).
			opts := []Option{WithLang(dialect.LangBash)}
			if lang, ok := dialect.ShebangLang(src); ok {
				opts = []Option{WithLang(lang), WithShebangShell()}
			}
			fs, err := Analyze(src, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range checkWants(parseWants(t, string(src)), fs) {
				t.Error(p)
			}
		})
	}
}

// want is one expected finding: a rule on a line, with a fragment of its
// message.
type want struct {
	line     int
	rule     string
	fragment string
}

var (
	wantRe = regexp.MustCompile(`# want((?:\s+SG\d{4}\s+"(?:[^"\\]|\\.)*")+)\s*$`)
	pairRe = regexp.MustCompile(`(SG\d{4})\s+("(?:[^"\\]|\\.)*")`)
)

// parseWants reads the `# want` annotations of a script.
func parseWants(t *testing.T, src string) []want {
	var ws []want
	for i, line := range strings.Split(src, "\n") {
		m := wantRe.FindStringSubmatch(line)
		if m == nil {
			if strings.Contains(line, "# want") {
				t.Fatalf("line %d: malformed want: %s", i+1, line)
			}
			continue
		}
		for _, p := range pairRe.FindAllStringSubmatch(m[1], -1) {
			frag, err := strconv.Unquote(p[2])
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			ws = append(ws, want{i + 1, p[1], frag})
		}
	}
	return ws
}

// checkWants matches findings to wants and returns what is wrong: a want
// no finding meets, a finding nobody wanted.
func checkWants(ws []want, fs []diag.Finding) []string {
	var problems []string
	used := make([]bool, len(fs))
	for _, w := range ws {
		found := false
		for i, f := range fs {
			if !used[i] && f.Rule == w.rule && f.Start.Line == w.line && strings.Contains(f.Message, w.fragment) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("line %d: want %s %q: no such finding", w.line, w.rule, w.fragment))
		}
	}
	for i, f := range fs {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("line %d: unexpected %s: %s", f.Start.Line, f.Rule, f.Message))
		}
	}
	return problems
}

// TestCheckWants holds the matcher itself: a missing finding, an extra
// one and a wrong fragment all fail.
func TestCheckWants(t *testing.T) {
	f := diag.Finding{Rule: "SG1001", Start: diag.Position{Line: 2}, Message: "keeps the caller's stdout"}
	for _, c := range []struct {
		ws   []want
		fs   []diag.Finding
		fail int
	}{
		{[]want{{2, "SG1001", "caller's"}}, []diag.Finding{f}, 0},
		{[]want{{2, "SG1001", "caller's"}}, nil, 1},
		{nil, []diag.Finding{f}, 1},
		{[]want{{2, "SG1001", "nothing like it"}}, []diag.Finding{f}, 2},
		{[]want{{3, "SG1001", "caller's"}}, []diag.Finding{f}, 2},
	} {
		if got := checkWants(c.ws, c.fs); len(got) != c.fail {
			t.Errorf("checkWants(%v, %v) = %q, want %d problems", c.ws, c.fs, got, c.fail)
		}
	}
}
