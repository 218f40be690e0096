package walk

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// zsh's try/always, `{ server & P=$!; ./e2e } always { kill $P }`, which
// mvdan.cc/sh does not parse. zshmisc(1), Complex Commands: "First execute
// try-list. Regardless of errors, or break or continue commands encountered
// within try-list, execute always-list. Execution then continues from the
// result of the execution of try-list". Src/loop.c's exectry runs the
// always block after the try block with errflag, retflag and breaks saved
// and cleared, and puts them back after it. What that block does not
// survive is an exit: bin_exit (Src/builtin.c) calls zexit at once outside
// a function, so `{ …; exit 1 } always { kill $P }` at the top kills
// nothing, while inside a function it only sets retflag and exit_pending,
// so the always block runs first there; ERR_EXIT ends the shell at once
// too, in a function or not (checked under zsh 5.9).
//
// parseZsh reads the text with each such `always` turned into `;` and
// blanks, without changing a byte's offset, so the always block is the
// statement after its try block; pass.always keeps where they were (the
// try block's Semicolon). The walk then runs the two in order, which is
// what zsh does at the top; in a function stmts runs the always block
// before the try block's exit or return takes effect (see alwaysBlock).

// alwaysBlock returns the always block of the statement s of list (at i)
// when s is a try block, or nil.
func (w *walker) alwaysBlock(list []*syntax.Stmt, i int) *syntax.Stmt {
	if len(w.p.always) == 0 || i+1 >= len(list) || w.src != &w.p.Root.Src {
		return nil
	}
	s := list[i]
	if _, ok := s.Cmd.(*syntax.Block); !ok || !slices.Contains(w.p.always, int(s.Semicolon.Offset())) {
		return nil
	}
	return list[i+1]
}

// alwaysFirst reports whether the always block of a try block runs before
// an exit or return the try block takes: in a function (bin_exit defers
// the exit to the function's return), unless ERR_EXIT may end the shell
// at once.
func (w *walker) alwaysFirst() bool { return len(w.fns.calling) > 0 && !w.sh.errexit }
