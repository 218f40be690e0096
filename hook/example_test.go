package hook_test

import (
	"fmt"

	"github.com/shguard/shguard/hook"
)

// Decide is the hook's whole judgement, free of any agent's protocol: an
// agent framework written in Go can call it before running a command.
// LogFile names where a job's output may go; the caller creates it.
func ExampleDecide() {
	opt := hook.Options{LogFile: func(n int) string { return fmt.Sprintf("/tmp/job%d.log", n) }}
	out, err := hook.Decide("cd app && npm run dev & sleep 2; curl -s localhost:5173", opt)
	if err != nil {
		panic(err) // only a command that is not valid shell
	}
	fmt.Println("hangs:", out.Hang)
	fmt.Println("run instead:", out.Command)
	// Output:
	// hangs: true
	// run instead: { exec >/tmp/job0.log 2>&1; cd app && exec npm run dev; } & echo $! >/tmp/job0.pid; sleep 2; curl -s localhost:5173
}

// A command that only leaks, and cannot hang the caller, is left as it is.
func ExampleDecide_leak() {
	out, _ := hook.Decide("nohup ./server >/dev/null 2>&1 &", hook.Options{})
	fmt.Println(out.Hang, out.Changed)
	// Output:
	// false false
}

// Detect tells the agent from the shape of its hook payload.
func ExampleDetect() {
	p, err := hook.Detect([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Name)
	// Output:
	// claude
}
