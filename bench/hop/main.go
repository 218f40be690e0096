//go:build linux

// Command hop is bench/floor with one pipe between the shell and the
// caller: the shell's stdout is a pipe of our own (1 MiB, like shexec's),
// whose bytes are moved to our stdout by blocking splice(2) until EOF. It is
// the least any wrapper can do that can still return, or hand the output
// elsewhere, while a leftover process holds the shell's output: the
// throughput reference for shexec in bench/shexec.sh. stderr is inherited.
package main

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

func main() {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		os.Exit(125)
	}
	unix.FcntlInt(uintptr(p[0]), unix.F_SETPIPE_SZ, 1<<20)
	unix.FcntlInt(1, unix.F_SETPIPE_SZ, 1<<20)
	w := os.NewFile(uintptr(p[1]), "stdout")
	cmd := exec.Command("bash", append([]string{"-c"}, os.Args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, w, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		os.Exit(127)
	}
	w.Close()
	for {
		n, err := unix.Splice(p[0], nil, 1, nil, 1<<20, unix.SPLICE_F_MOVE)
		if err == unix.EINTR {
			continue
		}
		if n <= 0 {
			break
		}
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		os.Exit(ee.ExitCode())
	}
}
