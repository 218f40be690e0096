package e2e

import (
	"os"
	"strconv"
	"strings"
)

// procs lists the live processes of the namespace but the runner (pid 1)
// and zombies.
func procs() []Proc {
	ents, _ := os.ReadDir("/proc")
	var ps []Proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == 1 || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		cl, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		cmd := strings.TrimSpace(strings.ReplaceAll(string(cl), "\x00", " "))
		if cmd == "" {
			cmd = "[" + s[strings.IndexByte(s, '(')+1:i] + "]"
		}
		ps = append(ps, Proc{Pid: pid, PPid: ppid, Pgid: pgid, Cmd: cmd})
	}
	return ps
}
