// Command layermove moves declarations of one Go package into a package
// below it, and rewrites both so that they compile: the moved unexported
// names that the package left behind still uses are exported, its uses are
// qualified with the new package's name, and every exported name the old
// package had gets an alias there (a type alias, a constant, a variable or
// a wrapper function), so its clients compile unchanged.
//
// It exists because analyze/ was split into floors while other branches
// kept changing it: a move made by a tool is made again after a merge.
//
//	go run . -root ../../.. -pkg ./analyze -to analyze/knowledge \
//	    -files literal.go,inspect.go -decls plainWord,isDigits -into words.go
//
// It refuses (and lists) what it cannot move downward: a moved declaration
// that uses one left behind, or a method in a moved file whose type stays.
// Run with -n to see the plan without writing.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/imports"
)

var (
	root    = flag.String("root", ".", "module root")
	pkgPat  = flag.String("pkg", "./analyze", "the package to move from")
	to      = flag.String("to", "", "the directory of the package to move into, relative to root (e.g. analyze/diag)")
	files   = flag.String("files", "", "comma list of files (base names) to move whole")
	decls   = flag.String("decls", "", "comma list of top-level names to carve out of the files that stay")
	into    = flag.String("into", "carved.go", "the file of the new package the carved declarations go to")
	aliases = flag.String("aliases", "", "the file of the old package the aliases go to (default: <to's base>_aliases.go)")
	dry     = flag.Bool("n", false, "print the plan, write nothing")
)

type region struct {
	file       string
	start, end token.Pos
}

type edit struct {
	start, end int
	text       string
}

func main() {
	flag.Parse()
	if *to == "" {
		fail("-to is required")
	}
	absRoot, _ := filepath.Abs(*root)
	cfg := &packages.Config{Dir: absRoot, Tests: true, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports}
	pkgs, err := packages.Load(cfg, *pkgPat)
	if err != nil {
		fail(err.Error())
	}
	var pkg *packages.Package
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			fail(fmt.Sprint(p.Errors))
		}
		if strings.HasSuffix(p.ID, ".test]") && !strings.HasSuffix(p.Name, "_test") {
			pkg = p
		}
	}
	if pkg == nil {
		for _, p := range pkgs {
			if !strings.HasSuffix(p.ID, ".test") && !strings.HasSuffix(p.Name, "_test") {
				pkg = p
			}
		}
	}
	fset := pkg.Fset
	destDir := filepath.Join(absRoot, *to)
	destName := filepath.Base(*to)
	modPath := strings.TrimSuffix(pkg.PkgPath, "/"+strings.TrimPrefix(filepath.ToSlash(mustRel(absRoot, filepath.Dir(pkg.GoFiles[0]))), "./"))
	destPath := modPath + "/" + filepath.ToSlash(*to)
	srcDir := filepath.Dir(pkg.GoFiles[0])

	moveFiles := set(*files)
	carve := set(*decls)
	var regions []region
	var carved []ast.Decl
	fileOf := map[*ast.File]string{}
	for _, f := range pkg.Syntax {
		name := fset.File(f.Pos()).Name()
		fileOf[f] = name
		if moveFiles[filepath.Base(name)] {
			regions = append(regions, region{name, f.Pos(), f.End()})
			delete(moveFiles, filepath.Base(name))
			continue
		}
		for _, d := range f.Decls {
			if declNamed(d, carve) {
				regions = append(regions, region{name, declStart(d), d.End()})
				carved = append(carved, d)
			}
		}
	}
	if len(moveFiles) > 0 {
		fail(fmt.Sprintf("no such files: %v", keys(moveFiles)))
	}
	// Methods of moved types go with them.
	movedTypes := map[types.Object]bool{}
	for _, o := range scopeObjects(pkg.Types) {
		if _, ok := o.(*types.TypeName); ok && in(fset, regions, o.Pos()) {
			movedTypes[o] = true
		}
	}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			recv := recvType(pkg.TypesInfo, fd)
			moved := in(fset, regions, fd.Pos())
			if recv != nil && movedTypes[recv] && !moved {
				regions = append(regions, region{fileOf[f], declStart(fd), fd.End()})
				carved = append(carved, fd)
			} else if recv != nil && !movedTypes[recv] && moved {
				fmt.Fprintf(os.Stderr, "stays: method %s.%s in a moved file: its type does not move\n", recv.Name(), fd.Name.Name)
				os.Exit(1)
			}
		}
	}
	isMoved := func(pos token.Pos) bool { return in(fset, regions, pos) }

	// Uses across the cut.
	rename := map[types.Object]string{}
	var upward []string
	for id, o := range pkg.TypesInfo.Uses {
		if o == nil || o.Pkg() != pkg.Types || o.Parent() == types.Universe {
			continue
		}
		if _, imp := o.(*types.PkgName); imp {
			continue
		}
		if _, local := o.(*types.Var); local && o.Parent() != nil && o.Parent() != pkg.Types.Scope() {
			continue // a local variable or parameter
		}
		from, def := isMoved(id.Pos()), isMoved(o.Pos())
		switch {
		case from && !def:
			upward = append(upward, fmt.Sprintf("%s: %s uses %s, which stays", fset.Position(id.Pos()), id.Name, o.Name()))
		case !from && def && !o.Exported():
			rename[o] = exported(o.Name())
		}
	}
	if len(upward) > 0 {
		sort.Strings(upward)
		fmt.Fprintln(os.Stderr, strings.Join(upward, "\n"))
		fail(fmt.Sprintf("%d uses from moved code of code that stays", len(upward)))
	}
	// Names the new package already has, to refuse clashes.
	taken := map[string]bool{}
	for _, o := range scopeObjects(pkg.Types) {
		if isMoved(o.Pos()) {
			taken[o.Name()] = true
		}
	}
	if existing, err := filepath.Glob(filepath.Join(destDir, "*.go")); err == nil && len(existing) > 0 {
		dp, err := packages.Load(&packages.Config{Dir: absRoot, Mode: packages.NeedTypes | packages.NeedName}, "./"+*to)
		if err == nil && len(dp) == 1 && dp[0].Types != nil {
			for _, n := range dp[0].Types.Scope().Names() {
				taken[n] = true
			}
		}
	}
	for o, n := range rename {
		if o.Parent() == pkg.Types.Scope() && taken[n] && n != o.Name() {
			fail(fmt.Sprintf("%s would be exported as %s, which the new package already has", o.Name(), n))
		}
		if v, ok := o.(*types.Var); ok && v.IsField() && v.Embedded() {
			fail(fmt.Sprintf("embedded field %s used across the cut", o.Name()))
		}
	}
	// A name the package that stays declares would hide the new
	// package's name where a use gets qualified.
	for id, o := range pkg.TypesInfo.Defs {
		if o != nil && id.Name == destName && !isMoved(id.Pos()) {
			fail(fmt.Sprintf("%s declares %s, the new package's name: pick another name", fset.Position(id.Pos()), destName))
		}
	}
	names := []string{}
	for o, n := range rename {
		names = append(names, o.Name()+"->"+n)
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "moving %d regions into %s; exporting %d names: %s\n", len(regions), destPath, len(names), strings.Join(names, " "))

	// Edits, per file.
	edits := map[string][]edit{}
	qualified := map[string]bool{}
	add := func(pos token.Pos, end token.Pos, text string) {
		p := fset.Position(pos)
		edits[p.Filename] = append(edits[p.Filename], edit{p.Offset, fset.Position(end).Offset, text})
	}
	selSel := map[*ast.Ident]bool{}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				selSel[s.Sel] = true
			}
			return true
		})
	}
	visit := func(id *ast.Ident, o types.Object) {
		if o == nil || o.Pkg() != pkg.Types {
			return
		}
		name := id.Name
		if n, ok := rename[o]; ok {
			name = n
		}
		if !isMoved(id.Pos()) && isMoved(o.Pos()) && o.Parent() == pkg.Types.Scope() && !selSel[id] {
			name = destName + "." + name
			qualified[fset.Position(id.Pos()).Filename] = true
		}
		if name != id.Name {
			add(id.Pos(), id.End(), name)
		}
	}
	for id, o := range pkg.TypesInfo.Defs {
		visit(id, o)
	}
	for id, o := range pkg.TypesInfo.Uses {
		visit(id, o)
	}
	// A renamed declaration's doc comment starts with its new name.
	for _, f := range pkg.Syntax {
		tf := fset.File(f.Pos())
		for id, o := range pkg.TypesInfo.Defs {
			n, ok := rename[o]
			if !ok || fset.File(id.Pos()) != tf {
				continue
			}
			line := tf.Line(id.Pos())
			for _, cg := range f.Comments {
				if tf.Line(cg.End()) != line-1 && !(tf.Line(cg.Pos()) == line && cg.Pos() > id.Pos()) {
					continue
				}
				c := cg.List[0]
				if strings.HasPrefix(c.Text, "// "+o.Name()+" ") {
					at := c.Pos() + token.Pos(len("// "))
					add(at, at+token.Pos(len(o.Name())), n)
				}
			}
		}
	}

	// Aliases for the exported names the old package had.
	var al bytes.Buffer
	for _, o := range scopeObjects(pkg.Types) {
		if !isMoved(o.Pos()) || !o.Exported() || isTestPos(fset, o.Pos()) {
			continue
		}
		switch o := o.(type) {
		case *types.TypeName:
			fmt.Fprintf(&al, "type %s = %s.%s\n\n", o.Name(), destName, o.Name())
		case *types.Const:
			fmt.Fprintf(&al, "const %s = %s.%s\n\n", o.Name(), destName, o.Name())
		case *types.Var:
			fmt.Fprintf(&al, "var %s = %s.%s\n\n", o.Name(), destName, o.Name())
		case *types.Func:
			fd := findFunc(pkg.Syntax, o)
			al.WriteString(wrapper(fset, fd, destName))
		}
	}

	if *dry {
		return
	}
	// Apply the edits to every file of the package, then split.
	newSrc := map[string][]byte{}
	for _, f := range pkg.Syntax {
		name := fileOf[f]
		b, err := os.ReadFile(name)
		if err != nil {
			fail(err.Error())
		}
		newSrc[name] = apply(b, edits[name])
	}
	// Carved declarations, cut from their files (offsets before the edits
	// shift them are mapped through a second pass: cut by position in
	// the edited text, found by re-applying edits to the region).
	var carvedText bytes.Buffer
	cuts := map[string][]edit{}
	for _, d := range carved {
		p, e := fset.Position(declStart(d)), fset.Position(d.End())
		orig, _ := os.ReadFile(p.Filename)
		end := e.Offset
		if end < len(orig) && orig[end] == '\n' {
			end++
		}
		var inside []edit
		for _, ed := range edits[p.Filename] {
			if ed.start >= p.Offset && ed.end <= end {
				inside = append(inside, edit{ed.start - p.Offset, ed.end - p.Offset, ed.text})
			}
		}
		carvedText.Write(apply(orig[p.Offset:end], inside))
		carvedText.WriteString("\n")
		cuts[p.Filename] = append(cuts[p.Filename], edit{p.Offset, end, ""})
	}
	// Recompute the files that lose carved declarations from the
	// original text: cuts and renames together.
	for name, cs := range cuts {
		orig, _ := os.ReadFile(name)
		var all []edit
		for _, ed := range edits[name] {
			inCut := false
			for _, c := range cs {
				if ed.start >= c.start && ed.end <= c.end {
					inCut = true
				}
			}
			if !inCut {
				all = append(all, ed)
			}
		}
		newSrc[name] = apply(orig, append(all, cs...))
	}
	if err := os.MkdirAll(destDir, 0o755); err != nil {
		fail(err.Error())
	}
	write := func(name string, b []byte, importDest bool) {
		if importDest {
			fs := token.NewFileSet()
			f, err := parserParse(fs, name, b)
			if err != nil {
				fail(fmt.Sprintf("%s: %v", name, err))
			}
			astutil.AddImport(fs, f, destPath)
			var buf bytes.Buffer
			if err := format.Node(&buf, fs, f); err != nil {
				fail(err.Error())
			}
			b = buf.Bytes()
		}
		out, err := imports.Process(name, b, &imports.Options{Comments: true, TabIndent: true, TabWidth: 8, FormatOnly: false})
		if err != nil {
			os.WriteFile(name+".broken", b, 0o644)
			fail(fmt.Sprintf("%s: %v", name, err))
		}
		if err := os.WriteFile(name, out, 0o644); err != nil {
			fail(err.Error())
		}
	}
	for _, f := range pkg.Syntax {
		name := fileOf[f]
		b := newSrc[name]
		if in(fset, regions, f.Pos()) && regionIsFile(regions, name, fset, f) {
			b = setPackage(b, destName)
			dest := filepath.Join(destDir, filepath.Base(name))
			write(dest, b, false)
			os.Remove(name)
			continue
		}
		if cuts[name] != nil || edits[name] != nil {
			write(name, b, qualified[name])
		}
	}
	if carvedText.Len() > 0 {
		dest := filepath.Join(destDir, *into)
		var head []byte
		if old, err := os.ReadFile(dest); err == nil {
			head = append(old, '\n')
		} else {
			head = []byte("package " + destName + "\n\n")
		}
		// The carved text keeps its own imports' names; the files they
		// came from list them: give the new file all of them and let
		// imports.Process drop what it does not use.
		var imps []string
		for _, d := range carved {
			for _, f := range pkg.Syntax {
				if f.Pos() <= d.Pos() && d.End() <= f.End() {
					for _, is := range f.Imports {
						imps = append(imps, is.Path.Value)
					}
				}
			}
		}
		slices.Sort(imps)
		imps = slices.Compact(imps)
		b := head
		if len(imps) > 0 && !bytes.Contains(head, []byte("import")) {
			b = append(b, "import (\n"+strings.Join(imps, "\n")+"\n)\n\n"...)
		}
		b = append(b, carvedText.Bytes()...)
		write(dest, b, false)
	}
	if al.Len() > 0 {
		name := *aliases
		if name == "" {
			name = destName + "_aliases.go"
		}
		dest := filepath.Join(srcDir, name)
		var b []byte
		if old, err := os.ReadFile(dest); err == nil {
			b = append(old, '\n')
		} else {
			b = []byte(fmt.Sprintf("package %s\n\n// The public names that moved to package %s,\n// kept here so that the package's clients compile unchanged.\n\n", pkg.Name, destName))
		}
		b = append(b, al.Bytes()...)
		write(dest, b, true)
	}
}

func regionIsFile(rs []region, name string, fset *token.FileSet, f *ast.File) bool {
	for _, r := range rs {
		if r.file == name && r.start == f.Pos() && r.end == f.End() {
			return true
		}
	}
	return false
}

func wrapper(fset *token.FileSet, fd *ast.FuncDecl, pkg string) string {
	var b strings.Builder
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			b.WriteString(c.Text + "\n")
		}
	}
	// Name unnamed parameters.
	var args []string
	i := 0
	variadic := false
	for _, fl := range fd.Type.Params.List {
		if len(fl.Names) == 0 {
			fl.Names = []*ast.Ident{ast.NewIdent(fmt.Sprintf("a%d", i))}
		}
		for _, n := range fl.Names {
			if n.Name == "_" {
				n.Name = fmt.Sprintf("a%d", i)
			}
			args = append(args, n.Name)
			i++
		}
		if _, ok := fl.Type.(*ast.Ellipsis); ok {
			variadic = true
		}
	}
	var sig bytes.Buffer
	format.Node(&sig, fset, &ast.FuncDecl{Name: fd.Name, Type: fd.Type})
	call := pkg + "." + fd.Name.Name + "(" + strings.Join(args, ", ")
	if variadic {
		call += "..."
	}
	call += ")"
	body := call
	if fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
		body = "return " + call
	}
	b.WriteString(sig.String() + " { " + body + " }\n\n")
	return b.String()
}

func findFunc(files []*ast.File, o types.Object) *ast.FuncDecl {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Pos() == o.Pos() {
				return fd
			}
		}
	}
	fail("no declaration of " + o.Name())
	return nil
}

func setPackage(b []byte, name string) []byte {
	fs := token.NewFileSet()
	f, err := parserParse(fs, "x.go", b)
	if err != nil {
		fail(err.Error())
	}
	p := fs.Position(f.Name.Pos()).Offset
	e := fs.Position(f.Name.End()).Offset
	return append(append(append([]byte{}, b[:p]...), name...), b[e:]...)
}

func apply(b []byte, es []edit) []byte {
	es = slices.Clone(es)
	sort.Slice(es, func(i, j int) bool { return es[i].start > es[j].start })
	out := slices.Clone(b)
	last := len(out) + 1
	for _, e := range es {
		if e.end > last {
			continue // overlapping (a duplicate); the later one was applied
		}
		out = append(out[:e.start], append([]byte(e.text), out[e.end:]...)...)
		last = e.start
	}
	return out
}

func declNamed(d ast.Decl, names map[string]bool) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Recv == nil && names[d.Name.Name]
	case *ast.GenDecl:
		hit, all := false, true
		for _, s := range d.Specs {
			var ns []string
			switch s := s.(type) {
			case *ast.TypeSpec:
				ns = []string{s.Name.Name}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					ns = append(ns, n.Name)
				}
			}
			for _, n := range ns {
				if names[n] {
					hit = true
				} else {
					all = false
				}
			}
		}
		if hit && !all {
			fail(fmt.Sprintf("a declaration group holds names to carve and names to keep: %v", d.Specs))
		}
		return hit
	}
	return false
}

func declStart(d ast.Decl) token.Pos {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			return d.Doc.Pos()
		}
	}
	return d.Pos()
}

func recvType(info *types.Info, fd *ast.FuncDecl) types.Object {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return info.Uses[id]
	}
	return nil
}

func in(fset *token.FileSet, rs []region, pos token.Pos) bool {
	for _, r := range rs {
		if r.start <= pos && pos < r.end {
			return true
		}
	}
	return false
}

func isTestPos(fset *token.FileSet, pos token.Pos) bool {
	return strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
}

func scopeObjects(p *types.Package) []types.Object {
	var out []types.Object
	for _, n := range p.Scope().Names() {
		out = append(out, p.Scope().Lookup(n))
	}
	return out
}

func exported(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			m[x] = true
		}
	}
	return m
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mustRel(a, b string) string {
	r, err := filepath.Rel(a, b)
	if err != nil {
		fail(err.Error())
	}
	return r
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "layermove:", msg)
	os.Exit(1)
}
