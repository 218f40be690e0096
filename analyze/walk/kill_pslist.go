package walk

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// Kills by a process listing: `ps aux | grep '[v]ite' | awk '{print $2}'
// | xargs kill`, `kill $(ps -ef | grep server | grep -v grep | awk
// '{print $2}')`, `ps -o pid= -C node | xargs kill`. ps prints a line per
// process of the machine, whose command column is its command line (aux,
// -ef, ax, -o args) or its name (-e, -o comm, -C NAME's selection); grep
// keeps the lines its pattern finds (a basic regular expression; -E
// extended, -F a fixed string, -i, -v the lines it does not find), awk
// prints the pid column of those a /RE/ of its program finds. Like
// `pgrep -f`, such a listing reaches every job whose command line the
// patterns find, and the shell itself when they find its own -c line,
// `sh -c SCRIPT`, which holds the text of every job the script starts:
// `[v]ite` keeps grep from finding itself, not the shell; `grep -v grep`
// drops the shell too, whose script holds the word grep. ps lists by pid,
// the shell first, so `kill $(…)` that finds the shell makes bash, zsh and
// dash die before they signal the job (mksh signals it first), and xargs's
// kill program signals them all, the shell included, which then dies
// there (see selfMatch, killsShell). Checked under bash, zsh, dash and
// mksh, as group leader and in the caller's group.

// psLine is what a listing line holds before its command column (user,
// pid, times): a pattern that finds it finds every process of the
// machine.
const psLine = "root 1234 1 0.0 0.0 11:15 ? S 00:00:00 "

// psListed reads s as a process listing that prints pids and returns the
// jobs it lists; ok is false for anything else, and for a listing whose
// lines the walk cannot judge (a pattern that is not a literal, a column
// other than the pid, a selection by parent or terminal).
func (w *walker) psListed(s *syntax.Stmt) (m nameMatch, ok bool) {
	elems := pipeElems(s)
	head, ok := elems[0].Cmd.(*syntax.CallExpr)
	if !ok || s.Background {
		return m, false
	}
	r := w.p.resolveCall(head)
	if r.Name != "ps" || r.NoProgram {
		return m, false
	}
	f, ok := w.psFormat(r.Args)
	if !ok {
		return m, false
	}
	var keep, drop []*regexp.Regexp
	pids := f.pidOnly
	for _, e := range elems[1:] {
		ce, isCall := e.Cmd.(*syntax.CallExpr)
		if !isCall || e.Background {
			return m, false
		}
		fr := w.p.resolveCall(ce)
		switch {
		case pids && (fr.Name == "tr" || fr.Name == "sort" || fr.Name == "uniq"):
			// (one pid a line, or on one line: the same pids)
		case !pids && isGrep(fr.Name):
			rx, invert, judged := w.grepPattern(fr)
			if !judged {
				return m, false
			}
			if invert {
				drop = append(drop, rx)
			} else {
				keep = append(keep, rx)
			}
		case !pids && fr.Name == "awk" && len(fr.Args) == 1:
			k, d, col, judged := awkPrints(w.wordValue(fr.Args[0]))
			if !judged || col != f.pidCol {
				return m, false
			}
			keep, drop, pids = append(keep, k...), append(drop, d...), true
		default:
			return m, false
		}
	}
	if !pids || !f.named && len(keep)+len(drop) > 0 {
		return m, false
	}
	lists := func(line string) bool {
		line = psLine + strings.ReplaceAll(line, "\n", " ") // (ps shows a newline as a blank)
		for _, rx := range keep {
			if !rx.MatchString(line) {
				return false
			}
		}
		for _, rx := range drop {
			if rx.MatchString(line) {
				return false
			}
		}
		return true
	}
	for _, rx := range append(keep, drop...) {
		if rx.MatchString(psLine) {
			return m, false // (a user, a time: every process, or none)
		}
	}
	m.full = f.full
	if f.full {
		m.listed = lists
	}
	m.addJobs(w.p.Jobs, false, func(argv []string) bool {
		name := knowledge.ProgramName(argv[0])
		if len(name) > 15 {
			name = name[:15] // the kernel's process name
		}
		if f.comm != "" && name != f.comm {
			return false
		}
		if f.full {
			return lists(strings.Join(argv, " "))
		}
		return lists(name)
	})
	return m, true
}

// psFormatted is what a ps command prints: the column (from 1) that holds
// the pid, whether a command column names the process (named) by its
// command line (full) or its name, and comm, the name -C selects.
type psFormatted struct {
	pidCol      int
	named, full bool
	comm        string
	pidOnly     bool // -o pid=: nothing but the pids
}

// psFormat reads ps's arguments: every process (aux, ax, -e, -A, -ef), or
// those of a name (-C NAME), in the default, user (u), full (-f, -F) or a
// custom (-o LIST) format. ok is false for options that narrow the
// selection to what the walk cannot judge or change the columns or their
// order otherwise (-p, --ppid, -t, --sort, -l…).
func (w *walker) psFormat(args []*syntax.Word) (f psFormatted, ok bool) {
	every, user, fullFmt, bsd := false, false, false, false
	var custom []string
	for i := 0; i < len(args); i++ {
		a := w.wordValue(args[i])
		next := func() string {
			if i+1 < len(args) {
				i++
				return w.wordValue(args[i])
			}
			return ""
		}
		switch {
		case a == "-C":
			f.comm = next()
		case a == "-o" || a == "o" || a == "--format" || a == "-eo" || a == "axo":
			every = every || a != "-o" && a != "o" && a != "--format"
			custom = append(custom, strings.Split(next(), ",")...)
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			custom = append(custom, strings.Split(a[2:], ",")...)
		case a == "--no-headers" || a == "h" || a == "-w" || a == "-ww" || a == "-x" || a == "x":
		case a == "-u" || a == "-U":
			next() // a user: the jobs run as us
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "eAfFw") == "" && len(a) > 1:
			every = every || strings.ContainsAny(a, "eA")
			fullFmt = fullFmt || strings.ContainsAny(a, "fF")
		case a != "" && strings.Trim(strings.TrimPrefix(a, "-"), "auxwh") == "":
			// BSD: aux, -aux, auxww, ax
			every = every || strings.Contains(a, "a") && strings.Contains(a, "x")
			user = user || strings.Contains(a, "u")
			bsd = true
		default:
			return f, false
		}
	}
	if !every && f.comm == "" {
		return f, false // (the processes of a terminal, which there is none of)
	}
	switch {
	case len(custom) > 0:
		return customFormat(f, custom)
	case user || fullFmt:
		f.pidCol, f.named, f.full = 2, true, true // USER PID …, UID PID PPID …
	default:
		f.pidCol, f.named, f.full = 1, true, bsd // ax: PID … COMMAND (args), -e: PID … CMD (the name)
	}
	return f, true
}

// customFormat reads a -o column list: the pid's column, and which
// command column comes last (a command line's blanks split it into
// fields awk counts past).
func customFormat(f psFormatted, cols []string) (psFormatted, bool) {
	for i, c := range cols {
		c = strings.TrimSuffix(c, "=") // (pid=: no header)
		switch c {
		case "pid":
			f.pidCol = i + 1
		case "args", "cmd", "command":
			f.named, f.full = true, true
		case "comm", "ucomm", "ucmd", "fname":
			f.named = true
		case "user", "uid", "ppid", "pgid", "sid", "stat", "tty", "etime", "time", "%cpu", "%mem", "rss", "vsz":
			continue // one field
		default:
			return f, false // (lstart's date holds blanks)
		}
		if c != "pid" && i != len(cols)-1 {
			return f, false
		}
	}
	f.pidOnly = len(cols) == 1 && f.pidCol == 1
	return f, f.pidCol > 0
}

func isGrep(name string) bool { return name == "grep" || name == "egrep" || name == "fgrep" }

// grepPattern compiles the pattern of a grep that filters lines (-E, -F,
// -i, -v; one pattern, or several -e, of which any finds a line). judged
// is false for other options and for a pattern that is not a literal.
func (w *walker) grepPattern(r knowledge.Resolved) (rx *regexp.Regexp, invert, judged bool) {
	ere, fixed, fold, byE := r.Name == "egrep", r.Name == "fgrep", false, false
	var pats []string
	for i := 0; i < len(r.Args); i++ {
		a := w.wordValue(r.Args[i])
		switch {
		case a == "":
			return nil, false, false
		case a == "-e" && i+1 < len(r.Args):
			i++
			pats, byE = append(pats, w.wordValue(r.Args[i])), true
		case a[0] == '-' && len(a) > 1 && strings.Trim(a[1:], "vEFi") == "":
			invert = invert || strings.Contains(a, "v")
			ere = ere || strings.Contains(a, "E")
			fixed = fixed || strings.Contains(a, "F")
			fold = fold || strings.Contains(a, "i")
		case a[0] == '-':
			return nil, false, false // -w, -x, -c, -o, -m…
		default:
			pats = append(pats, a)
		}
	}
	if len(pats) == 0 || len(pats) > 1 && !byE {
		return nil, false, false // (grep PAT FILE reads the file)
	}
	for i, p := range pats {
		switch {
		case p == "":
			return nil, false, false
		case fixed:
			pats[i] = regexp.QuoteMeta(p)
		case !ere:
			if pats[i], judged = breToERE(p); !judged {
				return nil, false, false
			}
		}
	}
	expr := "(?:" + strings.Join(pats, ")|(?:") + ")"
	if fold {
		expr = "(?i)" + expr
	}
	rx, err := regexp.Compile(expr)
	return rx, invert, err == nil
}

// breToERE rewrites a basic regular expression as an extended one: in a
// BRE `\(`, `\)`, `\|`, `\{`, `\}`, `\+` and `\?` are the operators (GNU)
// and the bare characters literal, `*` first is literal, and `\<`, `\>`
// are word boundaries. ok is false for a back-reference.
func breToERE(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			j := bracketEnd(p, i)
			b.WriteString(p[i:j])
			i = j - 1
		case c == '\\' && i+1 < len(p):
			i++
			switch d := p[i]; {
			case strings.IndexByte("(){}|+?", d) >= 0:
				b.WriteByte(d)
			case d == '<' || d == '>':
				b.WriteString(`\b`)
			case d >= '1' && d <= '9':
				return "", false
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case strings.IndexByte("(){}|+?", c) >= 0, c == '*' && (i == 0 || p[i-1] == '^'):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// bracketEnd is the index after the bracket expression that starts at i
// (a `]` first, or after `^`, is one of its characters).
func bracketEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
			if k := strings.Index(p[j+2:], ":]"); k >= 0 {
				j += k + 3
				continue
			}
		}
		if p[j] == ']' {
			return j + 1
		}
	}
	return len(p)
}

// awkPrints reads an awk program that prints one field of the lines its
// patterns find: `{print $2}`, `/[v]ite/ {print $2}`, `/node/ && !/grep/
// {print $2}` (extended regular expressions). It returns the patterns a
// line must match and those it must not, and the field.
func awkPrints(prog string) (keep, drop []*regexp.Regexp, field int, ok bool) {
	s := strings.TrimSpace(prog)
	for s != "" && s[0] != '{' {
		neg := s[0] == '!'
		if neg {
			s = strings.TrimSpace(s[1:])
		}
		if s == "" || s[0] != '/' {
			return nil, nil, 0, false
		}
		end := 1
		for end < len(s) && s[end] != '/' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return nil, nil, 0, false
		}
		rx, err := regexp.Compile(s[1:end])
		if err != nil {
			return nil, nil, 0, false
		}
		if neg {
			drop = append(drop, rx)
		} else {
			keep = append(keep, rx)
		}
		s = strings.TrimSpace(s[end+1:])
		if strings.HasPrefix(s, "&&") {
			s = strings.TrimSpace(s[2:])
		} else if s != "" && s[0] != '{' {
			return nil, nil, 0, false
		}
	}
	body := strings.Join(strings.Fields(strings.Trim(s, "{}; \t\n")), "")
	if !strings.HasPrefix(body, "print$") || !strings.HasSuffix(s, "}") {
		return nil, nil, 0, false
	}
	field, err := strconv.Atoi(strings.TrimSuffix(body[len("print$"):], ";"))
	return keep, drop, field, err == nil && field > 0
}
