package analyze

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this module's path; layers name analyze/'s packages from the
// bottom floor up (docs/architecture.md draws them).
const module = "github.com/shguard/shguard/"

// layers is the floor plan of analyze/: a package may import only the
// packages on floors below its own. A package under analyze/ that is not
// listed here fails the test, so a new package is placed on purpose.
var layers = []string{
	"analyze/diag",      // shared types: Finding, Severity, Position, Edit, Fix, ParseError
	"analyze/knowledge", // what a word or a command is without running it
	"analyze/fdtable",   // descriptor tables
	"analyze/dialect",   // the shells and every difference between them
	"analyze/walk",      // the model: an abstract run of the script
	"analyze/fix",       // fix construction
	"analyze/rules",     // one file per rule, reading the walk's result
	"analyze",           // the public façade
}

// ground are the module's packages outside analyze/ that are below all of
// its floors: utilities that import nothing of the module (TestLayers
// checks that), which any floor may use.
var ground = []string{
	"internal/lazy", // values built on first use, not at start-up
}

// floorOf returns the floor of a module package under analyze/, or -1
// for a package that is not on the plan.
func floorOf(pkg string) int {
	for i, l := range layers {
		if pkg == module+l {
			return i
		}
	}
	return -1
}

// upward lists the imports of pkg (a package under analyze/) that break
// the floor plan: a package of the module on the same floor or above, a
// package of the module outside analyze/, or pkg itself off the plan.
func upward(pkg string, imports []string) []string {
	var bad []string
	floor := floorOf(pkg)
	if floor < 0 {
		return []string{pkg + " is not on the floor plan (layers in layers_test.go)"}
	}
	for _, imp := range imports {
		if !strings.HasPrefix(imp, module) {
			continue
		}
		if slices.Contains(ground, strings.TrimPrefix(imp, module)) {
			continue
		}
		if f := floorOf(imp); f < 0 || f >= floor {
			bad = append(bad, pkg+" imports "+imp)
		}
	}
	return bad
}

func TestUpwardCheckFails(t *testing.T) {
	for _, c := range []struct {
		pkg     string
		imports []string
		bad     int
	}{
		{module + "analyze", []string{module + "analyze/rules", module + "analyze/diag", "strings"}, 0},
		{module + "analyze/knowledge", []string{module + "analyze/diag"}, 0},
		{module + "analyze/knowledge", []string{module + "analyze/walk"}, 1},
		{module + "analyze/walk", []string{module + "analyze/rules", module + "analyze/fix"}, 2},
		{module + "analyze/rules", []string{module + "analyze/fix", module + "analyze/walk"}, 0},
		{module + "analyze/fix", []string{module + "analyze/rules"}, 1},
		{module + "analyze/dialect", []string{module + "rewrite"}, 1},
		{module + "analyze/extra", nil, 1},
		{module + "analyze/dialect", []string{module + "internal/lazy"}, 0},
		{module + "analyze/diag", []string{module + "internal/flagset"}, 1},
	} {
		if got := upward(c.pkg, c.imports); len(got) != c.bad {
			t.Errorf("upward(%s, %v) = %q, want %d", c.pkg, c.imports, got, c.bad)
		}
	}
}

// TestLayers lists the imports of every package under analyze/ (tests'
// imports included; an external test package is a client, not a floor)
// with go list and fails on any that runs up the floor plan; packages
// outside analyze/ may import only the façade. Every floor of the plan
// must exist: a plan that names a floor no package fills would let code
// that belongs there stay on another floor unnoticed.
func TestLayers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports", "../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	defer func() {
		for _, l := range layers {
			if !seen[module+l] {
				t.Errorf("%s is on the floor plan but no package is there", l)
			}
		}
	}()
	for dec.More() {
		var p struct {
			ImportPath           string
			Imports, TestImports []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		seen[p.ImportPath] = true
		if slices.Contains(ground, strings.TrimPrefix(p.ImportPath, module)) {
			for _, imp := range p.Imports {
				if strings.HasPrefix(imp, module) {
					t.Errorf("%s imports %s: a package below analyze/'s floors imports nothing of the module", p.ImportPath, imp)
				}
			}
			continue
		}
		if !strings.HasPrefix(p.ImportPath, module+"analyze") {
			for _, imp := range append(p.Imports, p.TestImports...) {
				if strings.HasPrefix(imp, module+"analyze/") {
					t.Errorf("%s imports %s: outside analyze/, import only the façade", p.ImportPath, imp)
				}
			}
			continue
		}
		for _, b := range upward(p.ImportPath, p.Imports) {
			t.Error(b)
		}
		// Tests beside a floor may read the corpus (data that imports
		// none of analyze/) besides the floors below.
		var imps []string
		for _, imp := range p.TestImports {
			if imp != module+"corpus" {
				imps = append(imps, imp)
			}
		}
		for _, b := range upward(p.ImportPath, imps) {
			t.Error(b + " (in a test)")
		}
	}
}
