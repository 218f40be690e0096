// Package findingjson is the JSON shape of findings that `shguard -f json`
// prints. It is its own package because the playground (WebAssembly) must
// print the same bytes as the CLI for the same input: both encode through
// here.
package findingjson

import (
	"encoding/json"
	"io"

	"github.com/shguard/shguard/analyze"
)

// Finding is one element of -f json.
type Finding struct {
	File        string        `json:"file"`
	Rule        string        `json:"rule"`
	Name        string        `json:"name"`
	Severity    string        `json:"severity"`
	Line        int           `json:"line"`
	Column      int           `json:"column"`
	EndLine     int           `json:"end_line"`
	EndColumn   int           `json:"end_column"`
	StartOffset int           `json:"start_offset"`
	EndOffset   int           `json:"end_offset"`
	Message     string        `json:"message"`
	Suggestion  string        `json:"suggestion,omitempty"`
	URL         string        `json:"url"`
	Fixes       []analyze.Fix `json:"fixes"`
}

// Append appends the findings of the file called name to out.
func Append(out []Finding, name string, fs []analyze.Finding) []Finding {
	for _, f := range fs {
		jf := Finding{
			File: name, Rule: f.Rule, Severity: f.Severity.String(),
			Line: f.Start.Line, Column: f.Start.Col, EndLine: f.End.Line, EndColumn: f.End.Col,
			StartOffset: f.Start.Offset, EndOffset: f.End.Offset,
			Message: f.Message, Suggestion: f.Suggestion, Fixes: f.Fixes,
		}
		if jf.Fixes == nil {
			jf.Fixes = []analyze.Fix{}
		}
		if r := analyze.Lookup(f.Rule); r != nil {
			jf.Name, jf.URL = r.Name, r.URL()
		}
		out = append(out, jf)
	}
	return out
}

// Write writes v indented, without HTML escaping (shell is full of & and
// <).
func Write(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain data is encoded
	}
}
