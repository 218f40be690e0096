package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

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

// attr is s escaped for an XML attribute value in double quotes.
func attr(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // &, <, >, quotes, and CR/LF/tab as character references
	return b.String()
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
