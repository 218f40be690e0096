package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"shguard": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// The CLI's behaviour, one txtar per format and per hook case.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gccre":      checkGCC,
			"sarifcheck": checkSARIF,
			"jsonpath":   checkJSONPath,
			"status":     checkStatus,
		},
		RequireExplicitExec: true,
	})
}

// status N PROG ARGS...: runs PROG like exec and checks that it exits N;
// stdout and stderr are kept for the commands after it.
func checkStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N prog [args...]")
	}
	err := ts.Exec(args[1], args[2:]...)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if fmt.Sprint(code) != args[0] {
		ts.Fatalf("exit status %d, want %s", code, args[0])
	}
}

// gccre FILE: every line of FILE matches the regexp editors use for gcc
// output; the count of lines must be at least 1.
func checkGCC(ts *testscript.TestScript, neg bool, args []string) {
	re := regexp.MustCompile(`^(.+):(\d+):(\d+): (error|warning|note): (.*) \[(SG\d{4})\]$`)
	lines := strings.Split(strings.TrimSuffix(ts.ReadFile(args[0]), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		ts.Fatalf("no gcc lines")
	}
	for _, l := range lines {
		if !re.MatchString(l) {
			ts.Fatalf("line %q does not match the gcc regexp", l)
		}
	}
}

// sarifcheck FILE N: FILE is SARIF 2.1.0 with the rule metadata and N
// results, each with a physical location whose region is in range.
func checkSARIF(ts *testscript.TestScript, neg bool, args []string) {
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID, Name, HelpURI string
						ShortDescription  struct{ Text string }  `json:"shortDescription"`
						FullDescription   struct{ Text string }  `json:"fullDescription"`
						Default           struct{ Level string } `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct {
							StartLine, StartColumn, EndLine, EndColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &log); err != nil {
		ts.Fatalf("not JSON: %v", err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-schema-2.1.0.json") || len(log.Runs) != 1 {
		ts.Fatalf("version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if run.Tool.Driver.Name != "shguard" || len(rules) == 0 {
		ts.Fatalf("driver %q with %d rules", run.Tool.Driver.Name, len(rules))
	}
	for _, r := range rules {
		if r.ID == "" || r.Name == "" || r.ShortDescription.Text == "" || r.FullDescription.Text == "" ||
			!strings.HasPrefix(r.HelpURI, "https://") || r.Default.Level == "" {
			ts.Fatalf("rule %+v lacks metadata", r)
		}
	}
	var n int
	fmt.Sscan(args[1], &n)
	if len(run.Results) != n {
		ts.Fatalf("%d results, want %d", len(run.Results), n)
	}
	for _, r := range run.Results {
		if r.RuleIndex < 0 || r.RuleIndex >= len(rules) || rules[r.RuleIndex].ID != r.RuleID {
			ts.Fatalf("result %s has ruleIndex %d", r.RuleID, r.RuleIndex)
		}
		if r.Level != "error" && r.Level != "warning" && r.Level != "note" || r.Message.Text == "" || len(r.Locations) != 1 {
			ts.Fatalf("result %+v", r)
		}
		pl := r.Locations[0].PhysicalLocation
		g := pl.Region
		if pl.ArtifactLocation.URI == "" || g.StartLine < 1 || g.StartColumn < 1 || g.EndLine < g.StartLine ||
			(g.EndLine == g.StartLine && g.EndColumn <= g.StartColumn) {
			ts.Fatalf("result %s has location %+v", r.RuleID, pl)
		}
	}
}

// jsonpath FILE PATH WANT: the JSON value at PATH (dot-separated keys and
// indexes) encodes as WANT.
func checkJSONPath(ts *testscript.TestScript, neg bool, args []string) {
	var v any
	dec := json.NewDecoder(bytes.NewReader([]byte(ts.ReadFile(args[0]))))
	if err := dec.Decode(&v); err != nil {
		ts.Fatalf("not JSON: %v", err)
	}
	for _, k := range strings.Split(args[1], ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				ts.Fatalf("no index %s in %v", k, x)
			}
			v = x[i]
		default:
			ts.Fatalf("cannot index %v with %s", v, k)
		}
	}
	got := canonicalJSON(ts, v)
	var w any
	if err := json.Unmarshal([]byte(args[2]), &w); err != nil {
		ts.Fatalf("want %s is not JSON: %v", args[2], err)
	}
	want := canonicalJSON(ts, w)
	if (got == want) == neg {
		ts.Fatalf("%s = %s, want %s%s", args[1], got, map[bool]string{true: "not "}[neg], want)
	}
}

// canonicalJSON encodes a decoded value with sorted keys.
func canonicalJSON(ts *testscript.TestScript, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		ts.Fatalf("%v", err)
	}
	return strings.TrimSpace(b.String())
}
