package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// A group number ps looked up and nobody trimmed: `kill -- -$(ps -o pgid=
// $DEV)`. ps right-aligns the number in a column five characters wide, so
// a pid below 10000 comes with blanks before it, and the unquoted word
// splits there (as `PGID=$(ps -o pgid= $DEV); kill -- -$PGID` does outside
// zsh, which splits no parameter): the kill gets a lone `-` and the
// number. bash, zsh and mksh refuse the `-` ("arguments must be process or
// job IDs") and signal the number as a pid; dash stops at it ("Illegal
// number") and signals nothing (see kill_badarg.go). The number is the
// group the job is in: without job control the shell's own, whose leader
// is the script itself where the caller starts it as a group leader
// (agent tools), so the kill is the script's `kill $$` and the jobs live
// on (bash, zsh; mksh takes them with it as it dies, see
// deathTakesGroup); in the caller's group it is the caller's leader,
// nothing of the script's. A job that leads its own group (setsid,
// timeout, set -m) is signalled by its pid alone. Quoted, `-"$(ps …)"`
// does not split, and `-   123` is an operand bash, zsh and mksh refuse
// ("arguments must be process or job IDs", "illegal pid"): they signal
// nothing, and the kill fails; dash reads it as the group
// (dialect.groupBlanks). With pids of five digits or more there are no
// blanks and the kill reaches the group: the walk takes the padded
// number, the outcome where the kill ends the least, and the one in a
// container or a PID namespace, whose pids are small (checked under the
// four shells as group leaders in a namespace; the corpus's stand-ins
// widen the column, `pgid:9=`, so that CI machines with long pids see the
// padding too). A column one character wide (`pgid:1=`) pads nothing.

// padding says what became of the blanks ps put before a group number.
type padding uint8

const (
	padTrimmed padding = iota // a filter took them out: -123
	padSplit                  // the unquoted word split there: - 123
	padKept                   // quoted, or not split (zsh's $PGID): `-   123`
)

// splitGroup returns the operands the untrimmed, split operand
// -$(ps -o pgid= PID) becomes, PID naming the jobs js (own: those that
// lead their own group).
func (w *walker) splitGroup(pid *syntax.Word, js []*Job, own func(*Job) bool) []*syntax.Word {
	ops := []*syntax.Word{knowledge.LitWord("-")}
	switch {
	case !isShellPid(pid) && len(js) > 0 && !slices.ContainsFunc(js, func(j *Job) bool { return !own(j) }):
		return append(ops, pid) // the group it leads has its pid for number
	case w.p.Cfg.Caller != dialect.CallerGroupLeader:
		return ops // the caller's leader: nothing of the script's
	case w.nest.depth == 0:
		return append(ops, paramWord("$")) // the script, also from its subshells
	case w.kills.ppidScript != nil:
		return append(ops, paramWord("PPID")) // sh -c '…': its parent, the script
	}
	return ops
}

// soleSubst is the command substitution a variable holds when the script
// assigns it once, to that alone (`PGID=$(ps -o pgid= $P)`), or nil.
func (w *walker) soleSubst(pe *syntax.ParamExp) *syntax.CmdSubst {
	if pe.Param == nil || pe.Exp != nil || pe.Index != nil || pe.Length || pe.Excl {
		return nil
	}
	f := w.src.File
	if f == nil || w.nest.depth == 0 {
		f = w.p.File
	}
	if opaqueAssigns(f, w.sh.d.Missing) {
		return nil
	}
	name := pe.Param.Value
	var val *syntax.Word
	n := 0
	knowledge.Inspect(f, func(node syntax.Node) bool {
		switch node := node.(type) {
		case *syntax.Assign:
			if node.Name != nil && node.Name.Value == name {
				n++
				val = node.Value
				if node.Append || node.Index != nil || node.Array != nil {
					n++
				}
			}
		case *syntax.WordIter:
			if node.Name != nil && node.Name.Value == name {
				n++
			}
		case *syntax.CallExpr:
			if len(node.Args) > 1 && knowledge.WordLit(node.Args[0]) == "read" && slices.ContainsFunc(node.Args[1:], func(a *syntax.Word) bool { return knowledge.WordLit(a) == name }) {
				n += 2 // read PGID
			}
		}
		return n < 2
	})
	if n != 1 || val == nil {
		return nil
	}
	switch p := knowledge.SolePart(val).(type) {
	case *syntax.CmdSubst:
		return p
	}
	return nil
}
