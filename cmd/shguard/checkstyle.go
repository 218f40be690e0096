package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/shguard/shguard/analyze"
)

// checkstyleFormat writes Checkstyle XML, the shape ShellCheck's -f
// checkstyle writes and reviewdog, Jenkins' Warnings plugin and GitLab's
// converters read: one <file> per input with findings, one <error> per
// finding whose source is "shguard.SGxxxx".
type checkstyleFormat struct{ b strings.Builder }

func checkstyleSeverity(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "error"
	case analyze.Warning:
		return "warning"
	}
	return "info"
}

// attr is s escaped for an XML attribute value in double quotes, byte for
// byte as encoding/xml's EscapeText writes it: &, <, >, quotes, tab, LF and
// CR as references, and what XML cannot hold (control characters, invalid
// UTF-8) as U+FFFD. It is written here rather than imported because every
// package the binary links is initialised at every start, the hook's too,
// and encoding/xml's initialisation is among the dearer ones.
func attr(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if xmlChar(r) && !(r == utf8.RuneError && width == 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
	return b.String()
}

// xmlChar reports whether XML 1.0 allows r in a document (its Char
// production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

func (c *checkstyleFormat) add(_ io.Writer, name string, _ []byte, fs []analyze.Finding) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(&c.b, "<file name=\"%s\">\n", attr(name))
	for _, f := range fs {
		fmt.Fprintf(&c.b, "<error line=\"%d\" column=\"%d\" severity=\"%s\" message=\"%s\" source=\"shguard.%s\"/>\n",
			f.Start.Line, f.Start.Col, checkstyleSeverity(f.Severity), attr(oneLine(f.Message)), attr(f.Rule))
	}
	c.b.WriteString("</file>\n")
}

func (c *checkstyleFormat) flush(w io.Writer) {
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n%s</checkstyle>\n", c.b.String())
}
