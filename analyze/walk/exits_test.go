package walk

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func parseOne(t *testing.T, src string) *syntax.Stmt {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("%q: %v, %d statements", src, err, len(f.Stmts))
	}
	return f.Stmts[0]
}

// A function's status as its body says it (1 succeeds, -1 fails, 0 not
// known): what `f || exit 1` and `f && kill $!` after a call depend on.
func TestFuncStatus(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"f() { true; }", 1},
		{"f() { false; }", -1},
		{"f() { ./server; }", 0},
		{"f() { cd app; return 0; }", 1},
		{"f() { return 3; }", -1},
		{"f() { false; return; }", -1}, // a bare return keeps the status before it
		{"f() { true; return; }", 1},
		{"f() { if [ -f x ]; then return 1; fi; true; }", 0}, // either
		{"f() { true; } >log", 0},                            // its redirection may fail
		{"f() ( true )", 0},
	} {
		fd, ok := parseOne(t, c.src).Cmd.(*syntax.FuncDecl)
		if !ok {
			t.Fatalf("%q is no function", c.src)
		}
		if got := funcStatus(fd.Body); got != c.want {
			t.Errorf("funcStatus(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

// Where exec's command word is: the shell becomes that program, so what
// follows never runs (see execsSomething).
func TestExecWord(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"exec server", 1},
		{"exec -- server", 2},
		{"exec -c -l server --port 1", 3},
		{"exec -a name server", -1}, // -a takes a word: not followed
		{"exec >log 2>&1", -1},      // bare exec only redirects
		{"exec", -1},
		{"echo exec", -1},
		{`exec "$@"`, 1},
	} {
		ce, ok := parseOne(t, c.src).Cmd.(*syntax.CallExpr)
		if !ok {
			t.Fatalf("%q is no simple command", c.src)
		}
		if got := execWord(ce); got != c.want {
			t.Errorf("execWord(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
