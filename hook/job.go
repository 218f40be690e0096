package hook

import (
	"strings"

	"github.com/shguard/shguard/analyze"
)

// A command that never ends by itself (a server, watcher or log follower
// in the foreground: the analyzer's SG3001) holds the agent's tool until
// the agent's own timeout. Where the agent has a background mode the
// command moves there (Decide); elsewhere it becomes a managed job, built
// here: a command the agent runs in its tool that starts the job, returns
// with the job's first lines, and names the job, its log and how to stop
// it.
//
// With shexec on PATH (Options.Find) the job is shexec's: `shexec
// --yield` follows the command's output for jobYield and then leaves it
// running as a job shexec supervises (`shexec logs/kill ID`; its id is
// the last line of the output). Without it, the job is a log-file job
// whose pid is recorded next to its log: with setsid in
// a process group of its own, so that one kill stops everything it
// started (`npm run dev` → node); without, its process tree (stopJob).

// jobYield is how long a started job's output is followed before the
// command returns (shexec --yield), and the most a log-file job is waited
// for to print its first lines.
const jobYield = "5"

// managedJob returns the command that starts cmd as a managed job, the
// job's log file ("" for a shexec job) and how to stop it (the command,
// or for a shexec job a sentence that says how). ok is false when no job can
// be built (no log file name that reads the same unquoted).
func managedJob(cmd string, n int, opt Options) (wrapped, log, stop string, ok bool) {
	sh := opt.Lang.String()
	find := func(p string) string {
		if opt.Find == nil {
			return ""
		}
		return opt.Find(p)
	}
	if shexec := find("shexec"); shexec != "" {
		return quote(shexec) + " --yield " + jobYield + " --shell " + sh + " -c " + quote(cmd), "",
			"`" + quote(shexec) + " kill ID` (ID: the job id on the last line of the output; `" + quote(shexec) + " logs ID` reads its output)", true
	}
	if opt.LogFile == nil {
		return "", "", "", false
	}
	log = opt.LogFile(n)
	pid := pidFile(log)
	if quote(log) != log || quote(pid) != pid {
		return "", "", "", false
	}
	start, kill := sh+" -c "+quote(cmd), stopJob(pid)
	if setsid := find("setsid"); setsid != "" {
		start, kill = quote(setsid)+" "+start, stopGroup(pid)
	}
	// Wait until the job has written something (at most jobYield
	// seconds), a moment more for the lines that follow, then show them:
	// POSIX sh, so that it runs the same in every shell the agent uses.
	wrapped = start + " >" + log + " 2>&1 </dev/null & echo $! >" + pid +
		"; i=0; while [ $i -lt " + jobYield + "0 ] && [ ! -s " + log + " ]; do sleep 0.1; i=$((i+1)); done; sleep 1; tail -n 40 " + log +
		"; echo \"[shguard: this runs on as a background job, pid $(cat " + pid + "); log " + log + "; stop it with: " + kill + "]\""
	return wrapped, log, kill, true
}

// stopJob is the command that stops the job whose pid is recorded in
// pid and every process it started: the recorded pid is a subshell (a
// pipeline or list in the background) or a command that may start
// children (npm → node), and without job control (zsh and dash refuse
// `set -m` in a non-interactive shell) they all share the caller's
// process group, so no group kill can single them out. It lists the
// process tree under the pid (pgrep -P, on Linux and macOS) before it
// kills any of them, so that none is reparented out of reach first.
func stopJob(pid string) string {
	return "kill $(k() { echo $1; for c in $(pgrep -P $1); do k $c; done; }; k $(cat " + pid + "))"
}

// stopGroup is the command that stops the job whose pid is recorded in
// pid when the job leads a process group of its own (setsid, or started
// under job control: group.go): one kill of the group reaches everything
// it started.
func stopGroup(pid string) string {
	return "kill -- -$(cat " + pid + ")"
}

// pidFile is where the pid of the job writing log is recorded.
func pidFile(log string) string {
	return strings.TrimSuffix(log, ".log") + ".pid"
}

// forever reports whether the analyzer found a command in fs that never
// ends by itself in the foreground (SG3001): the single source of that
// knowledge, so that the hook and the linter agree.
func forever(fs []analyze.Finding) bool {
	return hasRule(fs, analyze.ForegroundServer.ID)
}

// moveForever moves a never-ending foreground command (cmd: the input,
// or its rewrite) out of the tool's way: to the agent's background mode,
// else into a managed job. Without either, out is left as it is (advice).
func moveForever(out *Outcome, cmd string, opt Options) *Outcome {
	out.Forever = true
	out = moveWhole(out, cmd, "runs until it is stopped ("+neverEnds(out.Remaining)+")", opt)
	out.Forever = out.Changed
	return out
}

// moveWhole runs the whole of cmd where it cannot hold the tool, what
// saying why it would: in the agent's background mode, else as a managed
// job; without either out is left as it is.
func moveWhole(out *Outcome, cmd, what string, opt Options) *Outcome {
	if opt.Background {
		out.Command, out.Background, out.Changed = cmd, true, true
		out.Reason = "shguard: this command " + what + ". Changed: it now runs as a background task of the tool (background mode on), so that the call returns"
		out.Context = "shguard moved this command to the tool's background mode, because it " + what +
			" and would have held the tool until its timeout: read its output and stop it with the tool's background-task commands."
		return out
	}
	wrapped, log, stop, ok := managedJob(cmd, len(out.Logs), opt)
	if !ok {
		return out
	}
	out.Command, out.Changed = wrapped, true
	if log != "" {
		out.Logs, out.Stops = append(out.Logs, log), append(out.Stops, stop)
		stop = "`" + stop + "`"
	}
	out.Reason = "shguard: this command " + what + ". Changed: it now starts as a managed background job and the call returns with its first lines"
	where := "shexec's job log"
	if log != "" {
		where = log + " (its pid in " + pidFile(log) + ")"
	}
	out.Context = "shguard started this command as a background job, because it " + what +
		" and would have held the tool until its timeout. The call returned with its first lines; it keeps running. Its output: " + where + ". Stop it with " + stop + "."
	return out
}

// neverEnds joins the messages of the SG3001 findings in fs.
func neverEnds(fs []analyze.Finding) string {
	var ms []string
	for _, f := range fs {
		if f.Rule == analyze.ForegroundServer.ID {
			ms = append(ms, strings.TrimSuffix(f.Message, ".")+" ["+f.Rule+"]")
		}
	}
	return strings.Join(ms, "; ")
}
