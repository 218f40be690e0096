package rewrite

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
)

// bigScript has n statements, a third of them fixable compound jobs, a
// third plain jobs with no fix, a third foreground commands.
func bigScript(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "cd /srv/app%d && ./server --port %d >/dev/null 2>&1 &\n", i, i)
		case 1:
			fmt.Fprintf(&b, "worker %d &\n", i)
		default:
			fmt.Fprintf(&b, "echo step %d; x%d=$((%d + 1))\n", i, i, i)
		}
	}
	return b.Bytes()
}

// Fix is linear in the size of the script: the time per statement stays
// flat from 10,000 to 100,000 statements. The test measures growth, not
// wall time: a quadratic step would make the ratio about 10x.
func TestFixScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	perStmt := map[int]time.Duration{}
	for _, n := range []int{10_000, 100_000} {
		src := bigScript(n)
		best := time.Duration(1 << 62)
		for try := 0; try < 2; try++ {
			start := time.Now()
			res, err := Fix(src)
			d := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Applied); got != (n+2)/3 {
				t.Fatalf("%d statements: %d fixes applied, want %d", n, got, (n+2)/3)
			}
			best = min(best, d)
		}
		perStmt[n] = best / time.Duration(n)
		t.Logf("Fix of %d statements (%d bytes): %v", n, len(src), best)
	}
	if ratio := float64(perStmt[100_000]) / float64(perStmt[10_000]); ratio > 3 {
		t.Errorf("time per statement grows %.1fx from 10k to 100k statements: not linear", ratio)
	}
}

func BenchmarkFix100k(b *testing.B) {
	src := bigScript(100_000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Fix(src); err != nil {
			b.Fatal(err)
		}
	}
}

// `--fix` on the machine's own shell scripts: every script bash -n accepts
// is still accepted after the fix, in both styles. Scripts the parser does
// not take are skipped (Fix returns their ParseError and changes nothing).
// Bounded in time; SHGUARD_SCRIPTS_DIR picks other directories (a list,
// like PATH).
func TestFixKeepsSystemScriptsValid(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := os.Getenv("SHGUARD_SCRIPTS_DIR")
	if dir == "" {
		dir = "/usr/bin"
	}
	var scripts []script
	for _, d := range filepath.SplitList(dir) {
		scripts = append(scripts, shellScripts(d)...)
	}
	if len(scripts) == 0 {
		t.Skipf("no shell scripts in %s", dir)
	}
	deadline := time.Now().Add(40 * time.Second)
	var seen, valid, parsed, changed, nPlanted, plantedFixed int
	for _, s := range scripts {
		if time.Now().After(deadline) {
			t.Logf("time is up after %d of %d scripts", seen, len(scripts))
			break
		}
		seen++
		src, err := os.ReadFile(s.path)
		if err != nil || !bashAccepts(bash, src) {
			continue
		}
		valid++
		lang := analyze.LangBash
		if s.posix {
			lang = analyze.LangPOSIX
		}
		ok := false
		for _, style := range []analyze.Style{analyze.StyleExec, analyze.StyleBrace} {
			res, err := Fix(src, analyze.WithLang(lang), analyze.WithStyle(style))
			if err != nil {
				continue
			}
			ok = true
			if bytes.Equal(res.Out, src) {
				continue
			}
			changed++
			if !bashAccepts(bash, res.Out) {
				t.Errorf("%s: the %s fix makes it invalid for bash -n", s.path, style)
			}
		}
		if !ok {
			continue
		}
		parsed++
		// The scripts have no compound background job of their own: plant
		// some, in their real surroundings (functions, loops, case arms,
		// here-documents, continuations), by backgrounding and-or lists.
		for _, v := range planted(src, s.posix, 8) {
			if !bashAccepts(bash, v) {
				continue
			}
			nPlanted++
			for _, style := range []analyze.Style{analyze.StyleExec, analyze.StyleBrace} {
				res, err := Fix(v, analyze.WithLang(lang), analyze.WithStyle(style))
				if err != nil || bytes.Equal(res.Out, v) {
					continue
				}
				plantedFixed++
				if !bashAccepts(bash, res.Out) {
					t.Errorf("%s with a planted job: the %s fix makes it invalid for bash -n:\n%s", s.path, style, res.Out)
				}
			}
		}
	}
	t.Logf("%s: %d shell scripts, %d looked at, %d valid for bash -n, %d parsed, %d fixed outputs (both styles); %d variants with planted jobs, %d fixed outputs of them; all still valid",
		dir, len(scripts), seen, valid, parsed, changed, nPlanted, plantedFixed)
}

// planted returns up to max variants of src, each with one foreground
// and-or list (`A && B`) turned into a background one (`A && B &`).
func planted(src []byte, posix bool, max int) [][]byte {
	lang := syntax.LangBash
	if posix {
		lang = syntax.LangPOSIX
	}
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(bytes.NewReader(src), "")
	if err != nil {
		return nil
	}
	var out [][]byte
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok || len(out) >= max || st.Background || st.Coprocess {
			return len(out) < max
		}
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) {
			return true
		}
		var v []byte
		if st.Semicolon.IsValid() {
			at := int(st.Semicolon.Offset())
			if src[at] != ';' || at+1 < len(src) && src[at+1] == ';' {
				return true // ;; ends a case arm
			}
			v = append(append(append(v, src[:at]...), '&'), src[at+1:]...)
		} else {
			at := int(st.End().Offset())
			v = append(append(append(v, src[:at]...), " &"...), src[at:]...)
		}
		out = append(out, v)
		return true
	})
	return out
}

type script struct {
	path  string
	posix bool // #!/bin/sh: parse as POSIX sh
}

func shellScripts(dir string) []script {
	entries, _ := os.ReadDir(dir)
	var out []script
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > 2<<20 {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		line, _ := bufio.NewReader(f).ReadString('\n')
		f.Close()
		if !strings.HasPrefix(line, "#!") {
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(line, "#!"))
		if len(fields) == 0 {
			continue
		}
		interp := filepath.Base(fields[0])
		if interp == "env" && len(fields) > 1 {
			interp = fields[1]
		}
		switch interp {
		case "bash":
			out = append(out, script{path: p})
		case "sh", "dash":
			out = append(out, script{path: p, posix: true})
		}
	}
	return out
}

func bashAccepts(bash string, src []byte) bool {
	cmd := exec.Command(bash, "-n")
	cmd.Stdin = bytes.NewReader(src)
	return cmd.Run() == nil
}
