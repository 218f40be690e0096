package analyze

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/corpus"
)

// TestInspect checks the hand-written traversal against syntax.Walk, which
// it replaces where comments do not matter: the same nodes in the same
// order, on every corpus command (each parsed as its own shell and as
// bash) and on constructed ones with every kind of node, whole and
// pruned below each kind.
func TestInspect(t *testing.T) {
	srcs := []string{
		`a=1 b[2]=3; c=(x [1]=y); cmd "$x" '$y' ${z:-$(w)} ${v/a/b} ${u:1:2} ${#t} ${!s} <(p) >(q) 2>&1 <<EOF
$(here)
EOF`,
		`if a; then b; elif c; then d; else e; fi; while f; do g; done; until h; do i; done`,
		`for x in a b; do c & done; for ((i=0; i<$(n); i++)); do :; done; for y; do :; done`,
		`case $x in a|b) c ;; *) d ;& esac; f() { g; }; function h { i; }; ( j ) | k && l || m`,
		`[[ -n $a && ( $b == x || ! -f $c ) ]]; (( x = $(d) + 1 )); let y=2 z=$[3]; declare -a w=(1 2)`,
		`time { a; b; } 2>/dev/null; coproc c { d; }; ! e; echo @(a|b) $(( (1+2) * -3 ))`,
	}
	zsh := []string{`echo ${(L)$(a)} ${${x}:-$(b)} ${x[1,$(c)]} ${=y} =(d); () { e; }; echo ${a[(i)b]}`}
	type src struct {
		text string
		v    syntax.LangVariant
	}
	var all []src
	for _, s := range srcs {
		all = append(all, src{s, syntax.LangBash})
	}
	for _, s := range zsh {
		all = append(all, src{s, syntax.LangZsh})
	}
	all = append(all, src{"@test \"x\" { run a; }", syntax.LangBats})
	variants := map[string]syntax.LangVariant{"bash": syntax.LangBash, "zsh": syntax.LangZsh, "dash": syntax.LangPOSIX, "mksh": syntax.LangMirBSDKorn}
	for _, e := range corpus.Load() {
		all = append(all, src{e.Cmd, variants[e.Shell]}, src{e.Cmd, syntax.LangBash})
	}
	kinds := map[string]bool{}
	checked := 0
	for i, s := range all {
		f, err := syntax.NewParser(syntax.Variant(s.v), syntax.KeepComments(true)).Parse(bytes.NewReader([]byte(s.text)), "")
		if err != nil {
			if i <= len(srcs)+len(zsh) {
				t.Errorf("%q: %v", s.text, err)
			}
			continue
		}
		var want, got []syntax.Node
		syntax.Walk(f, func(n syntax.Node) bool {
			if _, ok := n.(*syntax.Comment); n != nil && !ok {
				want = append(want, n)
				kinds[typeName(n)] = true
			}
			return true
		})
		knowledge.Inspect(f, func(n syntax.Node) bool { got = append(got, n); return true })
		if !slices.Equal(got, want) {
			t.Errorf("%q: inspect visits %d nodes, syntax.Walk %d", s.text, len(got), len(want))
			continue
		}
		// Pruned below each node in turn: stopping there must stop both.
		for _, stop := range want {
			want, got = want[:0], got[:0]
			syntax.Walk(f, func(n syntax.Node) bool {
				if _, ok := n.(*syntax.Comment); n != nil && !ok {
					want = append(want, n)
				}
				return n != stop
			})
			knowledge.Inspect(f, func(n syntax.Node) bool { got = append(got, n); return n != stop })
			if !slices.Equal(got, want) {
				t.Errorf("%q pruned at %s: inspect visits %d nodes, syntax.Walk %d", s.text, typeName(stop), len(got), len(want))
			}
		}
		checked++
	}
	if checked < 1000 || len(kinds) < 41 {
		t.Errorf("only %d sources and %d kinds of node checked", checked, len(kinds))
	}
	t.Logf("%d sources, %d kinds of node", checked, len(kinds))
}

func typeName(n syntax.Node) string {
	return fmt.Sprintf("%T", n)
}
