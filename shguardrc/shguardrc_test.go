package shguardrc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/shguard/shguard/analyze"
)

func TestParse(t *testing.T) {
	c, err := Parse([]byte("# defaults\n\nseverity = warning # CI gate\nexclude=SG2001, foreground-server\ndisable=sg2004\ninclude=SG1001\nstyle=brace\nshell=sh\ncaller=group\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Severity != analyze.Warning {
		t.Errorf("severity %v", c.Severity)
	}
	if diff := cmp.Diff([]string{"SG2001", "SG3001", "SG2004"}, c.Exclude); diff != "" {
		t.Errorf("exclude (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"SG1001"}, c.Include); diff != "" {
		t.Errorf("include (-want +got):\n%s", diff)
	}
	if c.Style == nil || *c.Style != analyze.StyleBrace || c.Lang == nil || *c.Lang != analyze.LangPOSIX {
		t.Errorf("style %v lang %v", c.Style, c.Lang)
	}
	if c.Caller == nil || *c.Caller != analyze.CallerInGroup {
		t.Errorf("caller %v", c.Caller)
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"severity=loud":         "1: unknown severity",
		"\nexclude=SG9999":      "2: unknown rule",
		"colour=red":            "1: unknown key",
		"just words":            "1: \"just words\" is not key=value",
		"style=pretty":          "1: unknown fix style",
		"lang=fish":             "1: unknown shell",
		"caller=boss":           "1: unknown caller",
		"include=SG1001,nohupp": "1: unknown rule \"nohupp\"",
	} {
		_, err := Parse([]byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error starting with %q", src, err, want)
		}
	}
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err != nil || (p != "" && strings.HasPrefix(p, root)) {
		t.Fatalf("Find with no rc = %q, %v", p, err)
	}
	rc := filepath.Join(root, "a", Name)
	if err := os.WriteFile(rc, []byte("severity=error\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Find(deep)
	if err != nil || p != rc {
		t.Fatalf("Find = %q, %v; want %q", p, err, rc)
	}
	c, err := Load(p)
	if err != nil || c.Severity != analyze.Error || c.Path != rc {
		t.Fatalf("Load = %+v, %v", c, err)
	}
	// A directory named .shguardrc is not a config file.
	if err := os.Mkdir(filepath.Join(deep, Name), 0o755); err != nil {
		t.Fatal(err)
	}
	if p, _ := Find(deep); p != rc {
		t.Errorf("Find = %q, want %q past the directory", p, rc)
	}
	if err := os.WriteFile(rc, []byte("severity=loud\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(rc); err == nil || !strings.HasPrefix(err.Error(), rc+":1: ") {
		t.Errorf("Load error %v lacks the path and line", err)
	}
}

func TestServers(t *testing.T) {
	c, err := Parse([]byte("servers = run-dev, ./bin/watch\n"))
	if err != nil || len(c.Servers) != 2 || c.Servers[0] != "run-dev" || c.Servers[1] != "./bin/watch" {
		t.Fatalf("%+v %v", c, err)
	}
}
