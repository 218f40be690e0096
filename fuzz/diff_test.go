//go:build linux

package fuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// The default (exec) fix must not change what a program does, apart from
// the removed wait, in the shell that runs it: the differential test
// generates programs from harmless commands, runs each as written and as
// fixed for that shell under bash, zsh, dash and mksh, and compares what
// they print, the parent's $?, cwd and variables (and which are exported)
// after the program, the exit status of `wait $!`, how long the parent
// took (did it wait for something it did not wait for before?), and the
// files every command left behind once all of them, orphans included, are
// done. The styles' tails are not the same in every shell (zsh and dash
// already run a subshell's last command in place), which is why each
// shell checks its own fixes.
//
// SHGUARD_DIFF_N sets the number of programs per shell (default 20, a few
// seconds: eight run at once, mostly sleeping), SHGUARD_DIFF_SEED the
// first seed.
func TestDifferentialExecFix(t *testing.T) {
	n := envInt("SHGUARD_DIFF_N", 20)
	seed := int64(envInt("SHGUARD_DIFF_SEED", 1))
	for _, name := range []string{"bash", "zsh", "dash", "mksh"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sh := needShell(t, name)
			differential(t, sh, n, seed)
		})
	}
}

// differential fixes n generated programs for sh's language and compares
// each with its fix under sh.
func differential(t *testing.T, sh shell, n int, seed int64) {
	type result struct {
		seed       int64
		prog, diff string
		err        error
	}
	results := make(chan result)
	var wg sync.WaitGroup
	// Programs are generated until n of them are changed by the fix: fewer
	// need one in zsh and dash, which run a subshell's last command in
	// place, and zsh refuses a background command of only assignments.
	changed, tried, invalid := 0, 0, 0
	for s := seed; changed < n && tried < 100*n; s++ {
		tried++
		prog := genProgram(rand.New(rand.NewSource(s)))
		res, err := rewrite.Fix([]byte(prog), analyze.WithLang(sh.lang))
		if err != nil {
			invalid++
			continue
		}
		fixed := string(res.Out)
		if fixed == prog {
			continue
		}
		changed++
		wg.Add(1)
		go func() {
			defer wg.Done()
			runSlots <- struct{}{}
			d, err := compareRuns(sh, prog, fixed)
			<-runSlots
			results <- result{s, prog + "\n--- fixed\n" + fixed, d, err}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	skipped := 0
	for r := range results {
		if r.err == errNondeterministic {
			skipped++
			t.Logf("seed %d: %v; skipped", r.seed, r.err)
		} else if r.err != nil {
			t.Errorf("seed %d: %v", r.seed, r.err)
		} else if r.diff != "" {
			t.Errorf("seed %d: the exec fix changes what the program does under %s (%s)\n--- original\n%s", r.seed, sh.name, r.diff, r.prog)
		}
	}
	if changed < n {
		t.Errorf("only %d of %d generated programs were changed by the fix for %s: the generator no longer exercises it", changed, tried, sh.name)
	}
	if invalid > tried/4 {
		t.Errorf("%d of %d generated programs are not valid %s: the generator no longer writes that shell", invalid, tried, sh.name)
	}
	if skipped > changed/4 {
		t.Errorf("%d of %d programs behave differently from run to run under %s: the comparison is too noisy", skipped, changed, sh.name)
	}
	t.Logf("%d of %d programs fixed and compared under %s (%d skipped as nondeterministic, %d not valid there)", changed-skipped, tried, sh.name, skipped, invalid)
}

// The comparison can fail: the brace fix runs A in the parent shell, so a
// `cd` in A changes the parent's directory, and the harness must see it.
func TestDifferentialDetectsBraceChange(t *testing.T) {
	bash := needShell(t, "bash")
	prog := "cd \"$R/d1\" && cp /dev/null f1 &\nV1=1 && sleep $NAP &"
	res, err := rewrite.Fix([]byte(prog), analyze.WithStyle(analyze.StyleBrace))
	if err != nil || string(res.Out) == prog {
		t.Fatalf("brace fix of %q: %q, %v", prog, res.Out, err)
	}
	d, err := compareRuns(bash, prog, string(res.Out))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d, "cwd=") || !strings.Contains(d, "V1") {
		t.Fatalf("the harness does not see the brace fix's change of the parent's cwd and variables; difference: %q", d)
	}
}

// errNondeterministic: the program as written does not behave the same
// twice (bash's own races, like `wait $!` after `wait & wait`), so it
// cannot be compared.
var errNondeterministic = errors.New("the program as written behaves differently from run to run")

// compareRuns runs both programs and returns "" when they behave the same,
// or what differs. A difference is confirmed by running both again, and
// the original three more times: a program whose runs as written differ from
// one another cannot be compared.
func compareRuns(sh shell, a, b string) (string, error) {
	var first, ra0 string
	var firstSlow time.Duration // the first try's timing difference, fixed minus written
	for try := 0; try < 2; try++ {
		ra, ta, err := runObserved(sh, a)
		if err != nil {
			return "", err
		}
		if try == 0 {
			ra0 = ra
		} else if ra != ra0 {
			return "", errNondeterministic
		}
		rb, tb, err := runObserved(sh, b)
		if err != nil {
			return "", err
		}
		d := ""
		if ra != rb {
			d = diffLines(ra, rb)
		} else if slower(ta, tb) {
			// A busy machine (the fuzzers run alongside) makes single
			// runs slow: compare the fastest of three on each side.
			for k := 0; k < 2; k++ {
				_, ta2, err := runObserved(sh, a)
				if err != nil {
					return "", err
				}
				_, tb2, err := runObserved(sh, b)
				if err != nil {
					return "", err
				}
				ta, tb = min(ta, ta2), min(tb, tb2)
			}
			if slower(ta, tb) {
				if try == 1 && firstSlow != 0 && (tb-ta > 0) != (firstSlow > 0) {
					// Slower one way, then the other: the machine's load,
					// not a wait the fix added or removed.
					return "", nil
				}
				firstSlow = tb - ta
				d = fmt.Sprintf("the parent ran for %v as written and %v fixed (fastest of three)", ta, tb)
			}
		}
		if d == "" {
			return "", nil
		}
		if try == 0 {
			first = d
			continue
		}
		// Twice the same difference: before it counts, the program as
		// written runs a few more times, since a race it has may go its
		// rarer way only now and then (zsh's background groups that fork
		// jobs of their own), and the fixed program's outcome must not be
		// one of its own.
		for k := 0; k < 3; k++ {
			if ra2, _, err := runObserved(sh, a); err != nil {
				return "", err
			} else if ra2 != ra {
				return "", errNondeterministic
			}
		}
		return first + "; again: " + d, nil
	}
	return "", nil
}

// slower reports whether one parent took longer than the other by more
// than noise: a parent that waits for a `sleep $NAP` it did not wait for
// before takes nap longer, while a fork and exec more or less, which is
// all the exec fix saves, takes tens of milliseconds on a quiet machine
// and up to 0.4 s (fastest of three, twice) on a 2-core machine at load
// 40. Half a nap leaves half a second to each side.
func slower(a, b time.Duration) bool {
	d := a - b
	return d > nap/2 || d < -nap/2
}

// nap is $NAP, the programs' pause: a second, so that a wait for it stands
// out from a busy machine's noise (it was 0.25 s, against a bound of
// 0.175 s that a load of 40 crossed).
const nap = time.Second

// diffLines lists the lines only one side has.
func diffLines(a, b string) string {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	var only []string
	for l, n := range count {
		switch {
		case n > 0:
			only = append(only, fmt.Sprintf("as written only: %q", l))
		case n < 0:
			only = append(only, fmt.Sprintf("fixed only: %q", l))
		}
	}
	sort.Strings(only)
	return strings.Join(only, "; ")
}

var pidRe = regexp.MustCompile(`pid [0-9]+`)

// The prologue and epilogue are in the syntax all four shells share: the
// clock is date(1)'s (mksh's arithmetic is 32-bit), the times are
// subtracted here.
var prologue = fmt.Sprintf(`NAP=%g; cd "$R"; echo "t0=$(date +%%s%%N)"
`, nap.Seconds())

const epilogue = `
__rc=$?
echo "t1=$(date +%s%N)"
echo "rc=$__rc"
echo "cwd=${PWD#"$R"}"
for __v in V1 V2 V3; do eval "echo \"$__v=\${$__v-unset}\""; done
env | grep '^V[123]=' | sed 's/^/exported /'
if [ -n "${!-}" ]; then wait $!; echo "wait-bang=$?"; else echo "wait-bang=none"; fi
wait
`

// runSlots bounds the programs running at once, over all shells: most of
// their time is spent in sleep, but the timing comparison needs a machine
// that is not swamped.
var runSlots = make(chan struct{}, 8)

// shell is a shell under test and the language its fixes are made for.
type shell struct {
	name, path string
	lang       analyze.Lang
}

func needShell(t *testing.T, name string) shell {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed", name)
	}
	lang, err := analyze.ParseLang(name)
	if err != nil {
		t.Fatal(err)
	}
	return shell{name, p, lang}
}

// runObserved runs a program in a fresh directory and returns what it did
// (sorted output lines: background jobs print in any order) and how long
// the parent took up to the end of the program.
func runObserved(sh shell, prog string) (string, time.Duration, error) {
	top, err := os.MkdirTemp("", "shguard-diff-")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(top)
	root := filepath.Join(top, "root")
	for _, d := range []string{"", "d1", "d2"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			return "", 0, err
		}
	}
	outFile, err := os.Create(filepath.Join(top, "out"))
	if err != nil {
		return "", 0, err
	}
	defer outFile.Close()
	script := prologue + prog + "\n" + epilogue
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sh.path, "-c", script)
	cmd.Stdout, cmd.Stderr = outFile, outFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(os.Environ(), "LC_ALL=C", "R="+root)
	if err := cmd.Start(); err != nil {
		return "", 0, err
	}
	pgid := cmd.Process.Pid
	werr := cmd.Wait()
	// Orphans of the program stay in its process group: let them finish
	// before looking at the files they write.
	deadline := time.Now().Add(10 * time.Second)
	for groupRuns(pgid) {
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL)
			return "", 0, fmt.Errorf("processes of %q still running after 10s", prog)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return "", 0, werr
		}
	}
	out, err := os.ReadFile(outFile.Name())
	if err != nil {
		return "", 0, err
	}
	var lines []string
	var t0, t1 int64
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if ns, ok := strings.CutPrefix(l, "t0="); ok {
			t0, _ = strconv.ParseInt(ns, 10, 64)
			continue
		}
		if ns, ok := strings.CutPrefix(l, "t1="); ok {
			t1, _ = strconv.ParseInt(ns, 10, 64)
			continue
		}
		l = pidRe.ReplaceAllString(strings.ReplaceAll(l, root, "$R"), "pid N")
		lines = append(lines, l)
	}
	sort.Strings(lines)
	// The files and what the commands wrote in them.
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, "file "+rel+": "+strings.ReplaceAll(strings.TrimSpace(string(b)), root, "$R"))
		return nil
	})
	lines = append(lines, fmt.Sprintf("exit=%d", cmd.ProcessState.ExitCode()))
	return strings.Join(lines, "\n"), time.Duration(t1 - t0), nil
}

// groupRuns reports whether a process of the group pgid is still
// running. A zombie is not: it has finished, and whoever inherited it may
// never reap it (a PID namespace's init that is not a shell, like
// `unshare -p -f go test`).
func groupRuns(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces and parens.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// genProgram builds a random program from harmless commands. Every command
// that writes a file writes its own, so that the files left behind do not
// depend on the order in which concurrent jobs ran.
func genProgram(r *rand.Rand) string {
	g := &gen{r: r}
	var b strings.Builder
	n := 2 + r.Intn(4)
	for i := 0; i < n; i++ {
		b.WriteString(g.andOr(0))
		switch r.Intn(6) {
		case 0, 1, 2:
			b.WriteString(" &")
			if r.Intn(2) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		case 3:
			b.WriteString("; ")
		default:
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), " \n")
}

type gen struct {
	r     *rand.Rand
	files int
}

func (g *gen) andOr(depth int) string {
	s := g.command(depth)
	for k := g.r.Intn(3); k > 0; k-- {
		op := " && "
		if g.r.Intn(3) == 0 {
			op = " || "
		}
		s += op + g.command(depth)
	}
	return s
}

func (g *gen) list(depth int) string {
	var parts []string
	for k := 1 + g.r.Intn(3); k > 0; k-- {
		sep := "; "
		if g.r.Intn(4) == 0 {
			sep = " & "
		}
		parts = append(parts, g.andOr(depth+1)+sep)
	}
	return strings.TrimSuffix(strings.Join(parts, ""), " ")
}

// command is a simple or compound command, sometimes with its output
// sent elsewhere: what a job holds of the caller's output is what the fix
// is about.
func (g *gen) command(depth int) string {
	c := g.bare(depth)
	switch g.r.Intn(10) {
	case 0:
		c += " >/dev/null"
	case 1:
		c += " 2>/dev/null"
	case 2:
		c += " >/dev/null 2>&1"
	}
	return c
}

func (g *gen) bare(depth int) string {
	if depth < 2 {
		switch g.r.Intn(8) {
		case 0:
			return "( " + strings.TrimSuffix(g.list(depth), ";") + " )"
		case 1:
			l := g.list(depth)
			if !strings.HasSuffix(l, ";") && !strings.HasSuffix(l, "&") {
				l += ";"
			}
			return "{ " + l + " }"
		}
	}
	g.files++
	f := "f" + strconv.Itoa(g.files)
	v := "V" + strconv.Itoa(1+g.r.Intn(3))
	switch g.r.Intn(12) {
	case 0:
		return "true"
	case 1:
		return "false"
	case 2, 3:
		return "/bin/pwd > " + f
	case 4, 5:
		return "cp /dev/null " + f
	case 6:
		// A command that takes a while. Not a literal `sleep 0.1`: the
		// analyzer knows that one ends at once (briefJob) and has nothing
		// to fix.
		return "sleep $NAP"
	case 7:
		return []string{`cd "$R/d1"`, `cd "$R/d2"`, `cd "$R"`, `cd nosuch`}[g.r.Intn(4)]
	case 8:
		return "export " + v + "=" + strconv.Itoa(g.files)
	case 9:
		return v + "=" + strconv.Itoa(g.files)
	case 10:
		return "wait"
	}
	return "cp /dev/null " + f
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}
