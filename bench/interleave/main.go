//go:build unix

// Command interleave times short commands against each other run by run:
// round after round it starts each command once, in an order that turns
// every round (A B, then B A), with the same file on stdin and stdout
// thrown away, and takes each run's wall time from its start to its reap.
// It prints each command's median and, for every command after the first,
// the median of its per-round ratios to the first.
//
// Why: on a shared VM a command that lives three milliseconds varies by a
// third from one run to the next, and the machine's speed drifts over
// seconds. bench/hook.sh's loops of 100 runs per command, one command
// after another, gave ratios of 1.05 and 1.23 for the same two binaries
// in two calls a minute apart. Ratios taken within a round, where both
// runs see the same machine, and their median over hundreds of rounds,
// vary far less between calls.
//
// Usage: interleave [-n ROUNDS] [-stdin FILE] -- 'CMD A' 'CMD B' ...
// Each command is one string split at spaces (no shell, no quoting).
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("n", 400, "rounds: each command runs once per round")
	stdin := flag.String("stdin", "/dev/null", "file each run reads on stdin")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: interleave [-n ROUNDS] [-stdin FILE] -- 'CMD A' 'CMD B' ...\n\n"+
			"Runs the commands alternately, round by round, and prints each one's median wall\n"+
			"time and each one's median per-round ratio to the first (CMD A: the yardstick).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 2 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	cmds := make([][]string, flag.NArg())
	for i, c := range flag.Args() {
		cmds[i] = strings.Fields(c)
	}
	times := make([][]time.Duration, len(cmds))
	for r := 0; r < *rounds; r++ {
		for k := range cmds {
			i := k
			if r%2 == 1 {
				i = len(cmds) - 1 - k
			}
			d, err := run(cmds[i], *stdin)
			if err != nil {
				fmt.Fprintf(os.Stderr, "interleave: %s: %v\n", strings.Join(cmds[i], " "), err)
				os.Exit(1)
			}
			times[i] = append(times[i], d)
		}
		if (r+1)%100 == 0 {
			fmt.Fprintf(os.Stderr, "interleave: %d of %d rounds\n", r+1, *rounds)
		}
	}
	for i, c := range cmds {
		line := fmt.Sprintf("%-40s median %6d us", strings.Join(c, " "), median(times[i]).Microseconds())
		if i > 0 {
			ratios := make([]float64, *rounds)
			for r := range ratios {
				ratios[r] = float64(times[i][r]) / float64(times[0][r])
			}
			slices.Sort(ratios)
			q := func(f float64) float64 { return ratios[int(f*float64(len(ratios)-1))] }
			line += fmt.Sprintf("   / first: median of %d per-round ratios %.3f (quartiles %.3f-%.3f)", len(ratios), q(0.5), q(0.25), q(0.75))
		}
		fmt.Println(line)
	}
}

// run starts argv with stdin from the file in, its output discarded, and
// returns the time from its start to its reap.
func run(argv []string, in string) (time.Duration, error) {
	f, err := os.Open(in)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	start := time.Now()
	p, err := os.StartProcess(argv[0], argv, &os.ProcAttr{Files: []*os.File{f, null, os.Stderr}})
	if err != nil {
		return 0, err
	}
	st, err := p.Wait()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	if !st.Success() {
		return 0, fmt.Errorf("exit status %v", st)
	}
	return d, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
