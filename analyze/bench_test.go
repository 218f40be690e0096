package analyze_test

import (
	"bytes"
	"errors"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/corpus"
)

// The analysis sits in front of every command an agent runs, so its cost
// is measured against the floor any AST-based tool pays: parsing the same
// commands. BenchmarkParse and BenchmarkAnalyze run over the whole corpus;
// compare their ns/op (goal: analysis at most 2x the bare parse).

func corpusInputs(b *testing.B) []input { return inputs(b, false) }

// Most commands an agent runs are clean; these measure that common case.
func cleanInputs(b *testing.B) []input { return inputs(b, true) }

// input is a corpus command with its shell: the parse of the baseline is
// that shell's syntax (bash's where mvdan.cc/sh needs it, like dash's &>).
type input struct {
	src     []byte
	lang    analyze.Lang
	variant syntax.LangVariant
}

func inputs(b *testing.B, cleanOnly bool) []input {
	var in []input
	for _, e := range corpus.Load() {
		if cleanOnly && len(e.Rules) > 0 {
			continue
		}
		lang, err := analyze.ParseLang(e.Shell)
		if err != nil {
			b.Fatal(err)
		}
		v := map[string]syntax.LangVariant{"bash": syntax.LangBash, "zsh": syntax.LangZsh, "dash": syntax.LangPOSIX, "mksh": syntax.LangMirBSDKorn}[e.Shell]
		if _, err := syntax.NewParser(syntax.Variant(v)).Parse(bytes.NewReader([]byte(e.Cmd)), ""); err != nil {
			v = syntax.LangBash
			if _, err := syntax.NewParser(syntax.Variant(v)).Parse(bytes.NewReader([]byte(e.Cmd)), ""); err != nil {
				// No parser takes it as written (zsh's `server &; sleep
				// 1`, which the analysis rereads): there is no bare parse
				// to hold it against, so neither benchmark has it.
				continue
			}
		}
		in = append(in, input{[]byte(e.Cmd), lang, v})
	}
	if len(in) == 0 {
		b.Fatal("empty corpus")
	}
	return in
}

func BenchmarkParse(b *testing.B)      { benchParse(b, corpusInputs(b)) }
func BenchmarkParseClean(b *testing.B) { benchParse(b, cleanInputs(b)) }

func benchParse(b *testing.B, in []input) {
	ps := map[syntax.LangVariant]*syntax.Parser{}
	for _, v := range []syntax.LangVariant{syntax.LangBash, syntax.LangZsh, syntax.LangPOSIX, syntax.LangMirBSDKorn} {
		ps[v] = syntax.NewParser(syntax.KeepComments(true), syntax.Variant(v))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, x := range in {
			if _, err := ps[x.variant].Parse(bytes.NewReader(x.src), ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAnalyze(b *testing.B)      { benchAnalyze(b, corpusInputs(b)) }
func BenchmarkAnalyzeClean(b *testing.B) { benchAnalyze(b, cleanInputs(b)) }

func benchAnalyze(b *testing.B, in []input) {
	opts := map[analyze.Lang][]analyze.Option{}
	for _, x := range in {
		opts[x.lang] = []analyze.Option{analyze.WithLang(x.lang)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, x := range in {
			// A command its shell rejects (dash given bash's arrays) ends
			// in a ParseError naming the shell that takes it: that is the
			// analysis's answer, found by parsing it twice, as the bare
			// parse above does when it falls back to bash.
			var pe *analyze.ParseError
			if _, err := analyze.Analyze(x.src, opts[x.lang]...); err != nil && !errors.As(err, &pe) {
				b.Fatal(err)
			}
		}
	}
}
