package main

import (
	"bytes"
	"testing"

	"github.com/shguard/shguard/analyze"
)

// A file name with ',' or ':' would otherwise end the property early, and a
// newline in the message would end the command.
func TestGithubEscaping(t *testing.T) {
	var b bytes.Buffer
	f := analyze.Finding{Rule: "SG2001", Severity: analyze.Info,
		Start: analyze.Position{Line: 2, Col: 3}, End: analyze.Position{Line: 2, Col: 9},
		Message: "50% done"}
	githubFormat{}.add(&b, "dir,x/a:b.sh", nil, []analyze.Finding{f})
	want := "::notice file=dir%2Cx/a%3Ab.sh,line=2,col=3,endLine=2,endColumn=9,title=SG2001::50%25 done\n"
	if b.String() != want {
		t.Fatalf("got  %q\nwant %q", b.String(), want)
	}
}
