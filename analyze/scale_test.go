package analyze

import (
	"bytes"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func benchScale(b *testing.B, n int, parseOnly bool) {
	src := []byte(strings.Repeat("cd /tmp && sleep 5 &\n", n))
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if parseOnly {
			syntax.NewParser(syntax.KeepComments(true)).Parse(bytes.NewReader(src), "")
		} else {
			Analyze(src)
		}
	}
}

func BenchmarkScaleParse50k(b *testing.B)    { benchScale(b, 50000, true) }
func BenchmarkScaleParse200k(b *testing.B)   { benchScale(b, 200000, true) }
func BenchmarkScaleAnalyze50k(b *testing.B)  { benchScale(b, 50000, false) }
func BenchmarkScaleAnalyze200k(b *testing.B) { benchScale(b, 200000, false) }
