package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestRegistered: every rule declared in this package (a package-level
// var whose value is a Rule{...}) is in registered, once.
func TestRegistered(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.CompositeLit); ok {
						if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "Rule" {
							declared = append(declared, vs.Names[i].Name)
						}
					}
				}
			}
		}
	}
	seen := map[*Rule]bool{}
	ids := map[string]bool{}
	for _, r := range registered {
		if seen[r] || ids[r.ID] {
			t.Errorf("%s is listed twice in registered (rule.go)", r.ID)
		}
		seen[r], ids[r.ID] = true, true
	}
	if len(declared) != len(seen) {
		t.Errorf("%d rules declared (%v), %d listed in registered (rule.go): list each rule once", len(declared), declared, len(seen))
	}
}
