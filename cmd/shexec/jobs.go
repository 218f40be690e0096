//go:build linux || darwin || freebsd

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/shguard/shguard/exec"
)

// jobCommands are the subcommands that manage jobs; each takes --json.
var jobCommands = map[string]func(*jobCtx, []string) int{
	"jobs":   cmdJobs,
	"status": cmdStatus,
	"logs":   cmdLogs,
	"wait":   cmdWait,
	"write":  cmdWrite,
	"kill":   cmdKill,
	"rm":     cmdRm,
	"clear":  cmdClear,
}

const jobsUsage = `Managed jobs (started by --background, --yield, promotion of background
statements, or adoption of leftovers) live under $SHEXEC_HOME (default
${XDG_STATE_HOME:-~/.local/state}/shexec), one private directory each.

  shexec jobs [--all]                   list jobs (of $SHEXEC_SESSION / --session, if set)
  shexec status ID                      one job
  shexec logs ID [--stderr] [--offset N] [--limit N]
                                        lines of its output; no --offset: the last 200
  shexec wait ID [--timeout D]          wait for the end; exit with the job's status
  shexec write ID [DATA] [--eof]        feed its stdin (jobs started with a stdin pipe)
  shexec kill ID [--grace D]            SIGTERM, grace, SIGKILL: the whole tree, escapees too
  shexec rm ID...                       delete finished jobs' records
  shexec clear                          delete every finished job of the session

Every command takes --json, --session S and --home DIR.
Exit status: 0 done; 1 a job-level failure (no such job, still running...);
125 bad usage. wait exits with the job's own status: its exit code, 128+N
for signal N, 124 for a timeout (also when wait --timeout expires first),
125 when unknown (lost, or adopted).
`

// isJobsCommand reports whether args name a job subcommand, so the main
// dispatcher can hand them to runJobsCommand.
func isJobsCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	_, ok := jobCommands[args[0]]
	return ok
}

// runJobsCommand runs `shexec NAME ARGS...` for a job subcommand NAME and
// returns the exit status.
func runJobsCommand(name string, args []string, stdout, stderr io.Writer) int {
	f, ok := jobCommands[name]
	if !ok {
		fmt.Fprintf(stderr, "shexec: unknown command %q\n", name)
		return exitUsage
	}
	return f(&jobCtx{name: name, stdout: stdout, stderr: stderr}, args)
}

// jobCtx carries what every job subcommand shares: output streams and the
// common flags.
type jobCtx struct {
	name           string
	stdout, stderr io.Writer
	fs             *flagSet
	json           bool
	session        string
	home           string
	store          *exec.Store
}

func (c *jobCtx) flags() *flagSet {
	c.fs = newFlagSet("shexec " + c.name)
	c.fs.BoolVar(&c.json, "json", false, "print JSON")
	c.fs.StringVar(&c.session, "session", os.Getenv(exec.SessionEnv), "session scope (default $"+exec.SessionEnv+")")
	c.fs.StringVar(&c.home, "home", "", "job store (default $"+exec.HomeEnv+")")
	return c.fs
}

// parse parses args and opens the store, expecting nargs operands (-1: any).
// It returns the operands and -1 to go on, or the exit status to return.
func (c *jobCtx) parse(args []string, nargs int, what string) ([]string, int) {
	help := c.fs.BoolP("help", "h", false, "show help")
	if err := c.fs.Parse(args); err != nil {
		return nil, c.usage("%v", err)
	}
	if *help {
		fmt.Fprint(c.stdout, jobsUsage+"\nFlags of "+c.name+":\n"+c.fs.FlagUsages())
		return nil, 0
	}
	ops := c.fs.Args()
	if nargs >= 0 && len(ops) != nargs {
		return nil, c.usage("%s needs %s", c.name, what)
	}
	st, err := exec.OpenStore(c.home)
	if err != nil {
		return nil, c.fail(err)
	}
	c.store = st
	return ops, -1
}

func (c *jobCtx) usage(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "shexec %s: %s\nRun 'shexec %s --help' for usage.\n", c.name, fmt.Sprintf(format, a...), c.name)
	return exitUsage
}

func (c *jobCtx) fail(err error) int {
	fmt.Fprintf(c.stderr, "shexec %s: %v\n", c.name, err)
	if c.json {
		writeJSON(c.stdout, map[string]string{"error": err.Error()})
	}
	return 1
}

func (c *jobCtx) printJob(j *exec.Job) {
	if c.json {
		writeJSON(c.stdout, j)
		return
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 1, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s:\t%s\n", k, v) }
	row("id", j.ID)
	row("status", describeStatus(j))
	row("command", j.Command)
	row("cwd", j.Cwd)
	if j.Session != "" {
		row("session", j.Session)
	}
	row("pid", fmt.Sprint(j.PID))
	row("started", j.Started.Local().Format(time.DateTime))
	if j.Ended != nil {
		row("ended", j.Ended.Local().Format(time.DateTime))
	}
	if j.Note != "" {
		row("note", j.Note)
	}
	row("logs", j.Dir+"/{stdout,stderr}.log")
	tw.Flush()
}

func describeStatus(j *exec.Job) string {
	s := string(j.Status)
	if j.Signal != "" {
		s += " (" + j.Signal + ")"
	} else if j.ExitCode != nil && j.Status != exec.JobRunning {
		s += fmt.Sprintf(" (exit %d)", *j.ExitCode)
	}
	return s
}

func cmdJobs(c *jobCtx, args []string) int {
	fs := c.flags()
	all := fs.Bool("all", false, "list the jobs of every session")
	if _, code := c.parse(args, 0, "no operands"); code >= 0 {
		return code
	}
	session := c.session
	if *all {
		session = ""
	}
	jobs, err := c.store.List(session)
	if err != nil {
		return c.fail(err)
	}
	if c.json {
		if jobs == nil {
			jobs = []*exec.Job{}
		}
		writeJSON(c.stdout, jobs)
		return 0
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tPID\tSTARTED\tCOMMAND")
	for _, j := range jobs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", j.ID, describeStatus(j), j.PID, j.Started.Local().Format(time.DateTime), short(oneLine(j.Command)))
	}
	tw.Flush()
	return 0
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func cmdStatus(c *jobCtx, args []string) int {
	c.flags()
	ops, code := c.parse(args, 1, "a job ID")
	if code >= 0 {
		return code
	}
	j, err := c.store.Load(ops[0])
	if err != nil {
		return c.fail(err)
	}
	c.printJob(j)
	return 0
}

func cmdLogs(c *jobCtx, args []string) int {
	fs := c.flags()
	stderr := fs.Bool("stderr", false, "the job's stderr instead of its stdout")
	offset := fs.Int("offset", -1, "first line (0-based); default: the last --limit lines")
	limit := fs.Int("limit", exec.DefaultLogLines, "number of lines")
	ops, code := c.parse(args, 1, "a job ID")
	if code >= 0 {
		return code
	}
	pg, err := c.store.ReadLogs(ops[0], *stderr, *offset, *limit)
	if err != nil {
		return c.fail(err)
	}
	if c.json {
		writeJSON(c.stdout, pg)
		return 0
	}
	for _, l := range pg.Lines {
		fmt.Fprintln(c.stdout, l)
	}
	if pg.Hint != "" {
		fmt.Fprintln(c.stderr, "shexec logs: "+pg.Hint)
	}
	return 0
}

func cmdWait(c *jobCtx, args []string) int {
	fs := c.flags()
	var timeout durationFlag
	fs.Var(&timeout, "timeout", "give up after this long (exit 124; the job goes on)")
	ops, code := c.parse(args, 1, "a job ID")
	if code >= 0 {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(timeout))
		defer cancel()
	}
	j, err := c.store.Wait(ctx, ops[0])
	if j == nil {
		return c.fail(err)
	}
	if err != nil {
		if c.json {
			writeJSON(c.stdout, j)
		}
		fmt.Fprintf(c.stderr, "shexec wait: job %s is still running (%v)\n", j.ID, err)
		return 124
	}
	if c.json {
		writeJSON(c.stdout, j)
	}
	return j.WaitCode()
}

func cmdWrite(c *jobCtx, args []string) int {
	fs := c.flags()
	eof := fs.Bool("eof", false, "close the job's stdin after writing")
	ops, code := c.parse(args, -1, "")
	if code >= 0 {
		return code
	}
	if len(ops) < 1 || len(ops) > 2 || (len(ops) == 1 && !*eof) {
		return c.usage("write needs a job ID and DATA (or --eof)")
	}
	var data []byte
	if len(ops) == 2 {
		data = []byte(ops[1])
	}
	if err := c.store.Write(ops[0], data, *eof); err != nil {
		return c.fail(err)
	}
	if c.json {
		writeJSON(c.stdout, map[string]any{"id": ops[0], "written": len(data), "eof": *eof})
	}
	return 0
}

func cmdKill(c *jobCtx, args []string) int {
	fs := c.flags()
	grace := durationFlag(exec.DefaultJobGrace)
	fs.Var(&grace, "grace", "time between SIGTERM and SIGKILL")
	ops, code := c.parse(args, 1, "a job ID")
	if code >= 0 {
		return code
	}
	j, err := c.store.Kill(context.Background(), ops[0], time.Duration(grace))
	if err != nil {
		if errors.Is(err, exec.ErrOtherBoot) || j == nil {
			return c.fail(err)
		}
		// The processes are gone; only the supervisor was slow to record it.
		fmt.Fprintf(c.stderr, "shexec kill: %v\n", err)
	}
	c.printJob(j)
	return 0
}

func cmdRm(c *jobCtx, args []string) int {
	c.flags()
	ops, code := c.parse(args, -1, "")
	if code >= 0 {
		return code
	}
	if len(ops) == 0 {
		return c.usage("rm needs at least one job ID")
	}
	status := 0
	removed := []string{}
	for _, id := range ops {
		if err := c.store.Remove(id); err != nil {
			fmt.Fprintf(c.stderr, "shexec rm: %v\n", err)
			status = 1
			continue
		}
		removed = append(removed, id)
	}
	if c.json {
		writeJSON(c.stdout, map[string]any{"removed": removed})
	}
	return status
}

func cmdClear(c *jobCtx, args []string) int {
	c.flags()
	if _, code := c.parse(args, 0, "no operands"); code >= 0 {
		return code
	}
	removed, err := c.store.Clear(c.session)
	if removed == nil {
		removed = []string{}
	}
	if c.json {
		writeJSON(c.stdout, map[string]any{"removed": removed})
	} else if len(removed) > 0 {
		fmt.Fprintf(c.stdout, "removed %s\n", strings.Join(removed, " "))
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "shexec clear: %v\n", err)
		return 1
	}
	return 0
}
