package analyze

import "strings"

// held names the descriptors of a job that someone waits on for EOF.
func held(t *fdTable) string {
	var names []string
	for fd := 1; fd < len(t); fd++ {
		if t[fd] != tCaller && t[fd] != tBlock {
			continue
		}
		switch fd {
		case 1:
			names = append(names, "stdout")
		case 2:
			names = append(names, "stderr")
		default:
			names = append(names, "fd "+string(rune('0'+fd)))
		}
	}
	return strings.Join(names, " and ")
}

// quoted shows a job's source in a message.
func (p *pass) quoted(j *job) string { return "`" + short(p.text(j.start, j.end)) + "`" }

// reportable is true for jobs the outcome rules speak about: not a
// builtin that finishes at once, not waited for or killed.
func (j *job) reportable() bool { return !j.quick && !j.resolved() }

const manageAdvice = "wait for it (`wait $!`), stop it when done (`kill $!`), or run it as a managed job (`shexec --background`, or the agent's run_in_background)"
