package analyze_test

import (
	"fmt"

	"github.com/shguard/shguard/analyze"
)

// An agent tool layer analyzes a command before it runs it, and decides by
// the verdict: Error means the tool would hang waiting for output (fix,
// promote or refuse the command), Warning that something outlives the
// shell unmanaged.
func ExampleAnalyze() {
	cmd := "cd app && npm run dev &"
	findings, err := analyze.Analyze([]byte(cmd))
	if err != nil {
		return // not valid shell: let bash report it
	}
	for _, f := range findings {
		fmt.Println(f.Rule, f.Severity, f.Start, "fixable:", len(f.Fixes) > 0)
	}
	fmt.Println("verdict:", analyze.Verdict(findings))
	// Output:
	// SG1002 error 1:1 fixable: true
	// verdict: error
}

// A finding's fix is a list of byte-offset edits against the command; the
// rewrite package applies them (rewrite.Fix) and re-analyzes.
func ExampleFinding_fixes() {
	findings, _ := analyze.Analyze([]byte("cd app && npm run dev >dev.log 2>&1 &"))
	for _, e := range findings[0].Fixes[0].Edits {
		fmt.Printf("insert %q at %d\n", e.New, e.Start)
	}
	findings, _ = analyze.Analyze([]byte("cd app && npm run dev >dev.log 2>&1 &"), analyze.WithStyle(analyze.StyleBrace))
	for _, e := range findings[0].Fixes[0].Edits {
		fmt.Printf("brace: insert %q at %d\n", e.New, e.Start)
	}
	// Output:
	// insert "exec " at 10
	// brace: insert "{ " at 10
	// brace: insert " }" at 37
}

// Run returns the background jobs too, which promotion plans are made of.
func ExampleRun() {
	src := "server >log 2>&1 & sleep 1; curl -s localhost:8000"
	res, _ := analyze.Run([]byte(src))
	for _, j := range res.Jobs {
		fmt.Printf("job %q top-level=%v waited-or-killed=%v holds-output=%v\n",
			src[j.Start:j.End], j.TopLevel, j.Resolved, j.HoldsOutput)
	}
	// Output:
	// job "server >log 2>&1 &" top-level=true waited-or-killed=false holds-output=false
}
