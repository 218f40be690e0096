package corpus

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// README's table of shell differences is made of corpus entries: every
// verdict it shows for an example is the verdict of the entry with that
// command under that shell.
func TestREADMEShellTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "| what differs | example from the corpus | bash | zsh | dash | mksh |")
	if i < 0 {
		t.Fatal("README.md has no table of shell differences")
	}
	shells := []string{"bash", "zsh", "dash", "mksh"}
	words := map[string]Verdict{"hangs": Error, "leaks": Warning, "clean": Clean}
	byCmd := map[string]map[string]Verdict{}
	for _, e := range Load() {
		if byCmd[e.Cmd] == nil {
			byCmd[e.Cmd] = map[string]Verdict{}
		}
		byCmd[e.Cmd][e.Shell] = e.Verdict
	}
	rows := 0
	for _, line := range strings.Split(text[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 6 {
			t.Fatalf("row %q: want 6 cells", line)
		}
		cmd := strings.ReplaceAll(strings.Trim(strings.TrimSpace(cells[1]), "`"), `\|`, "|") // (GitHub needs \| in a table)
		got := byCmd[cmd]
		if got == nil {
			t.Errorf("example %q is not a corpus entry's cmd", cmd)
			continue
		}
		for k, sh := range shells {
			w := strings.TrimSpace(cells[2+k])
			if w == "—" {
				continue
			}
			v, ok := got[sh]
			if !ok {
				t.Errorf("%q: README gives %s a verdict, the corpus has no %s entry", cmd, sh, sh)
			} else if v != words[w] {
				t.Errorf("%q under %s: README says %s, the corpus %s", cmd, sh, w, v)
			}
		}
		rows++
	}
	if rows < 10 {
		t.Errorf("only %d rows in README's table of shell differences", rows)
	}
}

// README gives the corpus size (in all and per shell) as numbers: they are
// the corpus's, so that one fact has one number (docs/analysis.md too).
func TestREADMECorpusSize(t *testing.T) {
	for _, path := range []string{"../README.md", "../docs/analysis.md"} {
		t.Run(path, func(t *testing.T) { checkCorpusSize(t, path) })
	}
}

func checkCorpusSize(t *testing.T, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	es := Load()
	for _, e := range es {
		per[e.Shell]++
	}
	total := regexp.MustCompile(`\b(\d+)\s+real(?:-shaped)?\s+agent\s+commands|its\s+(\d+)\s+real-shaped\s+commands`)
	found := 0
	for _, m := range total.FindAllStringSubmatch(string(b), -1) {
		found++
		if n, _ := strconv.Atoi(m[1] + m[2]); n != len(es) {
			t.Errorf("%s says %q: the corpus has %d entries", path, m[0], len(es))
		}
	}
	if found == 0 {
		t.Errorf("%s does not give the corpus size", path)
	}
	shells := regexp.MustCompile(`\((\d+)\s+for\s+bash,\s+(\d+)\s+zsh,\s+(\d+)\s+dash,\s+(\d+)\s+mksh\)`)
	m := shells.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("%s does not give the corpus size per shell as (N for bash, N zsh, N dash, N mksh)", path)
	}
	for i, sh := range []string{"bash", "zsh", "dash", "mksh"} {
		if n, _ := strconv.Atoi(m[i+1]); n != per[sh] {
			t.Errorf("%s gives %d %s entries: the corpus has %d", path, n, sh, per[sh])
		}
	}
}
