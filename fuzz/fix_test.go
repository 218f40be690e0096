package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// maxInput bounds what the fuzz targets look at: the properties do not get
// more interesting with size, only slower.
const maxInput = 4 << 10

func FuzzFix(f *testing.F) {
	fuzz(f, func(t *testing.T, src []byte) { checkFix(t, src, analyze.StyleExec) })
}

func FuzzFixBrace(f *testing.F) {
	fuzz(f, func(t *testing.T, src []byte) { checkFix(t, src, analyze.StyleBrace) })
}

// fuzz runs check on every input the fuzzer makes from the shared seeds, up
// to maxInput bytes, under the watchdog.
func fuzz(f *testing.F, check func(t *testing.T, src []byte)) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > maxInput {
			return
		}
		defer watchdog(src)()
		check(t, []byte(src))
	})
}

// watchdog turns an input that takes far too long into a crash with the
// stacks of every goroutine, so that the fuzzer records it: Go's fuzzer
// has no per-input timeout of its own.
func watchdog(src string) (stop func()) {
	t := time.AfterFunc(20*time.Second, func() {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		panic(fmt.Sprintf("input %q took over 20s:\n%s", src, buf[:n]))
	})
	return func() { t.Stop() }
}

// insertions are the only texts a fix of each style may add.
var insertions = map[analyze.Style][]string{
	analyze.StyleExec:  {"exec "},
	analyze.StyleBrace: {"exec ", "{ ", " }", " };", " } "},
}

// checkFix holds the rewriter's invariants on one source in one style.
func checkFix(t *testing.T, src []byte, style analyze.Style) {
	t.Helper()
	opt := analyze.WithStyle(style)
	res, err := analyze.Run(src, opt)
	fixed, ferr := rewrite.Fix(src, opt)
	if err != nil {
		var pe *analyze.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("analyze.Run: %v is not a *ParseError", err)
		}
		if !errors.As(ferr, &pe) || fixed != nil {
			t.Fatalf("Fix of unparseable %q: %v, %v; want the ParseError and no result", src, fixed, ferr)
		}
		return
	}
	if ferr != nil {
		t.Fatalf("Fix(%q): %v, but it parses", src, ferr)
	}

	// Each fix on its own: only allowed insertions, the result parses, and
	// the finding it claims to remove is gone from its statement.
	for _, fd := range res.Findings {
		for _, fx := range fd.Fixes {
			checkOneFix(t, src, style, fd, fx)
		}
	}

	out := fixed.Out
	// The fixed output parses and is a fixpoint.
	again, err := rewrite.Fix(out, opt)
	if err != nil {
		t.Fatalf("fixed output of %q does not parse: %q: %v", src, out, err)
	}
	if !bytes.Equal(again.Out, out) || len(again.Applied) > 0 {
		t.Fatalf("fixing twice differs from fixing once:\nsrc   %q\nonce  %q\ntwice %q", src, out, again.Out)
	}
	for _, r := range fixed.Remaining {
		if len(r.Fixes) > 0 {
			t.Fatalf("Fix(%q) left a finding with a fix: %v", src, r)
		}
	}
	if len(fixed.Applied) == 0 && !bytes.Equal(out, src) {
		t.Fatalf("Fix(%q) changed the source to %q but applied nothing", src, out)
	}
	// Nothing but insertions: the source is a subsequence of the output.
	if !subsequence(src, out) {
		t.Fatalf("Fix(%q) = %q drops or changes bytes of the source", src, out)
	}
	// In the exec style, the same statements run in the background: the
	// inserted exec changes what a job's subshell becomes, never which
	// statements are jobs.
	if style == analyze.StyleExec {
		if a, b := backgrounds(t, src), backgrounds(t, out); a != b {
			t.Fatalf("exec fix changed which statements run in the background:\nsrc %q: %s\nout %q: %s", src, a, out, b)
		}
	}
	// The same commands, in the same order.
	a, b := commandNames(t, src), commandNames(t, out)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("Fix changed the commands:\nsrc %q: %q\nout %q: %q", src, a, out, b)
	}
}

func checkOneFix(t *testing.T, src []byte, style analyze.Style, fd analyze.Finding, fx analyze.Fix) {
	t.Helper()
	if len(fx.Edits) == 0 {
		t.Fatalf("%v on %q has a fix without edits", fd, src)
	}
	for _, e := range fx.Edits {
		if e.Start != e.End || !allowed(style, e.New) {
			t.Fatalf("%s fix of %v on %q has edit %+v: not one of the insertions %q", style, fd, src, e, insertions[style])
		}
		if e.Start < fd.Start.Offset || e.Start > fd.End.Offset {
			t.Fatalf("fix of %v on %q edits outside the finding: %+v", fd, src, e)
		}
	}
	out, err := rewrite.Apply(src, fx.Edits)
	if err != nil {
		t.Fatalf("fix of %v on %q does not apply: %v", fd, src, err)
	}
	res, err := analyze.Run(out, analyze.WithStyle(style))
	if err != nil {
		t.Fatalf("fix of %v turns %q into %q, which does not parse: %v", fd, src, out, err)
	}
	lo, hi := mapped(fd.Start.Offset, fx.Edits)
	for _, g := range res.Findings {
		if g.Rule == fd.Rule && g.Start.Offset >= lo && g.Start.Offset <= hi {
			t.Fatalf("fix of %v turns %q into %q, which still has %v", fd, src, out, g)
		}
	}
}

func allowed(style analyze.Style, s string) bool {
	for _, a := range insertions[style] {
		if s == a {
			return true
		}
	}
	return false
}

// mapped carries an offset of the source over insertions: lo if an
// insertion at the offset goes after it, hi if before.
func mapped(off int, edits []analyze.Edit) (lo, hi int) {
	lo, hi = off, off
	for _, e := range edits {
		if e.Start < off {
			lo += len(e.New)
			hi += len(e.New)
		} else if e.Start == off {
			hi += len(e.New)
		}
	}
	return lo, hi
}

func subsequence(a, b []byte) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// commandNames lists the simple commands of a source in source order, by
// their name word as written, looking through a leading exec (which the
// exec fix inserts). The code of `bash -c '…'` and eval strings is listed
// too, as far as it parses, so that a fix inside one is checked as well.
func commandNames(t *testing.T, src []byte) []string {
	t.Helper()
	f := parseAsBash(t, src)
	var names []string
	var walk func(n syntax.Node, depth int)
	walk = func(n syntax.Node, depth int) {
		syntax.Walk(n, func(n syntax.Node) bool {
			ce, ok := n.(*syntax.CallExpr)
			if !ok || len(ce.Args) == 0 {
				return true
			}
			args := ce.Args
			if args[0].Lit() == "exec" && len(args) > 1 {
				args = args[1:]
			}
			names = append(names, wordText(args[0]))
			if depth < 3 {
				for _, a := range args[1:] {
					if code, ok := quotedCode(a); ok && strings.ContainsAny(code, ";&|\n") {
						if nf, err := syntax.NewParser().Parse(strings.NewReader(code), ""); err == nil {
							names = append(names, "<<")
							walk(nf, depth+1)
							names = append(names, ">>")
						}
					}
				}
			}
			return true
		})
	}
	walk(f, 0)
	return names
}

// wordText is a name word as written, or "<expansion>" for one that runs
// code ($(…), <(…)): the commands inside are listed on their own.
func wordText(w *syntax.Word) string {
	code := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			code = true
		}
		return !code
	})
	if code {
		return "<expansion>"
	}
	var b strings.Builder
	syntax.NewPrinter().Print(&b, w)
	return b.String()
}

// quotedCode returns the content of a word that is one quoted string.
func quotedCode(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.SglQuoted:
		return p.Value, !p.Dollar
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			if l, ok := p.Parts[0].(*syntax.Lit); ok {
				return l.Value, true
			}
		}
	}
	return "", false
}

// backgrounds lists, for every statement in walk order, whether it runs in
// the background (and as a coprocess).
func backgrounds(t *testing.T, src []byte) string {
	t.Helper()
	f := parseAsBash(t, src)
	var b strings.Builder
	syntax.Walk(f, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok {
			switch {
			case s.Background:
				b.WriteByte('&')
			case s.Coprocess:
				b.WriteByte('c')
			default:
				b.WriteByte('.')
			}
		}
		return true
	})
	return b.String()
}

// parseAsBash parses src the way the analyzer reads bash (which accepts a
// few things mvdan.cc/sh rejects, like the lone ! of `cmd &!`).
func parseAsBash(t *testing.T, src []byte) *syntax.File {
	t.Helper()
	res, err := analyze.Run(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return res.File
}
