package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/shguard/shguard/analyze"
)

// githubFormat writes GitHub Actions workflow commands, one line per
// finding, which the runner turns into annotations on the pull request:
//
//	::error file=a.sh,line=1,col=1,endLine=1,endColumn=9,title=SG1002::message
//
// Escaping follows the runner's own rules (actions/toolkit, command.ts):
// data escapes %, CR and LF; property values also escape ':' and ','.
type githubFormat struct{}

func githubLevel(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "error"
	case analyze.Warning:
		return "warning"
	}
	return "notice"
}

func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func (githubFormat) add(w io.Writer, name string, _ []byte, fs []analyze.Finding) {
	for _, f := range fs {
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			githubLevel(f.Severity), githubProperty(name), f.Start.Line, f.Start.Col,
			f.End.Line, f.End.Col, githubProperty(f.Rule), githubData(oneLine(f.Message)))
	}
}
func (githubFormat) flush(io.Writer) {}
