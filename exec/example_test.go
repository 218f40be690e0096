//go:build linux

package exec_test

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/shguard/shguard/exec"
)

// Run is a drop-in for `bash -c`: the command runs in its own process
// group, returns as soon as the shell is done even when something it left
// behind still holds the output, and what it leaves behind is stopped.
func ExampleRun() {
	var out bytes.Buffer
	res, err := exec.Run(context.Background(), "echo started; sleep 30 &",
		exec.WithStdout(&out), exec.WithLeftovers(exec.KillLeftovers), exec.WithTimeout(10*time.Second))
	if err != nil {
		panic(err)
	}
	fmt.Print(out.String())
	fmt.Println(res.Status, res.ExitCode, len(res.Leftovers))
	// Output:
	// started
	// exited 0 1
}
