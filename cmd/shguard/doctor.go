package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/shguard/shguard/hook"
)

// runDoctor prints hook.Doctor's checks for agent, in the current
// directory as the project: 0 when nothing is missing, 1 otherwise.
func runDoctor(agent string, stdout, stderr io.Writer) int {
	home, _ := os.UserHomeDir()
	project, _ := os.Getwd()
	checks, err := hook.Doctor(agent, hook.DoctorEnv{
		Home: home, Project: project, Getenv: os.Getenv, ReadFile: os.ReadFile, Stat: os.Stat,
		Run: func(cmdline string, payload []byte) ([]byte, []byte, int, error) {
			var out, errOut bytes.Buffer
			c := exec.Command("sh", "-c", cmdline)
			c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(payload), &out, &errOut
			err := c.Run()
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return out.Bytes(), errOut.Bytes(), ee.ExitCode(), nil
			}
			return out.Bytes(), errOut.Bytes(), 0, err
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "shguard hook --doctor: %v\n", err)
		return exitUsage
	}
	status := exitClean
	for _, c := range checks {
		mark := "ok     "
		if !c.OK {
			mark, status = "MISSING", 1
		}
		fmt.Fprintf(stdout, "%s %s\n", mark, c.What)
	}
	return status
}
