package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// trapState is the walker's state of trap actions: the EXIT trap whose
// action is being walked, the trap bodies on the way, the signals the
// shell traps for itself, and zsh's exit hooks.
type trapState struct {
	// endTrap is the EXIT trap being walked as its shell ends (see
	// trapReaches).
	endTrap *trapBody
	// trapLists are the lists of the EXIT trap being walked that set -e
	// ends at a command known to fail (see walk_errexit.go).
	trapLists [][]*syntax.Stmt
	// selfTraps are the actions of the traps a kill of the shell itself
	// is running (see runSelfTrap).
	selfTraps []string
	// localTrapSigs are the signals whose traps the function call being
	// walked set under zsh's LOCAL_TRAPS (see zsh_functraps.go).
	localTrapSigs dialect.SigSet
	// exitHooks are the functions zsh's zshexit_functions names
	// (hooksArray: it is an array), hookLoaded: add-zsh-hook was
	// autoloaded (see zsh_exithooks.go)
	exitHooks              []string
	hooksArray, hookLoaded bool
}
