// Command filescc measures how tangled one Go package's files are: the
// file-to-file edges of type-checked references (a file using a
// package-level name, field or method another file of the package
// declares) and the strongly connected components they form. It is how
// the layering of analyze/ was measured before and after:
//
//	go run ./filescc -root ../../.. ./analyze ./analyze/dialect
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/tools/go/packages"
)

func main() {
	root := flag.String("root", ".", "module root")
	flag.Parse()
	cfg := &packages.Config{Dir: *root, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, p := range pkgs {
		edges := map[string]map[string]bool{}
		files := map[string]bool{}
		for _, f := range p.Syntax {
			files[filepath.Base(p.Fset.File(f.Pos()).Name())] = true
		}
		for id, o := range p.TypesInfo.Uses {
			if o == nil || o.Pkg() != p.Types || !o.Pos().IsValid() {
				continue
			}
			if o.Parent() != nil && o.Parent() != p.Types.Scope() {
				continue // a local
			}
			from := filepath.Base(p.Fset.Position(id.Pos()).Filename)
			to := filepath.Base(p.Fset.Position(o.Pos()).Filename)
			if from == to || !files[from] || !files[to] {
				continue
			}
			if edges[from] == nil {
				edges[from] = map[string]bool{}
			}
			edges[from][to] = true
		}
		n, mutual := 0, 0
		for a, ts := range edges {
			n += len(ts)
			for b := range ts {
				if a < b && edges[b][a] {
					mutual++
				}
			}
		}
		sccs := tarjan(files, edges)
		sort.Slice(sccs, func(i, j int) bool { return len(sccs[i]) > len(sccs[j]) })
		fmt.Printf("%s: %d files, %d file->file edges, %d mutual pairs, largest strongly connected component %d files\n",
			p.PkgPath, len(files), n, mutual, len(sccs[0]))
	}
}

func tarjan(nodes map[string]bool, edges map[string]map[string]bool) [][]string {
	index, low := map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	var out [][]string
	i := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = i, i
		i++
		stack = append(stack, v)
		on[v] = true
		for w := range edges[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				c = append(c, w)
				if w == v {
					break
				}
			}
			out = append(out, c)
		}
	}
	names := make([]string, 0, len(nodes))
	for n := range nodes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, seen := index[n]; !seen {
			visit(n)
		}
	}
	return out
}
