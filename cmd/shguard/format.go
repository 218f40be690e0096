package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/findingjson"
)

// A formatter writes findings. Streaming formats write in add; document
// formats (json, sarif) collect and write once in flush.
type formatter interface {
	add(w io.Writer, name string, src []byte, fs []analyze.Finding)
	flush(w io.Writer)
}

// newFormatter returns the format called name; color applies to text.
func newFormatter(name string, color bool) (formatter, bool) {
	switch name {
	case "text":
		return textFormat{color: color}, true
	case "gcc":
		return gccFormat{}, true
	case "json":
		return &jsonFormat{out: []findingjson.Finding{}}, true
	case "sarif":
		wd, _ := os.Getwd() // "" (absolute URIs only) if it cannot be had
		return &sarifFormat{wd: wd}, true
	case "github":
		return githubFormat{}, true
	case "checkstyle":
		return &checkstyleFormat{}, true
	case "diff", "quiet": // diff is written by the linter itself
		return quietFormat{}, true
	}
	return nil, false
}

type quietFormat struct{}

func (quietFormat) add(io.Writer, string, []byte, []analyze.Finding) {}
func (quietFormat) flush(io.Writer)                                  {}

// oneLine keeps a message on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// gccFormat: file:line:col: error|warning|note: message [SGxxxx], the
// shape compilers print and editors parse.
type gccFormat struct{}

func gccSeverity(s analyze.Severity) string {
	if s == analyze.Info {
		return "note"
	}
	return s.String()
}

func (gccFormat) add(w io.Writer, name string, _ []byte, fs []analyze.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", name, f.Start.Line, f.Start.Col, gccSeverity(f.Severity), oneLine(f.Message), f.Rule)
	}
}
func (gccFormat) flush(io.Writer) {}

// textFormat is gcc's line with the severity's own name, then the source
// line with a caret under the finding, then the fix or suggestion.
type textFormat struct{ color bool }

func (t textFormat) add(w io.Writer, name string, src []byte, fs []analyze.Finding) {
	for _, f := range fs {
		sev := severityColor(f.Severity)
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", name, f.Start.Line, f.Start.Col, paint(t.color, sev, f.Severity.String()), oneLine(f.Message), f.Rule)
		line, caret := excerpt(src, f)
		if line != "" || caret != "" {
			fmt.Fprintf(w, "    %s\n    %s\n", line, paint(t.color, sev, caret))
		}
		if len(f.Fixes) > 0 {
			fmt.Fprintf(w, "    %s %s\n", paint(t.color, sgrFix, "fix (--fix):"), oneLine(f.Fixes[0].Message))
		} else if f.Suggestion != "" {
			fmt.Fprintf(w, "    %s %s\n", paint(t.color, sgrFix, "suggestion:"), oneLine(f.Suggestion))
		}
	}
}
func (textFormat) flush(io.Writer) {}

// window is how much of a long line the excerpt shows.
const window = 120

// excerpt returns the finding's first line as displayed (control bytes as
// '?', long lines cut around the finding) and the caret line under it:
// '^' at the start, '~' to the end of the finding on that line.
func excerpt(src []byte, f analyze.Finding) (string, string) {
	start := f.Start.Offset
	if start < 0 || start > len(src) {
		return "", ""
	}
	ls := bytes.LastIndexByte(src[:start], '\n') + 1
	le := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		le = start + i
	}
	end := min(max(f.End.Offset, start+1), le)
	from, to := ls, le
	if to-from > window {
		from = max(ls, start-window/3)
		to = min(le, from+window)
	}
	var line, caret strings.Builder
	if from > ls {
		line.WriteString("...")
		caret.WriteString("   ")
	}
	for i := from; i < to; {
		r, n := utf8.DecodeRune(src[i:])
		switch {
		case r == '\t':
			line.WriteByte('\t')
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f:
			line.WriteByte('?')
		default:
			line.Write(src[i : i+n])
		}
		switch {
		case i < start && r == '\t':
			caret.WriteByte('\t')
		case i < start:
			caret.WriteByte(' ')
		case i == start:
			caret.WriteByte('^')
		case i < end:
			caret.WriteByte('~')
		}
		i += n
	}
	if start >= to { // the finding starts at the end of its line
		caret.WriteByte('^')
	}
	if to < le {
		line.WriteString("...")
	}
	return line.String(), caret.String()
}

type jsonFormat struct{ out []findingjson.Finding }

func (j *jsonFormat) add(_ io.Writer, name string, _ []byte, fs []analyze.Finding) {
	j.out = findingjson.Append(j.out, name, fs)
}

func (j *jsonFormat) flush(w io.Writer) { writeJSON(w, j.out) }

// writeJSON writes v as -f json does (findingjson.Write).
func writeJSON(w io.Writer, v any) { findingjson.Write(w, v) }
