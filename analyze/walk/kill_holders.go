package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
)

// Kills by what a process holds: `fuser -k 3000/tcp` and `fuser -k
// dev.log` signal every process that uses the port or has the file open,
// and `npx kill-port 3000` (the kill-port package: lsof's pids of the
// listener, then kill -9) the one listening on a port. Which of the jobs
// holds it, the run decides; like `kill $(lsof -t -i:3000)` such a kill is
// taken to reach any job, and here the very program that holds the port
// or the file, however deep in the job it runs (`(cd app && server >log)
// &`: fuser finds the server, not only the subshell), in its own session
// too. The signal is the tool's: fuser's default and kill-port's is KILL.
// Checked under the four shells in both caller modes with `fuser -k FILE`
// of the file a job writes.

// holderKill is the kill option a command that kills the holders of a
// port or file sends, and whether it is one.
func holderKill(r knowledge.Resolved) (sig string, ok bool) {
	switch r.Name {
	case "fuser":
		sig, kills := "KILL", false
		for _, a := range r.Args {
			v := knowledge.WordLit(a)
			switch {
			case v == "-k" || v == "--kill":
				kills = true
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
				if isSignal(v[1:]) {
					sig = v[1:] // -TERM, -15
				} else if strings.Contains(v, "k") && !strings.ContainsAny(v, "ns") {
					kills = true // -ki, -km
				}
			}
		}
		return sig, kills
	case "kill-port", "killport":
		return "KILL", true
	case "npx", "pnpx", "bunx":
		if len(r.Args) > 0 && (knowledge.WordLit(r.Args[0]) == "kill-port" || knowledge.WordLit(r.Args[0]) == "killport") {
			return "KILL", true
		}
	}
	return "", false
}

// killHolders applies such a kill with sig: every job the walk knows of
// that does not ignore it ends.
func (w *walker) killHolders(sig string) {
	if w.jobsIgnore(sig) {
		return
	}
	for _, j := range w.p.Jobs {
		if !j.Resolved() && !j.ignores(sig) {
			w.end(j)
		}
	}
}
