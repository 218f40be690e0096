//go:build linux

// Command mcpbench times a `run` of `true` through a running `shexec mcp`
// against `shexec -c true` started as a process, and against
// `shexec --yield 10 -c true` (the same promise as a run: the command may
// go on as a job), alternating samples in one run, and prints medians of
// wall time and of CPU time per operation. Two reference rows show where
// a run's time goes: a `check` of `true` through the same server (the
// JSON-RPC round trip and the analysis, no process) and `bash -c true`
// started as a process (the shell alone); a third shows the floor of the
// design before this one, where every run was a job: exec.Store.Start of
// `true` alone (the supervisor, shexec re-executed, starts and hands
// back; it then starts the shell), before any waiting for the end.
// CPU of the MCP side is the server's utime+stime plus that of the
// children it waited for (cutime+cstime in /proc/PID/stat: the shells it
// reaps); CPU of the process side is the child's rusage. /proc counts in
// 10 ms ticks, so CPU is the mean over all samples on both sides, not a
// median.
//
// Usage: mcpbench SHEXEC [samples]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	shexec "github.com/shguard/shguard/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpbench SHEXEC [samples]")
		os.Exit(2)
	}
	bin := os.Args[1]
	bash, err := exec.LookPath("bash")
	if err != nil {
		fail(err)
	}
	n := 50
	if len(os.Args) > 2 {
		n, _ = strconv.Atoi(os.Args[2])
	}
	srv := exec.Command(bin, "mcp")
	srv.Stderr = os.Stderr
	in, _ := srv.StdinPipe()
	out, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		fail(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	id := 0
	call := func(method, params string) map[string]any {
		id++
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] == float64(id) {
				return m
			}
		}
		fail(fmt.Errorf("server closed stdout"))
		return nil
	}
	call("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}`)
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	runTrue := `{"name":"run","arguments":{"command":"true"}}`
	if r := call("tools/call", runTrue); !strings.Contains(fmt.Sprint(r), "exited") {
		fail(fmt.Errorf("run true: %v", r))
	}

	checkTrue := `{"name":"check","arguments":{"command":"true"}}`
	var mcpWall, mcpCPU, procWall, procCPU, yWall, yCPU, chkWall, chkCPU, bashWall, bashCPU, startWall []float64
	store, err := shexec.OpenStore("")
	if err != nil {
		fail(err)
	}
	store.Supervisor = bin
	process := func(wall, cpu *[]float64, prog string, args ...string) {
		t0 := time.Now()
		p := exec.Command(prog, args...)
		if err := p.Run(); err != nil {
			fail(err)
		}
		*wall = append(*wall, ms(time.Since(t0)))
		ru := p.ProcessState.SysUsage().(*syscall.Rusage)
		// Utime and Stime of a waited child include its waited children.
		*cpu = append(*cpu, ms(time.Duration(ru.Utime.Nano()+ru.Stime.Nano())))
	}
	for range n {
		c0 := cpuOf(srv.Process.Pid)
		t0 := time.Now()
		call("tools/call", runTrue)
		mcpWall = append(mcpWall, ms(time.Since(t0)))
		mcpCPU = append(mcpCPU, cpuOf(srv.Process.Pid)-c0)

		process(&procWall, &procCPU, bin, "-c", "true")
		process(&yWall, &yCPU, bin, "--yield", "10", "-c", "true")

		c0 = cpuOf(srv.Process.Pid)
		t0 = time.Now()
		call("tools/call", checkTrue)
		chkWall = append(chkWall, ms(time.Since(t0)))
		chkCPU = append(chkCPU, cpuOf(srv.Process.Pid)-c0)
		process(&bashWall, &bashCPU, bash, "-c", "true")

		t0 = time.Now()
		j, err := store.Start(context.Background(), shexec.JobSpec{Command: "true", Session: "mcpbench"})
		if err != nil {
			fail(err)
		}
		startWall = append(startWall, ms(time.Since(t0)))
		store.Wait(context.Background(), j.ID) // not timed: the job must be over before the next sample
	}
	in.Close()
	srv.Wait()
	fmt.Printf("%-34s %14s %12s   (%d samples each)\n", "", "wall ms median", "cpu ms mean", n)
	fmt.Printf("%-34s %14.2f %12.2f\n", "run true via running shexec mcp", median(mcpWall), mean(mcpCPU))
	fmt.Printf("%-34s %14.2f %12.2f\n", "shexec -c true as a process", median(procWall), mean(procCPU))
	fmt.Printf("%-34s %14.2f %12.2f\n", "shexec --yield 10 -c true", median(yWall), mean(yCPU))
	fmt.Printf("%-34s %13.2fx %11.2fx\n", "ratio mcp/process", median(mcpWall)/median(procWall), mean(mcpCPU)/mean(procCPU))
	fmt.Println("reference:")
	fmt.Printf("%-34s %14.2f %12.2f\n", "check true via shexec mcp (no proc)", median(chkWall), mean(chkCPU))
	fmt.Printf("%-34s %14.2f %12.2f\n", "bash -c true as a process", median(bashWall), mean(bashCPU))
	fmt.Printf("%-34s %14.2f %12s\n", "Store.Start of true (old floor)", median(startWall), "-")
}

// cpuOf is utime+stime+cutime+cstime of pid, in ms.
func cpuOf(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		fail(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	var t float64
	for _, i := range []int{11, 12, 13, 14} { // fields 14-17 of stat, counted from the state field
		v, _ := strconv.ParseFloat(f[i], 64)
		t += v
	}
	return t * 1000 / 100 // USER_HZ is 100 on Linux
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mean(a []float64) float64 {
	t := 0.0
	for _, v := range a {
		t += v
	}
	return t / float64(len(a))
}

func median(a []float64) float64 {
	sort.Float64s(a)
	if len(a)%2 == 1 {
		return a[len(a)/2]
	}
	return (a[len(a)/2-1] + a[len(a)/2]) / 2
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mcpbench:", err)
	os.Exit(1)
}
