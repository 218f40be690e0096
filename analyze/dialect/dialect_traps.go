package dialect

import (
	"slices"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// trapRule says which traps keep a shell from exec'ing the last command of
// a -c string in place: with a trap set, the shell must still be there
// after the command to run it. Observed by comparing $$ with the pid of
// the last command (`bash -c 'trap … ; sh -c "echo \$\$"'`):
//
//   - bash forks after an EXIT or ERR trap, even an empty one, and after a
//     signal trap with an action; an ignored signal (`trap "" INT`), a
//     DEBUG or RETURN trap, or a reset (`trap - EXIT`) does not count;
//   - zsh forks after any trap with an action, DEBUG included; an empty
//     action does not count.
type trapRule uint8

const (
	trapsNone trapRule = iota
	trapsBash
	TrapsZsh
)

// TrapsSet reports whether the statements of list, run in order in the
// shell itself (through and-or lists, { } and if, not subshells or
// function bodies), leave a trap set that makes the shell fork its last
// command. Only traps that certainly apply count: a missed trap makes the
// analysis assume the fork (and a setsid there does not fork), which can
// only hide a hang, never invent one, when the trap is in doubt.
func TrapsSet(list []*syntax.Stmt, d *Dialect) bool { return TrapsSetBy(list, d, d.trapsForkTail) }

// TrapsSetBy is trapsSet with the shell's rule given: a subshell of dash
// keeps itself for a trap as zsh does (see walk_fgtails.go).
func TrapsSetBy(list []*syntax.Stmt, d *Dialect, rule trapRule) bool {
	if rule == trapsNone || len(list) < 2 {
		return false
	}
	var set map[string]bool // made on the first trap: most lists set none
	for _, s := range list[:len(list)-1] {
		visitTraps(s, d, rule, &set)
	}
	for _, on := range set {
		if on {
			return true
		}
	}
	return false
}

// visitTraps records in set the traps s sets in the shell itself, and
// whether each makes it fork its last command (see trapsSet).
func visitTraps(s *syntax.Stmt, d *Dialect, rule trapRule, set *map[string]bool) {
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if s.Background || len(c.Args) < 3 || knowledge.WordLit(c.Args[0]) != "trap" {
			return
		}
		action, _, ok := knowledge.Unquote(c.Args[1], false)
		if !ok {
			action = "?" // an expansion: some action
		}
		for _, a := range d.TrapSets(c.Args[2:]) {
			sig := normalSignal(knowledge.WordLit(a))
			if sig == "" {
				continue
			}
			if *set == nil {
				*set = map[string]bool{}
			}
			(*set)[sig] = action != "-" && rule.forks(sig, action)
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			visitTraps(c.X, d, rule, set)
			visitTraps(c.Y, d, rule, set)
		}
	case *syntax.Block:
		for _, s := range c.Stmts {
			visitTraps(s, d, rule, set)
		}
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			for _, s := range ic.Then {
				visitTraps(s, d, rule, set)
			}
		}
	}
}

// forks reports whether a trap on sig with action makes the shell keep
// itself for it.
func (r trapRule) forks(sig, action string) bool {
	switch r {
	case trapsBash:
		switch sig {
		case "EXIT", "ERR":
			return true
		case "DEBUG", "RETURN":
			return false
		}
		return action != ""
	case TrapsZsh:
		return action != ""
	}
	return false
}

// normalSignal is a trap's signal operand as one name: `0` and `EXIT`,
// `SIGINT`, `int` and `2` name the same traps. "" for what cannot be read.
func normalSignal(s string) string {
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	switch s {
	case "":
		return ""
	case "0":
		return "EXIT"
	case "ZERR":
		return "ERR"
	}
	return s
}

// trapNames are the kinds of signal names a shell's trap may refuse (see
// dialect.trapRefuses).
type trapNames uint8

const (
	trapNoSigPrefix trapNames = 1 << iota // SIGINT
	trapNoPseudo                          // ERR, DEBUG, RETURN
	trapUpperOnly                         // exit, int
	trapNoSigPseudo                       // SIGEXIT, SIGERR: no SIG before bash's own names
	// trapGoesOn: a refused name is skipped and the names after it are
	// set (bash); without it trap stops at the first (dash, zsh)
	trapGoesOn
)

// TrapSets returns the signal words of a trap command that the shell
// sets: all of them, or those before the first it refuses (see
// dialect.trapRefuses).
func (d *Dialect) TrapSets(sigs []*syntax.Word) []*syntax.Word {
	if d.TrapRefuses == 0 {
		return sigs
	}
	for i, a := range sigs {
		if !d.trapRefused(knowledge.WordLit(a)) {
			continue
		}
		if d.TrapRefuses&trapGoesOn == 0 {
			return sigs[:i]
		}
		set := slices.Clone(sigs[:i])
		for _, b := range sigs[i+1:] {
			if !d.trapRefused(knowledge.WordLit(b)) {
				set = append(set, b)
			}
		}
		return set
	}
	return sigs
}

// trapRefused reports whether the shell's trap refuses the signal name n.
func (d *Dialect) trapRefused(n string) bool {
	r := d.TrapRefuses
	switch {
	case r&trapNoPseudo != 0 && (strings.EqualFold(n, "ERR") || strings.EqualFold(n, "DEBUG") || strings.EqualFold(n, "RETURN")):
		return true
	case r&trapNoSigPrefix != 0 && sigPrefixed(n):
		return true
	case r&trapUpperOnly != 0 && strings.ToUpper(n) != n:
		return true
	case r&trapNoSigPseudo != 0 && sigPrefixed(n):
		switch strings.ToUpper(n[3:]) {
		case "EXIT", "ERR", "DEBUG", "RETURN":
			return true // bash: "SIGEXIT: invalid signal specification"
		}
	}
	return false
}
