package rewrite

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
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

// Fix is linear in the size of the script. The test counts Fix's work
// instead of timing it, so that a busy machine cannot fail it (its
// wall-time ratio did, once) while a quadratic step still does. From
// 2,500 to 20,000 statements (eight times: the slices and maps that grow
// by doubling are as full at both sizes), per statement, these must stay
// flat:
//
//   - the objects and bytes Fix allocates (runtime.MemStats, all of
//     Fix): what an analysis, a copy of the source or an offset table
//     made once per fix costs;
//   - the accepted edits the overlap test of a round goes through
//     (editSet.looked, on the real findings of the script): a scan of
//     every accepted edit per fix, which allocates nothing (the
//     quadratic step 64a756f removed).
//
// Linear, the ratios are 1.00 (objects, edits) and 1.07 (bytes); a
// quadratic step makes one about 8 (a scan of the accepted edits per
// fix: 8.0 edits; a copy of the source per fix: 7.5 bytes, measured by
// putting each in); the bound is 2. How fast Fix is is BenchmarkFix10k's
// and BenchmarkFix100k's to say.
func TestFixWorkScalesLinearly(t *testing.T) {
	type work struct{ objects, bytes, looked float64 }
	per := map[int]work{}
	for _, n := range []int{2_500, 20_000} {
		src := bigScript(n)
		// The fewest of two runs, on one P and with no collection
		// during a run: the analyzer keeps its passes in a sync.Pool,
		// which is per P and emptied by collections, and a pass that
		// is not found there is made again (a third more bytes).
		objects, bytes := uint64(1<<63), uint64(1<<63)
		for range 2 {
			var before, after runtime.MemStats
			procs := runtime.GOMAXPROCS(1)
			runtime.GC()
			gc := debug.SetGCPercent(-1)
			runtime.ReadMemStats(&before)
			res, err := Fix(src)
			runtime.ReadMemStats(&after)
			debug.SetGCPercent(gc)
			runtime.GOMAXPROCS(procs)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Applied); got != (n+2)/3 {
				t.Fatalf("%d statements: %d fixes applied, want %d", n, got, (n+2)/3)
			}
			objects, bytes = min(objects, after.Mallocs-before.Mallocs), min(bytes, after.TotalAlloc-before.TotalAlloc)
		}
		found, err := analyze.Run(src)
		if err != nil {
			t.Fatal(err)
		}
		set, took := takeFixes(found.Findings, nil)
		if len(took) != (n+2)/3 {
			t.Fatalf("%d statements: %d fixes taken in the first round, want %d", n, len(took), (n+2)/3)
		}
		w := work{
			objects: float64(objects) / float64(n),
			bytes:   float64(bytes) / float64(n),
			looked:  float64(set.looked) / float64(n),
		}
		per[n] = w
		t.Logf("Fix of %d statements (%d bytes), per statement: %.1f objects, %.0f bytes allocated; %.2f edits looked at", n, len(src), w.objects, w.bytes, w.looked)
	}
	small, big := per[2_500], per[20_000]
	for _, r := range []struct {
		what       string
		small, big float64
	}{
		{"objects allocated", small.objects, big.objects},
		{"bytes allocated", small.bytes, big.bytes},
		{"edits the overlap tests look at", small.looked, big.looked},
	} {
		if ratio := r.big / r.small; ratio > 2 {
			t.Errorf("%s per statement grow %.1fx from 2,500 to 20,000 statements: not linear", r.what, ratio)
		}
	}
}

func BenchmarkFix10k(b *testing.B) { benchFix(b, 10_000) }

func BenchmarkFix100k(b *testing.B) { benchFix(b, 100_000) }

// benchFix times Fix on bigScript(n): the time per statement of the two
// sizes, measured as a paired benchmark (farm-bench), is how linear Fix
// is in time.
func benchFix(b *testing.B, n int) {
	src := bigScript(n)
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
