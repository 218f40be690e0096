package walk

import (
	"slices"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// TestBraceWords checks the brace expansion of a for list's literal word
// as each shell does it (bash and zsh printed these; mksh expands lists
// only, dash nothing).
func TestBraceWords(t *testing.T) {
	for _, c := range []struct {
		word string
		kind dialect.BraceKind
		want []string // nil: the word stays as it is
	}{
		{"{1..3}", dialect.BracesAll, []string{"1", "2", "3"}},
		{"{3..1}", dialect.BracesAll, []string{"3", "2", "1"}},
		{"{01..03}", dialect.BracesAll, []string{"01", "02", "03"}},
		{"{1..7..3}", dialect.BracesAll, []string{"1", "4", "7"}},
		{"{a..c}", dialect.BracesAll, []string{"a", "b", "c"}},
		{"x{a,b{1,2}}y", dialect.BracesAll, []string{"xay", "xb1y", "xb2y"}},
		{"{api,web}", dialect.BracesLists, []string{"api", "web"}},
		{"{1..3}", dialect.BracesLists, nil},
		{"{a,b}{1..2}", dialect.BracesLists, []string{"a{1..2}", "b{1..2}"}},
		{"{x}", dialect.BracesAll, nil},
		{"{1..100000}", dialect.BracesAll, nil},
		{"{-9000000000000000000..9000000000000000000}", dialect.BracesAll, nil}, // (no overflow, no endless loop)
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("for i in "+c.word+"; do :; done"), "")
		if err != nil {
			t.Fatal(err)
		}
		wi := f.Stmts[0].Cmd.(*syntax.ForClause).Loop.(*syntax.WordIter)
		words, ok := braceWords(wi.Items[0], c.kind)
		var got []string
		for _, w := range words {
			got = append(got, w.Lit())
		}
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s (%d): got %q, %v; want %q", c.word, c.kind, got, ok, c.want)
		}
	}
}
