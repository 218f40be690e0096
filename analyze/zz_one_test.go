package analyze_test

import (
	"bytes"
	"mvdan.cc/sh/v3/syntax"
	"os"
	"testing"

	"github.com/shguard/shguard/analyze"
)

func BenchmarkZZOne(b *testing.B) {
	src := []byte(os.Getenv("ZZ"))
	for i := 0; i < b.N; i++ {
		analyze.Analyze(src)
	}
}

func BenchmarkZZParse(b *testing.B) {
	src := []byte(os.Getenv("ZZ"))
	p := syntax.NewParser(syntax.KeepComments(true))
	for i := 0; i < b.N; i++ {
		p.Parse(bytes.NewReader(src), "")
	}
}
