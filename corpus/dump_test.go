package corpus

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/analysisdump"
)

// TestDumpAnalyses writes, when SHGUARD_DUMP names a file, everything the
// analyzer and its clients make of every corpus entry (Cmd and Run, under
// the entry's shell and caller, and under every shell), of 300 random
// programs per shell from fixed seeds (not run) and of every shell script
// of the repository. Two dumps, before and after a refactor of analyze/,
// must be byte-identical (see internal/analysisdump).
func TestDumpAnalyses(t *testing.T) {
	w := analysisdump.Open(t)
	write := func(in analysisdump.Input) {
		if err := analysisdump.Write(w, in); err != nil {
			t.Fatal(err)
		}
	}
	shells := []string{"bash", "zsh", "dash", "mksh"}
	for _, e := range Load() {
		shell := e.Shell
		if shell == "" {
			shell = "bash"
		}
		caller := analyze.CallerInGroup
		if e.Caller == CallerLeader {
			caller = analyze.CallerGroupLeader
		}
		for _, sh := range append([]string{shell}, shells...) {
			lang, err := analyze.ParseLang(sh)
			if err != nil {
				t.Fatal(err)
			}
			own := sh == shell
			id := e.ID + "/" + sh
			write(analysisdump.Input{ID: id + "/cmd", Src: e.Cmd, Lang: lang, Caller: caller, NoHook: !own})
			if e.Run != "" {
				write(analysisdump.Input{ID: id + "/run", Src: e.Run, Lang: lang, Caller: caller, NoHook: !own})
			}
		}
	}
	for i, sh := range shells {
		lang, _ := analyze.ParseLang(sh)
		g := &progGen{r: rand.New(rand.NewSource(int64(20261207 + i))), shell: sh}
		for k := range 300 {
			g.fn = false
			p := g.guard() + g.list(0, true)
			write(analysisdump.Input{ID: "random/" + sh + "/" + strconv.Itoa(k), Src: p, Lang: lang, Caller: analyze.CallerGroupLeader})
		}
	}
	out, err := exec.Command("git", "ls-files", "--full-name", ":/").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Fields(string(out)) {
		b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(top)), name))
		if err != nil || !strings.HasPrefix(string(b), "#!") {
			continue
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if !strings.Contains(line, "sh") {
			continue
		}
		for _, sh := range shells {
			lang, _ := analyze.ParseLang(sh)
			write(analysisdump.Input{ID: "script/" + name + "/" + sh, Src: string(b), Lang: lang, Script: true, NoHook: true})
		}
	}
}
