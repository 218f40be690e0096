package analyze

import (
	"path"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// call is a simple command the shell runs in the foreground, seen through
// its wrappers. Only programs a rule looks at by name are kept.
type call struct {
	start, end int // outer offsets of the whole command
	res        resolved
	async      bool // part of a background job
}

// readsQuickWorkers reports whether r is a filter (cat, grep, sort…)
// whose only operands are `<(…)` whose pipes close at once: it reads them
// to their end, and so ends at once too (`cat <(echo x)`).
// Only the pipes of its own operands count: a worker nested inside one of
// them writes into a pipe of its own (`cat <(: <(server))`).
func readsQuickWorkers(r resolved, started []*job) bool {
	if !filters.has(r.name) || r.wrapped {
		return false
	}
	var read []syntax.Pos
	for _, a := range r.args {
		if strings.HasPrefix(wordLit(a), "-") {
			continue
		}
		if len(a.Parts) != 1 {
			return false
		}
		ps, ok := a.Parts[0].(*syntax.ProcSubst)
		if !ok || ps.Op != syntax.CmdIn {
			return false
		}
		read = append(read, ps.OpPos)
	}
	for _, j := range started {
		if j.worker && !j.pipeBrief && slices.Contains(read, j.stmt.Position) {
			return false // its pipe stays open a while: the filter reads on
		}
	}
	return len(read) > 0
}

// call walks a simple command. env is the shell's table before the
// command's redirections (substitutions in the words see it), inner after.
func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr, env, inner fdTable) resolved {
	for _, a := range ce.Assigns {
		w.assign(a, env)
	}
	njobs := len(w.p.jobs)
	w.words(ce.Args, env)
	for _, d := range declArgs(ce) {
		w.p.sawAssign(d.name)
	}
	r := resolve(ce.Args)
	if len(ce.Args) > 0 && (len(r.all) == 0 || r.kind&kQuick == 0 || r.wrapped && r.forkedBefore) && r.name != "wait" && !w.runsCode(r, s) && !(r.exec && len(r.all) == 0 && !execsSomething(ce)) && (r.wrapped || w.funcs[r.name] == nil) && !catsDoc(r, s) && !readsQuickWorkers(r, w.p.jobs[njobs:]) {
		// (wait lasts as long as the jobs it waits for: see waitedFor; a
		// shell given its code as a literal, or a function, as long as
		// that code; exec without a command only redirects.)
		d, ok := r.bound()
		if ok {
			w.bounded += d
		} else {
			w.slow++
		}
		if !ok || d >= briefJob {
			w.fgLong(env, inner)
		}
		w.countTail(s, d, ok)
		w.workerCall(s, r, inner)
	}
	c := call{
		start: w.src.outer(int(s.Pos().Offset())),
		end:   w.src.outer(int(s.End().Offset())),
		res:   r,
		async: w.sh.async,
	}
	if len(r.all) == 0 {
		return r
	}
	if !c.async && (r.kind&kServer != 0 || w.p.cfg.servers[r.name]) {
		w.p.calls = append(w.p.calls, c) // what SG3001 looks at
	}

	if !r.fork && r.setsid && !r.setsidWaits && !r.forkedBefore && w.leads(s, r) {
		// The shell's own process, a group leader, execs setsid, which
		// then cannot make a session of itself: it forks and returns.
		r.fork = true
	}
	if r.fork {
		// setsid -f forks and returns at once: the forked process is a job
		// the shell has no handle on.
		j := w.p.newJob(job{stmt: s, src: w.src, fds: inner, kind: jobForked, setsid: true, nohup: r.nohup, prog: r.all})
		j.start, j.end = c.start, c.end
		j.inNested, j.remote = w.src.offs != nil, w.remote > 0
		d, bounded := r.bound()
		j.timed = r.kind&kQuick != 0 || bounded
		j.quick = r.kind&kQuick != 0 || bounded && d < briefJob
		j.dur = d
		w.p.jobs = append(w.p.jobs, j)
		if w.sh.kind == shSubshell {
			w.sh.jobs = append(w.sh.jobs, j)
		}
	}
	if how := daemonizes(r); how != "" {
		w.mark(mark{rule: "SG2008", start: c.start, end: c.end, what: how})
	}
	if r.setsid && !r.fork && w.job == nil && !w.sh.async {
		w.mark(mark{rule: "SG3002", start: c.start, end: c.end})
	}

	if r.name != "echo" && r.name != "printf" {
		if name, truncates := w.stdoutTo(s.Redirs, ""); truncates && (runsLiteral(r) || w.callsFunc(r)) {
			w.openPidFile(name) // sh -c '… & echo $!' > run.pid
		} else if len(w.p.pidFiles) > 0 {
			w.forgetWrites(s)
		}
	}
	if w.callsFunc(r) {
		w.saving(s.Redirs, env, inner, func() { w.callFunc(r.name, inner) })
		return r
	}
	if w.timeoutFiresInPlace(s, r) {
		w.timeoutKills(w.sh.jobs, r.timeoutSig)
	}
	switch r.name {
	case "echo", "printf", "print":
		if r.name == "print" && !w.sh.d.printBuiltin {
			// bash, dash: no such command; it prints nothing, and
			// `print $! > app.pid` leaves the file empty
			r.args = nil
		} else if inner[1] == tBlock && refersToLastPid(ce) {
			w.printed = append(w.printed, w.sh.lasts()...)
		}
		w.writePids(s, r, inner)
	case "wait":
		w.wait(r.args)
	case "kill":
		if w.killProgram(r) {
			// procps kill signals its arguments in order and stops at
			// the first it cannot parse, a job spec: `env kill %1`,
			// `/bin/kill %1 $P` end nothing.
			args := r.args
			if i := slices.IndexFunc(args, func(a *syntax.Word) bool { return strings.HasPrefix(argText(a), "%") }); i >= 0 {
				args = args[:i]
			}
			w.kill(args)
			break
		}
		w.kill(r.args)
	case "pkill", "killall":
		w.killByName(r)
	case "disown":
		if !w.sh.d.noDisown {
			w.disown(r.args, c)
		}
	case "fg", "bg":
		m := mark{rule: "SG2007", start: c.start, end: c.end, what: r.name}
		named, _, any := w.jobsNamed(r.args)
		m.jobs = named
		if !any && w.sh.last != nil {
			m.jobs = []*job{w.sh.last} // the current job
		}
		if r.name == "fg" && w.sh.monitor {
			// With job control on, fg brings the job to the foreground and
			// waits for it, as wait would.
			for _, j := range m.jobs {
				if !j.disowned && j.kind != jobForked {
					w.waitedFor(j)
				}
			}
		}
		w.mark(m)
	case "export", "readonly":
		if w.sh.d.exportFails(r.args) && !r.wrapped && wordLit(r.head) == r.name {
			w.shellEnds() // dash: export -f f
		}
	case "set":
		if w.sh.d.setFails(r.args) && !r.wrapped && wordLit(r.head) == "set" {
			w.shellEnds() // dash: set -o pipefail
			break
		}
		if on, off := setsNounset(r.args); on && w.cond == 0 {
			w.sh.nounset = true
		} else if off {
			w.sh.nounset = false
		}
		if on, off := setsOption(r.args, 'e', "errexit"); on && w.cond == 0 {
			w.sh.errexit = true
		} else if off {
			w.sh.errexit = false
		}
		for _, a := range r.args {
			v := wordLit(a)
			if (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "m")) || v == "monitor" {
				if v == "monitor" || !strings.Contains(v, "o") || strings.HasSuffix(v, "m") {
					if w.sh.d.monitorExits {
						if w.sh.kind == shTop && w.depth == 0 {
							w.p.ended = true
						}
						break
					}
					w.mark(mark{rule: "SG2007", start: c.start, end: c.end, what: "set -m", sh: w.sh, from: len(w.sh.jobs)})
					w.sh.monitor = !w.sh.d.monitorNeedsTty
					break
				}
			}
		}
	case "setopt", "unsetopt":
		w.setopt(r.args, r.name == "unsetopt")
	case "trap":
		if w.job != nil && w.job.sh == w.sh && trapRuns(r.args, w.sh.d) {
			w.job.trap = true
		}
		w.trap(r.args)
	case "alias":
		for _, a := range r.args {
			if name, _, ok := strings.Cut(wordLit(a), "="); ok {
				w.p.define(name)
			}
		}
	case "eval":
		w.nestedEval(r.args, inner)
	case "source", ".":
		// A script the command line wrote runs in the current shell.
		if len(r.args) > 0 && w.depth < maxNested {
			if sc := w.p.written[path.Clean(value(r.args[0]))]; sc != nil {
				w.nestedCode(sc.code, sc.offs, sc.quote, w.sh.d, inner, 0xff)
			}
		}
	default:
		if d := dialectOfProgram(r.name); d != nil {
			n, slow, bounded := len(w.p.jobs), w.slow, w.bounded
			w.nestedShell(r, d, inner, s)
			if w.timesOut(r, slow, bounded) {
				w.timeoutCuts(w.p.jobs[n:], r.timeoutSig)
				w.timeoutKills(w.p.jobs[n:], r.timeoutSig)
			}
		} else if w.runWrittenFile(s, r, inner) {
			// ./run.sh, a script the command line wrote: walked as such
		} else if r.name == "ssh" {
			w.remoteShell(r, inner)
		} else {
			for _, args := range runCommands(r) {
				w.call(s, &syntax.CallExpr{Args: args}, env, inner)
				if in := w.stdinFile(s); in != nil && r.name == "xargs" && len(args) > 0 && args[0].Lit() == "kill" {
					w.kill(append(slices.Clip(args[1:]), in)) // xargs kill < run.pid: kill $(< run.pid)
				}
			}
		}
	}
	return r
}

// timesOut reports whether the timeout a shell runs under (`timeout 5 sh
// -c '…'`) fires: the commands walked in it since the counts slow and
// bounded ran longer than its literal limit, or for a time nobody knows.
func (w *walker) timesOut(r resolved, slow int, bounded time.Duration) bool {
	return r.timeout && r.limit > 0 && !r.timeoutFg && (w.slow > slow || w.bounded-bounded >= r.limit)
}

// timeoutFiresInPlace reports whether s is a timeout that the shell execs
// in place of itself while it leads its process group, and whose command
// outlasts it for sure (`server & timeout 5 sleep 60` as the last command
// of zsh -c). timeout then finds itself already leading a group, the
// shell's, and its signal at the limit reaches every job the shell
// started (checked under zsh and bash, whose earlier `sleep &` job dies
// at the limit). Run in the caller's group, or not exec'd, timeout makes
// a group of its own and the jobs run on.
func (w *walker) timeoutFiresInPlace(s *syntax.Stmt, r resolved) bool {
	if !r.timeout || r.timeoutFg || r.limit == 0 {
		return false
	}
	d, ok := sleepFor(r.args)
	unbounded := r
	unbounded.timeout = false // a server or watcher, as it would run without timeout
	outlasts := r.name == "sleep" && ok && d >= r.limit || serverKind(unbounded) != ""
	return outlasts && w.leads(s, r)
}

// timeoutKills ends the jobs a command started when its timeout fires.
// GNU timeout runs the command in a process group of its own and, when
// the time is up, signals that whole group: the command's background jobs
// die with it (`timeout 60 sh -c 'server & exec tests'`), except those
// that left the group with setsid or ignore the signal (as background
// jobs do SIGINT and SIGQUIT: see jobsIgnore).
func (w *walker) timeoutKills(jobs []*job, sig string) {
	if !terminates(sig) || w.jobsIgnore(sig) {
		return
	}
	for _, j := range jobs {
		if !j.setsid && !j.ignores(sig) {
			w.end(j)
		}
	}
}

// killProgram reports whether the kill r runs is the program, not the
// shell's builtin: named by a path, run by a program wrapper, or by zsh's
// command.
func (w *walker) killProgram(r resolved) bool {
	return strings.Contains(wordLit(r.head), "/") || r.viaProgram || r.viaCommand && w.sh.d.commandSkipsBuiltins
}

// timeoutCuts undoes the waits of the shell a timeout ends (`timeout 60
// sh -c 'server & wait'`) for the jobs its signal does not reach: the wait
// ended with the shell, not with them. A job that left the group (setsid),
// or ignores the signal (background jobs SIGINT and SIGQUIT), runs on.
func (w *walker) timeoutCuts(jobs []*job, sig string) {
	for _, j := range jobs {
		if j.waited && !j.quick && (j.setsid || !terminates(sig) || w.jobsIgnore(sig) || j.ignores(sig)) {
			j.waited = false
		}
	}
}

// callsFunc reports whether the command runs a function the script
// defined. A function hides the builtin or program of its name (`bg() { …
// }; bg server` runs the function, not job control), except the special
// builtins where the dialect finds those first; through a wrapper
// (command, builtin, exec, env, nohup…) the name is never a function.
func (w *walker) callsFunc(r resolved) bool {
	return !r.wrapped && w.funcs[r.name] != nil && !(w.sh.d.specialBuiltinsFirst && specialBuiltins.has(r.name))
}

// specialBuiltins are POSIX's special builtins.
var specialBuiltins = setOf(`break : . continue eval exec exit export readonly return set shift times trap unset`)

// function is a declared shell function.
type function struct {
	body   *syntax.Stmt
	env    fdTable // descriptors where it was declared
	src    *source
	walked int // how many calls walked the body
	cost   funcCost
	// other is the definition of the same name that may still be in
	// force: this one was made in a branch that may not have run (see
	// walk_funcalts.go).
	other *function
}

// maxFuncWalks bounds how often one body is walked, so that functions
// calling functions cannot blow the walk up; later calls only apply what
// the body does to the caller's jobs (its wait and kill commands).
const maxFuncWalks = 3

// callFunc walks a function's body where it is called: in the calling
// shell (its jobs are the caller's, its wait and kill reach the caller's
// jobs: `cleanup() { kill "$pid"; }; trap cleanup EXIT`) and with the
// call's descriptors (`start >/dev/null 2>&1` redirects what start runs).
func (w *walker) callFunc(name string, env fdTable) {
	fn := w.funcs[name]
	if fn == nil || w.calling[name] {
		return
	}
	if w.calling == nil {
		w.calling = map[string]bool{}
	}
	w.calling[name] = true
	defer delete(w.calling, name)
	if fn.other != nil {
		w.callEither(fn, env)
		return
	}
	w.callBody(fn, env)
}

// callBody walks the body of the function fn for a call of it (see
// callFunc).
func (w *walker) callBody(fn *function, env fdTable) {
	if w.replayCall(fn) {
		return
	}
	if fn.walked < maxFuncWalks {
		fn.walked++
		saved, slow, bounded := w.src, w.slow, w.bounded
		var outer []trapBody
		if w.sh.d.funcExitTraps {
			// zsh: an EXIT trap set in the body is the function's own,
			// run when it returns; the shell's stays as it was.
			outer, w.sh.traps = w.sh.traps, nil
		}
		w.src = fn.src
		from, outerFrom := len(w.locals), w.localsFrom
		w.localsFrom = from
		if after := w.stmt(fn.body, env); after != env {
			w.funcEnv = &after // an exec in the body redirected the shell
		}
		w.restoreLocals(from) // (zsh runs the function's EXIT trap after)
		w.localsFrom = outerFrom
		if w.sh.d.funcExitTraps {
			own := w.sh.traps
			w.sh.traps = outer
			w.runTraps(own)
		}
		w.src = saved
		fn.cost.measured, fn.cost.slow, fn.cost.bounded = true, w.slow-slow, w.bounded-bounded
		return
	}
	inspect(fn.body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
			return false
		case *syntax.BinaryCmd:
			return n.Op == syntax.AndStmt || n.Op == syntax.OrStmt
		case *syntax.Stmt:
			return !n.Background && !n.Coprocess
		case *syntax.CallExpr:
			r := resolve(n.Args)
			switch r.name {
			case "wait":
				w.wait(r.args)
			case "kill":
				w.kill(r.args)
			default:
				w.callFunc(r.name, env)
			}
			return false
		}
		return true
	})
}

// walkUncalled walks, in declaration order, the bodies of functions no
// call reached (the EXIT traps have run by then), so that a library of
// functions is still checked. Each body runs in a shell of its own: a
// kill or wait in a function nobody calls reaches none of the script's
// jobs (`stop() { kill $pid; }; trap stop INT TERM; server & pid=$!`
// leaves the server when the script ends without a signal), and what the
// body starts is reported as the script's own jobs are.
func (w *walker) walkUncalled() {
	for _, name := range w.funcOrder {
		for fn := w.funcs[name]; fn != nil; fn = fn.other {
			w.walkUncalledBody(fn)
		}
	}
}

// walkUncalledBody walks the body of a definition no call reached in a
// shell of its own (see walkUncalled).
func (w *walker) walkUncalledBody(fn *function) {
	if fn.walked > 0 {
		return
	}
	fn.walked = maxFuncWalks
	saved, src, apart := w.sh, w.src, w.apart
	w.sh = w.newShell(shNested, false)
	w.sh.leads = saved.leads
	w.src = fn.src
	// Nor does a kill by a pid file or by name, which would reach any
	// process: `stop() { kill $(cat app.pid); }` or `{ pkill -f server; }`
	// never runs, so the jobs started before stay as they are.
	w.apart = append(slices.Clip(w.apart), w.p.jobs...)
	w.stmt(fn.body, fn.env)
	w.endShell()
	w.sh, w.src, w.apart = saved, src, apart
}

// assign notes variables that save a job's pid (pid=$!, pids+=($!)) and
// walks substitutions in the value.
func (w *walker) assign(a *syntax.Assign, env fdTable) {
	if a.Name != nil {
		w.p.sawAssign(a.Name.Value)
	}
	if a.Value != nil {
		saved := w.printed
		w.printed = nil
		w.words([]*syntax.Word{a.Value}, env)
		if a.Name != nil {
			// pid=$(server >log 2>&1 & echo $!): the variable names the
			// job, which `kill $pid` reaches (wait cannot: it is not this
			// shell's child).
			for _, j := range w.printed {
				w.pidVar(a.Name.Value, j)
			}
			w.substVar(a)
		}
		w.printed = saved
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil {
				w.words([]*syntax.Word{e.Value}, env)
			}
		}
	}
	if a.Name == nil || w.sh.last == nil {
		return
	}
	if a.Value != nil && plainWord(a.Value) && a.Array == nil {
		return // no $! in a literal
	}
	if w.indexBindsNoPid(a) {
		return // zsh: pids[1]=$! is the text "$!"; dash: no arrays
	}
	if refersToLastPid(a) {
		if w.replacesPid(a) {
			delete(w.sh.pidVars, a.Name.Value)
			delete(w.sh.joined, a.Name.Value)
			delete(w.sh.arrays, a.Name.Value)
		}
		held := len(w.sh.pidVars[a.Name.Value])
		for _, j := range w.sh.lasts() {
			w.pidVar(a.Name.Value, j)
		}
		if a.Index != nil {
			w.indexedPid(a, held) // pids[0]=$!
		}
		if a.Array != nil {
			w.sh.setArray(a.Name.Value)
		}
		if a.Array == nil && (!a.Append && refersTo(a.Value, a.Name.Value) || spaced(a.Value)) {
			if w.sh.joined == nil {
				w.sh.joined = map[string]bool{}
			}
			w.sh.joined[a.Name.Value] = true
		}
	}
}

func refersToLastPid(n syntax.Node) bool {
	found := false
	inspect(n, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "!" {
			found = true
		}
		return !found
	})
	return found
}

// catsDoc reports whether the command is `cat` printing a here-document or
// here-string, which ends as soon as it has written it.
func catsDoc(r resolved, s *syntax.Stmt) bool {
	return r.name == "cat" && !r.wrapped && len(r.args) == 0 && stdinDoc(s.Redirs) != nil
}

// refersTo reports whether a word expands the variable name.
func refersTo(word *syntax.Word, name string) bool {
	found := false
	if word == nil {
		return false
	}
	inspect(word, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == name {
			found = true
		}
		return !found
	})
	return found
}

// substVar binds a variable assigned a substitution the walk resolves
// (see substJobs): `J=$(jobs -p)` holds nothing in zsh and dash,
// `pid=$(cat run.pid)` the jobs whose pids went into run.pid.
func (w *walker) substVar(a *syntax.Assign) {
	name := a.Name.Value
	if a.Append || a.Array != nil || a.Index != nil || wordLit(a.Value) != "" || refersToLastPid(a.Value) {
		w.sh.setEmpty(name, false)
		return
	}
	js, known, empty := w.argJobs(a.Value)
	w.sh.setEmpty(name, known && empty)
	if known && empty {
		delete(w.sh.pidVars, name)
	} else if known {
		if w.sh.pidVars == nil {
			w.sh.pidVars = map[string][]*job{}
		}
		w.sh.pidVars[name] = js
		delete(w.sh.joined, name)
	}
}

// loopPids binds the variable of `for pid in $pids` to the jobs $pids
// holds, so that `kill $pid` in the body names them. Where the shell
// does not split the word (zsh, or "$pids" quoted), the loop runs once
// with the whole string, and a joined one is then one bad pid.
func (w *walker) loopPids(l *syntax.WordIter) {
	if l.Name == nil {
		return
	}
	w.sh.setEmpty(l.Name.Value, false)
	if w.loopSubsts(l) || len(l.Items) != 1 {
		return
	}
	pe, quoted := loneParam(l.Items[0])
	if pe == nil {
		return
	}
	js, ok := w.sh.pidVars[pe.Param.Value]
	if !ok {
		return
	}
	if el, ok := w.pidElement(pe, js); ok {
		js = el // an array's bare $pids is its first element (bash, mksh)
	}
	name := l.Name.Value
	w.sh.pidVars[name] = append([]*job(nil), js...)
	if w.sh.joined[pe.Param.Value] && !w.splits(pe, quoted) {
		w.sh.joined[name] = true
	} else {
		delete(w.sh.joined, name)
	}
}

// loopSubsts binds the variable of a loop over substitutions the walk
// resolves (see substJobs): over `$(jobs -p)` in zsh and dash the loop
// runs no round, and its variable holds nothing.
func (w *walker) loopSubsts(l *syntax.WordIter) bool {
	var named []*job
	empty := true
	for _, it := range l.Items {
		if wordLit(it) != "" || refersToLastPid(it) || len(it.Parts) != 1 {
			return false
		}
		if _, ok := it.Parts[0].(*syntax.CmdSubst); !ok {
			return false
		}
		js, known, e := w.argJobs(it)
		if !known {
			return false
		}
		named, empty = append(named, js...), empty && e
	}
	if len(l.Items) == 0 {
		return false
	}
	name := l.Name.Value
	w.sh.setEmpty(name, empty)
	delete(w.sh.joined, name)
	if empty {
		delete(w.sh.pidVars, name)
		return true
	}
	if w.sh.pidVars == nil {
		w.sh.pidVars = map[string][]*job{}
	}
	w.sh.pidVars[name] = named
	return true
}

// loneParam is the plain parameter expansion a word is made of alone
// ($x, ${x} or "$x"), if it is one.
func loneParam(w *syntax.Word) (pe *syntax.ParamExp, quoted bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return nil, false
		}
		part, quoted = dq.Parts[0], true
	}
	pe, _ = part.(*syntax.ParamExp)
	if pe == nil || pe.Param == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Index != nil || pe.Length || pe.Excl || pe.Width {
		return nil, false
	}
	return pe, quoted
}

// spaced reports whether a word has blanks in its literal text: its value
// is more than one pid, once joined (`pids=" $!"`).
func spaced(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, " \t\n") {
				return true
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok && strings.ContainsAny(l.Value, " \t\n") {
					return true
				}
			}
		}
	}
	return false
}

// fgLong notes a program that may take a while run in the foreground of
// a job's body: the job's subshell waits for it, and a kill of the
// subshell leaves it running (see killed). In a subshell of the body
// (`( (a; server) ; b ) &`) what runs on is that subshell, which holds
// its own table env as well.
func (w *walker) fgLong(env, inner fdTable) {
	j := w.job
	if j == nil {
		return
	}
	j.fgLong++
	j.fgFds = inner
	if !w.inJobShell(j) && !w.sh.execsElem {
		j.fgFds = inner.union(env)
	}
}

// inJobShell reports whether the walk is in the shell that is j's own
// process: the subshell of a compound job, or the shell a job runs
// (shell.process).
func (w *walker) inJobShell(j *job) bool { return w.sh == j.sh || w.sh.process == j }

// shellEnds marks that the shell the caller started ends here, on an
// error a non-interactive shell exits on (a special builtin that fails,
// an unset variable under set -u, a signal it sent itself): nothing after
// it runs. Only where the command runs for sure, in the shell's own
// process (not a subshell, a job, a nested shell), and in mksh not inside
// a function (see dialect.funcErrorReturns).
func (w *walker) shellEnds() bool {
	if w.cond != 0 || w.job != nil || w.sh.async || w.sh.kind != shTop || w.depth != 0 {
		return false
	}
	if w.sh.d.funcErrorReturns && len(w.calling) > 0 {
		return false
	}
	w.p.ended = true
	return true
}
