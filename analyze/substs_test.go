package analyze

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/corpus"
)

// TestEachSubstMatchesWalk checks the hand-written traversal against the
// generic walk it replaces, on every expansion of the corpus commands, of
// constructed ones that put substitutions in every place an expansion
// can hold them, and of the machine's shell scripts under /usr/bin.
func TestEachSubstMatchesWalk(t *testing.T) {
	srcs := []string{
		`echo "${a:-$(x)}" ${b/$(y)/$(z)} ${c:$(o):$(l)} ${d[$(i)]} ${#e} ${!f}`,
		`echo $(( $(a) + ( $(b) * -$(c) ) )) $[ 1 + $(d) ] <(e) >(f)`,
		`[[ -n $(a) && ( $(b) == x || ! -f $(c) ) ]]; (( $(d) > 1 )); let x=$(e)+1 y=2`,
		`for (( i=$(a); i < $(b); i+=$(c) )); do :; done; for ((;;)); do break; done`,
		`echo "a $(b "$(c)") d" '$(not)' $'$(not)' ${x:+"$(y)"} @(a|$(b))`,
		`x=$(a) y[$(b)]=$(c) z=( $(d) [1]=$(e) ); declare w=$(f); export v=$(g)`,
		`cat <<EOF
$(here) ${x:-$(y)}
EOF`,
	}
	zsh := []string{
		`echo ${(L)$(a)} ${${x}:-$(b)} ${x[1,$(c)]} ${=y} =(d)`,
	}
	constructed := len(srcs)
	for _, e := range corpus.Load() {
		srcs = append(srcs, e.Cmd)
	}
	if files, _ := filepath.Glob("/usr/bin/*"); len(files) > 0 {
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && bytes.HasPrefix(b, []byte("#!/bin/sh")) && len(b) < 1<<20 {
				srcs = append(srcs, string(b))
			}
		}
	}
	checked := 0
	check := func(src string, v syntax.LangVariant, mustParse bool) {
		f, err := syntax.NewParser(syntax.Variant(v)).Parse(bytes.NewReader([]byte(src)), "")
		if err != nil {
			if mustParse {
				t.Errorf("%q: %v", src, err)
			}
			return
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.Word, *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause, *syntax.CStyleLoop:
			default:
				return true
			}
			var got []syntax.Node
			knowledge.EachSubst(n, func(n syntax.Node) { got = append(got, n) })
			want := walkSubsts(n)
			if !slices.Equal(got, want) {
				t.Errorf("%T at %s in %q: eachSubst found %d substitutions, the walk %d", n, n.Pos(), src, len(got), len(want))
			}
			checked++
			return true
		})
	}
	for i, src := range srcs {
		check(src, syntax.LangBash, i < constructed)
	}
	for _, src := range zsh {
		check(src, syntax.LangZsh, true)
	}
	if checked < 1000 {
		t.Errorf("only %d expansions checked", checked)
	}
	t.Logf("%d expansions checked", checked)
}

// walkSubsts is the reference eachSubst is held against: the substitutions
// under n, found by syntax.Walk.
func walkSubsts(n syntax.Node) []syntax.Node {
	var found []syntax.Node
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = append(found, n)
			return false
		}
		return true
	})
	return found
}
