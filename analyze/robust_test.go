package analyze

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
)

// Hostile inputs end in a verdict or a *ParseError with a real position,
// never a panic.
func TestHostileInputs(t *testing.T) {
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7919)
	}
	cases := map[string]string{
		"empty":                      "",
		"nul":                        "echo a\x00b; sleep 5 &",
		"invalid utf-8":              "echo \xff\xfe &",
		"long line":                  "echo " + strings.Repeat("a", 1<<20) + "; sleep 5 &",
		"deep parens":                strings.Repeat("( ", 20000) + "sleep 1 &" + strings.Repeat(" )", 20000),
		"deep arith parens":          strings.Repeat("(", 20000),
		"deep substitution":          strings.Repeat("$(", 5000) + "x" + strings.Repeat(")", 5000),
		"unterminated hdoc":          "cat <<EOF\nabc &\n",
		"binary":                     string(bin),
		"deep nested -c":             strings.Repeat(`bash -c "`, 1) + `sleep 1 &"`,
		"unterminated quote":         "echo 'abc &",
		"long and-or in bg":          strings.Repeat("true && ", 20000) + "sleep 1 &",
		"long and-or exits":          "sleep 9 & " + strings.Repeat("true || ", 20000) + "exit 1; kill $!",
		"many bad dups":              strings.Repeat("{ sleep 1; } >&/dev/null & ", 2000),
		"trap kills its shell again": `trap "true && kill -- -$$" TERM EXIT; ./server &`,
	}
	for name, src := range cases {
		for _, lang := range []dialect.Lang{dialect.LangBash, dialect.LangZsh, dialect.LangDash, dialect.LangMksh} {
			t.Run(name+"/"+lang.String(), func(t *testing.T) {
				_, err := Analyze([]byte(src), WithLang(lang))
				var pe *diag.ParseError
				if err != nil && (!errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1) {
					t.Fatalf("error %v is not a positioned *ParseError", err)
				}
			})
		}
	}
}

// TestSameFindingsEveryRun runs sources whose walk once depended on Go's
// map order, many times each: the findings must not change. (A subshell
// that defines several functions drops them when it ends, and the order
// they were walked in as uncalled bodies came from ranging over a map:
// `srv &` below was reported in about nine runs of ten.)
func TestSameFindingsEveryRun(t *testing.T) {
	for _, src := range []string{
		"( g() { f() { srv & }; }; h() { f; }; f() { true; }; )",
		"( a() { b() { srv & }; }; b() { true; }; c() { b; }; d() { a; }; )",
	} {
		for _, lang := range []dialect.Lang{dialect.LangBash, dialect.LangZsh, dialect.LangDash, dialect.LangMksh} {
			first, err := Analyze([]byte(src), WithLang(lang))
			if err != nil {
				t.Fatal(err)
			}
			for range 40 {
				again, _ := Analyze([]byte(src), WithLang(lang))
				if !reflect.DeepEqual(again, first) {
					t.Fatalf("%s: %q: %v, then %v", lang, src, first, again)
				}
			}
		}
	}
}
