package knowledge

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// RunCommands returns the commands a program runs for the caller that
// resolve does not look through, because the command sits among or after
// the program's own arguments rather than in place of them:
//
//	find . -name '*.sh' -exec sh -c '…' \;   (each -exec, -execdir, -ok)
//	xargs -I{} sh -c '…'                      (after xargs's options)
//	flock /tmp/lock cmd args                  (after the lock file)
//	flock /tmp/lock -c '…'                    (a string for sh -c)
//	/usr/bin/time -v make                     (GNU time, a program)
//
// Each runs in the foreground of the program, which waits for it: what it
// starts in the background is the caller's business as much as anything
// the shell starts.
func RunCommands(r Resolved) [][]*syntax.Word {
	switch r.Name {
	case "find":
		var cmds [][]*syntax.Word
		for i := 0; i < len(r.Args); i++ {
			switch WordLit(r.Args[i]) {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(r.Args) && !endsExec(r.Args[j]) {
					j++
				}
				if j > i+1 {
					cmds = append(cmds, r.Args[i+1:j])
				}
				i = j
			}
		}
		return cmds
	case "xargs":
		return afterOptions(r.Args, "EIadnLPsd", xargsLongTakesArg) // -I R, -n N…
	case "xvfb-run":
		// Debian's xvfb-run (a /bin/sh script): it starts Xvfb with its
		// output in the error file (/dev/null), runs the command in its
		// foreground and kills Xvfb in its EXIT trap, which dash does not
		// run when TERM ends it: `xvfb-run -a ./server & … kill $!` leaves
		// the server and Xvfb (measured).
		return afterOptions(r.Args, "efnpsw", func(o string) bool {
			switch o {
			case "--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args", "--wait":
				return true
			}
			return false
		})
	case "time":
		// The program (by path, or through command or env): the
		// keyword is no simple command. -f the format, -o the file.
		return afterOptions(r.Args, "fo", func(o string) bool { return o == "--format" || o == "--output" })
	case "flock":
		for i := 0; i < len(r.Args); i++ {
			o := WordLit(r.Args[i])
			switch {
			case o == "-c" || o == "--command":
				// Only after the lock file: before it, flock refuses
				// the option (exit 64) and runs nothing.
				return nil
			case o == "-w" || o == "--timeout" || o == "-E" || o == "--conflict-exit-code":
				i++
			case strings.HasPrefix(o, "-") && o != "-":
			default:
				// The lock file, then the command or -c and a string.
				if i+1 < len(r.Args) {
					if c := WordLit(r.Args[i+1]); c == "-c" || c == "--command" {
						if i+2 < len(r.Args) {
							return [][]*syntax.Word{{LitWord("sh"), LitWord("-c"), r.Args[i+2]}}
						}
						return nil
					}
				}
				return wordsFrom(r.Args, i+1)
			}
		}
	}
	return nil
}

// afterOptions is the command a program runs after its own options,
// whose short options in argOpts and long ones longArg reports take the
// next word as their value.
func afterOptions(args []*syntax.Word, argOpts string, longArg func(string) bool) [][]*syntax.Word {
	for i := 0; i < len(args); i++ {
		o := WordLit(args[i])
		switch {
		case o == "--":
			return wordsFrom(args, i+1)
		case !strings.HasPrefix(o, "-") || o == "-":
			return wordsFrom(args, i)
		case strings.HasPrefix(o, "--"):
			if !strings.Contains(o, "=") && longArg(o) {
				i++
			}
		case len(o) == 2 && strings.IndexByte(argOpts, o[1]) >= 0:
			i++
		}
	}
	return nil
}

func endsExec(w *syntax.Word) bool {
	switch Value(w) {
	case ";", "+":
		return true
	}
	return false
}

func wordsFrom(args []*syntax.Word, i int) [][]*syntax.Word {
	if i >= len(args) {
		return nil
	}
	return [][]*syntax.Word{args[i:]}
}

func xargsLongTakesArg(o string) bool {
	switch o {
	case "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args",
		"--max-procs", "--max-chars", "--process-slot-var":
		return true
	}
	return false
}

// LitWord is a word made of one literal, for commands the walk builds.
func LitWord(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// RunsChildren reports whether s is find -exec or xargs running a command
// that may take a while (fgLong counts the foreground programs its walk
// found that may: the program and its commands). It runs each command as
// its child and waits for it; a signal to the program ends it alone, and
// the command it was running goes on.
func RunsChildren(s *syntax.Stmt, fgLong int) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	return fgLong > 1 && RunsItsCommands(Resolve(ce.Args))
}

// RunsItsCommands reports whether the program is find -exec, xargs,
// flock or GNU time given a command, which it runs as its child and waits
// for: a signal to the program ends it alone, and the command goes on
// (`flock app.lock ./server >log 2>&1 & … kill $!` leaves the server, in
// all four shells).
func RunsItsCommands(r Resolved) bool {
	switch r.Name {
	case "find", "xargs", "time", "xvfb-run":
		return len(RunCommands(r)) > 0
	case "flock":
		// -F (--no-fork) execs the command in flock's place.
		return len(RunCommands(r)) > 0 && !ArgvOf(r).Has("-F", "--no-fork")
	}
	return false
}
