package walk

import (
	"slices"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// The walk asks about the same command many times in a row: its status
// left of && and ||, whether it may exit, whether it is a kill the run
// takes, a function, a program run in place. Each time resolve reads its
// words and looks its name up in tables, about a twentieth of an
// analysis; the pass keeps the last few answers.

// resolvedCall is resolve's answer for one command.
type resolvedCall struct {
	ce   *syntax.CallExpr
	args []*syntax.Word // ce.Args when resolved
	r    knowledge.Resolved
}

// resolveCall is resolve(ce.Args), remembered. A command the walk makes
// up for a moment (xargs' command, coproc's) may take the place of an
// earlier one, so the words are compared too: resolve's answer depends
// on nothing else. The answer is a copy: changing its fields (walker.call
// drops the arguments of a print the shell lacks) changes nothing for the
// next caller.
func (p *Pass) resolveCall(ce *syntax.CallExpr) knowledge.Resolved {
	for i := range p.resolvedCalls {
		if c := &p.resolvedCalls[i]; c.ce == ce && slices.Equal(c.args, ce.Args) {
			return c.r
		}
	}
	r := knowledge.Resolve(ce.Args)
	p.resolvedCalls[p.nextResolved] = resolvedCall{ce, ce.Args, r}
	p.nextResolved = (p.nextResolved + 1) % len(p.resolvedCalls)
	return r
}

// forgetResolved clears what resolveCall keeps. A parse during the walk
// may put its nodes where the collector freed those of an earlier nested
// tree, so that a pointer no longer names the command it did.
func (p *passState) forgetResolved() {
	for i := range p.resolvedCalls {
		if p.resolvedCalls[i].ce != nil {
			p.resolvedCalls[i] = resolvedCall{}
		}
	}
	p.nextResolved = 0
}
