package main

import (
	"go/ast"
	"go/parser"
	"go/token"
)

func parserParse(fs *token.FileSet, name string, b []byte) (*ast.File, error) {
	return parser.ParseFile(fs, name, b, parser.ParseComments)
}
