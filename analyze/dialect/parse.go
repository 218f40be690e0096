package dialect

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze/diag"
	"mvdan.cc/sh/v3/syntax"
)

// Parse parses src as lang with a pooled parser, and places its errors by
// byte offset (see parseError).
func Parse(src []byte, lang syntax.LangVariant) (*syntax.File, error) {
	pp := ParserPool(lang)
	pr := pp.Get().(*PooledParser)
	pr.r.Reset(src)
	f, err := pr.P.Parse(&pr.r, "")
	pr.r.Reset(nil)
	pp.Put(pr)
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, parseError(src, pe.Pos, pe.Text)
		}
		var le syntax.LangError
		if errors.As(err, &le) {
			return nil, parseError(src, le.Pos, strings.TrimPrefix(le.Error(), le.Pos.String()+": "))
		}
		return nil, &diag.ParseError{Line: 1, Col: 1, Msg: err.Error(), Offset: -1, Src: src}
	}
	return f, nil
}

// Parsers are reused: a new one allocates more than parsing a typical
// one-liner does.
var parserPools [4]sync.Pool

func ParserPool(lang syntax.LangVariant) *sync.Pool {
	i := 0
	switch lang {
	case syntax.LangPOSIX:
		i = 1
	case syntax.LangMirBSDKorn:
		i = 2
	case syntax.LangZsh:
		i = 3
	}
	// Always through the Once: reading pp.New first to skip it raced with
	// the goroutine setting it (two analyses starting together, as the
	// language server's and the linter's inputs do; go test -race).
	parserPoolsInit.Do(func() {
		for i, l := range []syntax.LangVariant{syntax.LangBash, syntax.LangPOSIX, syntax.LangMirBSDKorn, syntax.LangZsh} {
			parserPools[i].New = func() any {
				return &PooledParser{P: syntax.NewParser(syntax.Variant(l), syntax.KeepComments(true))}
			}
		}
	})
	return &parserPools[i]
}

var parserPoolsInit sync.Once

// PooledParser keeps a reader with its parser, so parsing allocates neither.
type PooledParser struct {
	P *syntax.Parser
	r bytes.Reader
}

// parseError places a parser error by its byte offset: the parser's own
// line and column saturate on very long lines.
func parseError(src []byte, pos syntax.Pos, msg string) *diag.ParseError {
	off := int(pos.Offset())
	if !pos.IsValid() || off > len(src) {
		return &diag.ParseError{Line: max(int(pos.Line()), 1), Col: max(int(pos.Col()), 1), Msg: msg, Offset: -1, Src: src}
	}
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return &diag.ParseError{Line: line, Col: col, Msg: msg, Offset: off, Src: src}
}
