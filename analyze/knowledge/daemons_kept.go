package knowledge

import (
	"strings"
)

// moreDaemons says how the programs that detach with a flag and that
// Daemonizes's own cases do not know (autossh, gunicorn, emacs; measured in
// analyze/daemons_kept.go's table, whose keptByDetached says what they keep
// of the caller's descriptors) detach, or "".
func moreDaemons(r Resolved) string {
	args := ArgvOf(r)
	switch r.Name {
	case "autossh":
		if ShortCluster(args, 'f') {
			return "forks into the background (-f)"
		}
	case "gunicorn":
		if args.Has("-D", "--daemon") {
			return "daemonizes (--daemon)"
		}
	case "emacs":
		if args.Has("--daemon", "--bg-daemon") || HasAttached(args, "--daemon=") || HasAttached(args, "--bg-daemon=") {
			return "starts an Emacs server (--daemon)"
		}
	}
	return ""
}

// moreDaemonNames are the programs moreDaemons knows (see progKinds).
var moreDaemonNames = SetOf(`autossh gunicorn emacs`)

// ShortCluster reports a short option alone or in a cluster (`-fN`,
// `-vvf`).
func ShortCluster(args Argv, c rune) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], c) {
			return true
		}
	}
	return false
}

// SshRemoteCommand reports whether ssh is given a command to run on the
// host (words after the destination) and no -N: its session's output is
// then the command's, which the backgrounded ssh passes to its own
// stdout and stderr for as long as the command runs.
func SshRemoteCommand(args Argv) bool {
	if ShortCluster(args, 'N') {
		return false
	}
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return len(args)-i-1 > 1
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// the last letter of a cluster may take the next word
			if last := a[len(a)-1]; strings.IndexByte("BbcDEeFIiJLlmOoPpQRSWw", last) >= 0 && len(a) == 2 {
				i++
			}
		default:
			operands++
			if operands > 1 {
				return true
			}
		}
	}
	return false
}
