package rewrite_test

import (
	"errors"
	"fmt"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// An agent tool layer fixes a command before it hands it to `bash -c`:
// the fix removes the hang (the subshell that waits for the server) and
// changes nothing else; what has no safe fix is left as written and
// reported.
func ExampleFix() {
	cmd := "cd app && npm run dev >dev.log 2>&1 &\nsleep 2; curl -s localhost:3000"
	res, err := rewrite.Fix([]byte(cmd))
	if err != nil {
		return // not valid shell: run it as is and let bash say why
	}
	fmt.Printf("%s\n", res.Out)
	for _, f := range res.Applied {
		fmt.Println("fixed:", f.Rule, f.Start)
	}
	for _, f := range res.Remaining {
		fmt.Println("left:", f.Rule, f.Severity)
	}
	// Output:
	// cd app && exec npm run dev >dev.log 2>&1 &
	// sleep 2; curl -s localhost:3000
	// fixed: SG1002 1:1
	// left: SG2001 warning
}

// The brace style is the form a seed platform shipped: only the last
// command goes to the background, and A runs in the shell itself.
func ExampleFix_brace() {
	res, _ := rewrite.Fix([]byte("cd /tmp && python3 -m http.server 8000 &>/dev/null & sleep 1"),
		analyze.WithStyle(analyze.StyleBrace))
	fmt.Printf("%s\n", res.Out)
	// Output:
	// cd /tmp && { python3 -m http.server 8000 &>/dev/null & }; sleep 1
}

// A plain `server &` has no fix that keeps behaviour: it stays as written,
// and its finding says what to do (redirect, or promote it).
func ExampleFix_noSafeFix() {
	res, _ := rewrite.Fix([]byte("python3 -m http.server 8000 &"))
	fmt.Printf("%s\n", res.Out)
	fmt.Println(res.Remaining[0].Rule, res.Remaining[0].Severity)
	// Output:
	// python3 -m http.server 8000 &
	// SG1001 error
}

// Before running a command, a tool with its own job manager (or an agent's
// run_in_background) promotes the background statements: it starts each
// job as a managed job and runs only the foreground.
func ExamplePlan() {
	plan, err := rewrite.Plan([]byte("cd app && npm run dev &"))
	if err != nil {
		return
	}
	fmt.Printf("foreground: %q\n", plan.Foreground)
	for _, j := range plan.Jobs {
		fmt.Printf("job: %q\n", j.Script())
	}
	// Output:
	// foreground: ""
	// job: "cd app && npm run dev"
}

// A job keeps the state the script gave it: the state-only statements
// before it become its prelude. The foreground still runs what is left.
func ExamplePlan_prelude() {
	plan, _ := rewrite.Plan([]byte("cd app; export PORT=3000; npm run dev & sleep 2; curl -s localhost:3000"))
	fmt.Printf("foreground: %q\n", plan.Foreground)
	for _, j := range plan.Jobs {
		fmt.Printf("job: %q\n", j.Script())
	}
	// Output:
	// foreground: "cd app; export PORT=3000;  sleep 2; curl -s localhost:3000"
	// job: "cd app\nexport PORT=3000\nnpm run dev"
}

// A job whose pid the script uses is not promoted: the script would lose
// its handle on it.
func ExamplePlan_notPromoted() {
	plan, _ := rewrite.Plan([]byte("server & pid=$!; sleep 1; kill $pid"))
	fmt.Println(len(plan.Jobs), plan.Foreground)
	// Output:
	// 0 server & pid=$!; sleep 1; kill $pid
}

// Unparseable input is reported, never rewritten.
func ExampleFix_parseError() {
	_, err := rewrite.Fix([]byte("cd app && { npm start &"))
	var pe *analyze.ParseError
	fmt.Println(errors.As(err, &pe), pe.Line)
	// Output:
	// true 1
}

// Apply is the primitive under Fix: byte-offset edits against the original
// source, every other byte kept.
func ExampleApply() {
	src := []byte("A && B &  # keep this comment\n")
	out, _ := rewrite.Apply(src, []analyze.Edit{{Start: 5, End: 5, New: "exec "}})
	fmt.Printf("%s", out)
	_, err := rewrite.Apply(src, []analyze.Edit{{Start: 0, End: 3, New: "x"}, {Start: 2, End: 4, New: "y"}})
	fmt.Println(err)
	// Output:
	// A && exec B &  # keep this comment
	// edits 0:3 "x" and 2:4 "y" overlap
}
