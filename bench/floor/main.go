//go:build linux

// Command floor is the cost floor of any Go wrapper around `bash -c`: it
// only runs `bash -c CMD` in its own process group, with stdio inherited,
// and exits with the shell's status. bench/shexec.sh compares shexec to it.
package main

import (
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command("bash", append([]string{"-c"}, os.Args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		os.Exit(125)
	}
}
