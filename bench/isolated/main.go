//go:build linux

// Command isolated is bench/floor plus what shexec's isolation requires
// before the shell may start, and nothing else: SIGINT, SIGTERM and SIGHUP
// registered and forwarded to the shell's group, the caller a child
// subreaper, and the shell forked with Pdeathsig from a locked OS thread
// that stays alive until the shell is reaped (golang/go#27505). stdio is
// inherited: no pipe, no copying, no analysis. bench/shexec.sh compares
// shexec to it to show what the isolation alone costs over the floor.
//
// Built with -tags planner it also links shguard's planner and plans a
// command with a '&' before the shell starts, as shexec does to promote
// background statements (planner.go): for `true` that is what linking the
// planner costs by itself.
package main

import (
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// plan is the planner of a -tags planner build; nil otherwise.
var plan func(cmd string)

func main() {
	if plan != nil && len(os.Args) > 1 {
		plan(os.Args[1])
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	path, err := exec.LookPath("bash")
	if err != nil {
		os.Exit(127)
	}
	argv := append([]string{"bash", "-c"}, os.Args[1:]...)
	pids := make(chan int, 1)
	status := make(chan syscall.WaitStatus, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
			Env:   os.Environ(),
			Files: []uintptr{0, 1, 2},
			Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
		})
		if err != nil {
			os.Exit(126)
		}
		pids <- pid
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				break
			}
		}
		status <- ws
	}()
	pid := <-pids
	for {
		select {
		case sig := <-sigs:
			syscall.Kill(-pid, sig.(syscall.Signal))
		case ws := <-status:
			if ws.Signaled() {
				os.Exit(128 + int(ws.Signal()))
			}
			os.Exit(ws.ExitStatus())
		}
	}
}
