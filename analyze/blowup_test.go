package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
)

// nestings are shapes the walk visits more than once (a loop's rounds, a
// function's calls), nested n deep: each doubles the work per level unless
// the walk bounds it.
var nestings = map[string]func(n int) string{
	"loops": func(n int) string {
		return strings.Repeat("for i in 1 2; do\n", n) + "sleep 1 &\n" + strings.Repeat("done\n", n)
	},
	"loops with ifs": func(n int) string {
		return strings.Repeat("while read l; do\nif x; then\n", n) + "sleep 1 &\n" + strings.Repeat("fi\ndone\n", n)
	},
	"functions calling the next twice": func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "f%d() { f%d; f%d; }\n", i, i+1, i+1)
		}
		fmt.Fprintf(&b, "f%d() { sleep 1 & }\nsleep 9 &\nf0\nkill $!\n", n)
		return b.String()
	},
	// Each question about a call (does it exit? what does it kill
	// first?) reads the bodies it calls.
	"functions calling the next four times, or exiting": func(n int) string {
		var b strings.Builder
		b.WriteString("sleep 9 &\n")
		for i := range n {
			fmt.Fprintf(&b, "f%d() { %s}\n", i, strings.Repeat(fmt.Sprintf("f%d || { kill $!; exit 1; }; ", i+1), 4))
		}
		fmt.Fprintf(&b, "f%d() { true; }\nf0\nkill $!\n", n)
		return b.String()
	},
}

// TestWorkGrowsPolynomially holds the walk's work on nested shapes to a
// polynomial of the depth: doubling the depth from 6 to 12 may multiply
// the allocations by 8 (n³; they grow by 3.2 at most now), where a walk
// that doubles per level multiplies them by 64. (Twenty-four nested loops
// took more than a gigabyte before the bound.) Allocations, not time:
// they do not depend on the machine's load.
func TestWorkGrowsPolynomially(t *testing.T) {
	for name, shape := range nestings {
		for _, lang := range []dialect.Lang{dialect.LangBash, dialect.LangZsh, dialect.LangDash, dialect.LangMksh} {
			t.Run(name+"/"+lang.String(), func(t *testing.T) {
				allocs := func(n int) float64 {
					src := []byte(shape(n))
					if _, err := Analyze(src, WithLang(lang)); err != nil {
						t.Fatalf("depth %d: %v", n, err)
					}
					return testing.AllocsPerRun(1, func() { Analyze(src, WithLang(lang)) })
				}
				small, big := allocs(6), allocs(12)
				if big > 8*small {
					t.Errorf("depth 6: %.0f allocations, depth 12: %.0f (×%.0f, more than ×8)", small, big, big/small)
				}
			})
		}
	}
}
