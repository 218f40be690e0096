package rewrite

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
)

// The seed PR's table, byte for byte, plus the shapes it got wrong.
var braceTable = []struct{ in, out string }{
	{"cd /tmp && python3 -m http.server 8000 &>/dev/null &", "cd /tmp && { python3 -m http.server 8000 &>/dev/null & }"},
	{"A && B &", "A && { B & }"},
	{"A && B && C &", "A && B && { C & }"},
	{"A || B &", "A || { B & }"},
	{"A\t&&\tB\t&", "A\t&&\t{ B\t& }"},
	{"   A && B &", "   A && { B & }"},
	{"A && B 2>&1 &", "A && { B 2>&1 & }"},
	{"A && B &\nC || D &\n", "A && { B & }\nC || { D & }\n"},
	{"A && B & C", "A && { B & }; C"},
	{"A && B &\tC && D &", "A && { B & };\tC && { D & }"},
	{"A && B & # start it", "A && { B & } # start it"},
	{"{ A && B & }", "{ A && { B & }; }"},
	{"(A && B &)", "(A && { B & })"},
	{"case $x in y) A && B &;; esac", "case $x in y) A && { B & };; esac"},
	{"for i in 1; do A && B & done", "for i in 1; do A && { B & }; done"},
	{"A && B | C &", "A && { B | C & }"},
	{"A && ! B &", "A && { ! B & }"},
	{"A && B & \\\nC", "A && { B & }; \\\nC"},
	{"cat <<EOF && B &\nbody && x &\nEOF\n", "cat <<EOF && { B & }\nbody && x &\nEOF\n"},
	{"A && cat <<EOF >f &\nbody\nEOF\n", "A && { cat <<EOF >f & }\nbody\nEOF\n"},
	{"{ A && B &}", "{ A && { B & };}"},
	{"A && B &# comment", "A && { B & } # comment"},
	{"A && B & (C)", "A && { B & }; (C)"},
	{"bash -c 'cd x && server &'", "bash -c 'cd x && { server & }'"},
	{`bash -c "cd x && server & echo started"`, `bash -c "cd x && { server & }; echo started"`},
	// Unchanged, as in the seed table.
	{"sleep 5 &", "sleep 5 &"},
	{"A; B &", "A; B &"},
	{"cmd 2>&1 &", "cmd 2>&1 &"},
	{"echo 'A && B &'", "echo 'A && B &'"},
	{"", ""},
	{"  \n", "  \n"},
	// No brace form that helps: `{ time B & }` forks a waiting subshell again.
	{"A && time B &", "A && time B &"},
	{"A && (B; C) &", "A && (B; C) &"},
	// Other compound shapes have no brace form: the exec fix applies.
	{"(A; B >log) &", "(A; exec B >log) &"},
	{"{ A; B; } &", "{ A; exec B; } &"},
	// bash 5.1 and later exec B in place of the subshell already.
	{"(A; B) &", "(A; B) &"},
}

var execTable = []struct{ in, out string }{
	{"A && B &", "A && exec B &"},
	{"cd app && npm run dev &>/dev/null &", "cd app && exec npm run dev &>/dev/null &"},
	{"A && B && C &", "A && B && exec C &"},
	{"A || B &", "A || exec B &"},
	{"A && B || C &", "A && B || exec C &"},
	{"A\t&&\tB\t&", "A\t&&\texec B\t&"},
	{"  A && B &", "  A && exec B &"},
	{"A && B 2>&1 &", "A && exec B 2>&1 &"},
	{"A && B & C", "A && exec B & C"},
	{"A && B &\nC && D &\n", "A && exec B &\nC && exec D &\n"},
	{"(A; B 2>&1 >log) &", "(A; exec B 2>&1 >log) &"},
	{"( A\n  B >log\n) &", "( A\n  exec B >log\n) &"},
	{"{ A; B; } &", "{ A; exec B; } &"},
	{"(cd x && B >log) &", "(cd x && exec B >log) &"},
	{"(A; B && C) &", "(A; B && exec C) &"},
	{"f() { A && B & }", "f() { A && exec B & }"},
	{"while read x; do A && B & done", "while read x; do A && exec B & done"},
	{"if x; then A && B & fi", "if x; then A && exec B & fi"},
	{"case $x in y) A && B &;; esac", "case $x in y) A && exec B &;; esac"},
	{"A && FOO=1 B &", "A && FOO=1 exec B &"},
	{"A && >log B &", "A && >log exec B &"},
	{"A && ./bin/server --port 8 &", "A && exec ./bin/server --port 8 &"},
	{"A && sudo -u x B &", "A && exec sudo -u x B &"},
	{"cat <<EOF && B &\nbody && x &\nEOF\n", "cat <<EOF && exec B &\nbody && x &\nEOF\n"},
	{"bash -c 'cd x && server &'", "bash -c 'cd x && exec server &'"},
	{`bash -c "cd x && server &"`, `bash -c "cd x && exec server &"`},
	{`eval 'cd x && ./server &'`, `eval 'cd x && exec ./server &'`},
	{"trap 'rm -f x' EXIT INT; A && B &", "trap 'rm -f x' EXIT INT; A && exec B &"},
	{". ./env.sh; A && ./B &", ". ./env.sh; A && exec ./B &"},
	// No fix: exec would change what runs, or nothing after B is certain.
	{"server &", "server &"},
	// bash 5.1 and later exec the last command of ( ) in place already.
	{"(A; B) &", "(A; B) &"},
	{"(cd x && B) &", "(cd x && B) &"},
	{"( A\n  B\n) &", "( A\n  B\n) &"},
	{"A && B | C &", "A && B | C &"},
	{"A && time B &", "A && time B &"},
	{"A && ! B &", "A && ! B &"},
	{"A && exec B &", "A && exec B &"},
	{"A && { B; } &", "A && { B; } &"},
	{"A && B; C &", "A && B; C &"},
	{"(A; B; wait) &", "(A; B; wait) &"},
	{"A && $cmd &", "A && $cmd &"},
	{`A && "B" &`, `A && "B" &`},
	{`A && \B &`, `A && \B &`},
	{"A && {a,b} &", "A && {a,b} &"},
	{"A && %1 &", "A && %1 &"},
	{"A && -x &", "A && -x &"},
	{"A && echo hi &", "A && echo hi &"},
	{"A && command B &", "A && command B &"},
	{"f() { :; }; A && f &", "f() { :; }; A && f &"},
	{"A && f & f() { :; }", "A && f & f() { :; }"},
	{"alias B='C -x'; A && B &", "alias B='C -x'; A && B &"},
	{"(trap 'rm x' EXIT; A; B) &", "(trap 'rm x' EXIT; A; B) &"},
	{"setup() { trap 'rm x' EXIT; }; (setup; B) &", "setup() { trap 'rm x' EXIT; }; (setup; B) &"},
	{"trap 'echo err' ERR; set -E; A && B &", "trap 'echo err' ERR; set -E; A && B &"},
	{"command_not_found_handle() { :; }; A && B &", "command_not_found_handle() { :; }; A && B &"},
	{"source ./env.sh; A && B &", "source ./env.sh; A && B &"},
	{"eval \"$x\"; A && B &", "eval \"$x\"; A && B &"},
	{"bash -c 'f() { :; }; A && f &'", "bash -c 'f() { :; }; A && f &'"},
	{`bash -c "A && \"B\" &"`, `bash -c "A && \"B\" &"`},
	{"bash -c 'A && B &'\"x\"", "bash -c 'A && B &'\"x\""},
	{"bash -c \"bash -c 'A && B &'\"", "bash -c \"bash -c 'A && B &'\""},
	{"x=$(A && B &)", "x=$(A && B &)"},
}

func fixed(t *testing.T, src string, style analyze.Style) string {
	t.Helper()
	res, err := Fix([]byte(src), analyze.WithStyle(style))
	if err != nil {
		t.Fatalf("Fix(%q): %v", src, err)
	}
	return string(res.Out)
}

func TestFixBraceTable(t *testing.T) {
	for _, c := range braceTable {
		if got := fixed(t, c.in, analyze.StyleBrace); got != c.out {
			t.Errorf("brace fix of %q:\n got %q\nwant %q", c.in, got, c.out)
		}
	}
}

func TestFixExecTable(t *testing.T) {
	for _, c := range execTable {
		if got := fixed(t, c.in, analyze.StyleExec); got != c.out {
			t.Errorf("exec fix of %q:\n got %q\nwant %q", c.in, got, c.out)
		}
	}
}

// Every output of both tables is valid bash, is its own fixpoint, and no
// longer has the finding the fix removed.
func TestFixTablesInvariants(t *testing.T) {
	bash := bashPath(t)
	check := func(style analyze.Style, in, out string) {
		if in == out {
			return
		}
		if msg, ok := bashN(bash, out); !ok {
			t.Errorf("%s fix of %q gives %q, which bash -n rejects: %s", style, in, out, msg)
		}
		if again := fixed(t, out, style); again != out {
			t.Errorf("%s fix is not idempotent on %q: %q", style, out, again)
		}
		res, _ := Fix([]byte(in), analyze.WithStyle(style))
		if len(res.Applied) == 0 {
			t.Errorf("%s fix of %q changed the source but reports nothing applied", style, in)
		}
	}
	for _, c := range braceTable {
		check(analyze.StyleBrace, c.in, c.out)
	}
	for _, c := range execTable {
		check(analyze.StyleExec, c.in, c.out)
	}
}

// In mksh, print and realpath are builtins: no exec.
func TestFixMkshBuiltins(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"A && print hi &", "A && print hi &"},
		{"A && realpath x &", "A && realpath x &"},
		{"A && B &", "A && exec B &"},
	} {
		res, err := Fix([]byte(c.in), analyze.WithLang(analyze.LangMksh))
		if err != nil || string(res.Out) != c.out {
			t.Errorf("mksh fix of %q = %q, %v; want %q", c.in, res.Out, err, c.out)
		}
	}
}

// dash's `{ A && B; } &` is the and-or job `A && B &` (braces without
// redirections are no command there), whose & stands after the group's
// `; }`: the brace fix would close the group with its ` }`, so there is
// none. A line continuation before the & is no such obstacle.
func TestFixBraceAmpAfterB(t *testing.T) {
	for _, c := range []struct {
		lang    analyze.Lang
		in, out string
	}{
		{analyze.LangDash, "{ cd app && B | C; } & x", "{ cd app && B | C; } & x"},
		{analyze.LangDash, "cd app && B | C & x", "cd app && { B | C & }; x"},
		{analyze.LangBash, "cd app && B \\\n  & x", "cd app && { B \\\n  & }; x"},
	} {
		res, err := Fix([]byte(c.in), analyze.WithLang(c.lang), analyze.WithStyle(analyze.StyleBrace))
		if err != nil || string(res.Out) != c.out {
			t.Errorf("%s brace fix of %q = %q, %v; want %q", c.lang, c.in, res.Out, err, c.out)
		}
	}
}

func TestFixParseError(t *testing.T) {
	res, err := Fix([]byte("A && { B &"))
	var pe *analyze.ParseError
	if !errors.As(err, &pe) || res != nil {
		t.Fatalf("Fix of an unparseable source: res %v, err %v; want a *analyze.ParseError and no result", res, err)
	}
}

// Applied findings are positioned in the input, remaining ones in the
// output.
func TestFixPositions(t *testing.T) {
	src := "echo hi\ncd a && server &\nplain &\n"
	res, err := Fix([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Out), "echo hi\ncd a && exec server &\nplain &\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if len(res.Applied) != 1 || res.Applied[0].Rule != "SG1002" {
		t.Fatalf("applied: %v", res.Applied)
	}
	if a := res.Applied[0]; a.Start.Offset != 8 || a.Start.Line != 2 || a.Start.Col != 1 || a.End.Offset != 24 {
		t.Errorf("applied finding at %+v-%+v, want 8 (2:1) to 24", a.Start, a.End)
	}
	for _, f := range res.Remaining {
		if f.Rule == "SG1002" {
			t.Errorf("SG1002 remains: %v", f)
		}
		if got := src[:0] + string(res.Out[f.Start.Offset:f.End.Offset]); !strings.HasSuffix(got, "&") {
			t.Errorf("remaining finding %v does not span a job of the output: %q", f, got)
		}
	}
}

// Fixing keeps the input untouched and returns a copy when nothing changes.
func TestFixNoChangeCopies(t *testing.T) {
	src := []byte("server &")
	res, err := Fix(src)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Out) != "server &" || len(res.Applied) != 0 || len(res.Remaining) == 0 {
		t.Fatalf("got %+v", res)
	}
	res.Out[0] = 'X'
	if src[0] != 's' {
		t.Fatal("Out aliases the input")
	}
}

func bashPath(t testing.TB) string {
	p, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	return p
}

func bashN(bash, src string) (string, bool) {
	out, err := exec.Command(bash, "-n", "-c", src).CombinedOutput()
	return string(out), err == nil
}

func runBash(bash, dir, script string) (string, error) {
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
