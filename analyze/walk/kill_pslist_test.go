package walk

import "testing"

func TestBREToERE(t *testing.T) {
	for _, c := range []struct{ bre, ere string }{
		{`[v]ite`, `[v]ite`},
		{`node server`, `node server`},
		{`a\|b`, `a|b`},
		{`(x)+`, `\(x\)\+`},
		{`\(x\)\{2\}`, `(x){2}`},
		{`*x`, `\*x`},
		{`^*x`, `^\*x`},
		{`[]a]|b`, `[]a]\|b`},
		{`[[:digit:]]*`, `[[:digit:]]*`},
		{`\<vite\>`, `\bvite\b`},
	} {
		if got, ok := breToERE(c.bre); !ok || got != c.ere {
			t.Errorf("breToERE(%q) = %q, %v; want %q", c.bre, got, ok, c.ere)
		}
	}
	if _, ok := breToERE(`\(a\)\1`); ok {
		t.Error("a back-reference has no ERE")
	}
}

func TestAWKPrints(t *testing.T) {
	for _, c := range []struct {
		prog       string
		keep, drop int
		field      int
		ok         bool
	}{
		{`{print $2}`, 0, 0, 2, true},
		{`{ print $1; }`, 0, 0, 1, true},
		{`/[v]ite/ {print $2}`, 1, 0, 2, true},
		{`/node server/ && !/awk/ {print $2}`, 1, 1, 2, true},
		{`/a\/b/{print $2}`, 1, 0, 2, true},
		{`NR>1 {print $2}`, 0, 0, 0, false},
		{`{print $2, $11}`, 0, 0, 0, false},
		{`/x/ {print}`, 0, 0, 0, false},
	} {
		keep, drop, field, ok := awkPrints(c.prog)
		if ok != c.ok || ok && (len(keep) != c.keep || len(drop) != c.drop || field != c.field) {
			t.Errorf("awkPrints(%q) = %d, %d, %d, %v; want %d, %d, %d, %v", c.prog, len(keep), len(drop), field, ok, c.keep, c.drop, c.field, c.ok)
		}
	}
}
