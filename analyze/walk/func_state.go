package walk

import "github.com/shguard/shguard/analyze/fdtable"

// funcState is the walker's state of the script's functions: those
// declared so far (and dropped again), the calls being walked with their
// arguments, locals and options, and the budget of the lighter passes
// over bodies that questions make (lookahead.go). Its readers are
// walk_funcs.go, walk_funcscope.go, walk_locals.go, walk_args.go,
// walk_funcopts.go and walk_inert.go; the walker holds it as w.fns.
type funcState struct {
	// funcs are the functions declared so far, by name. A body is walked
	// where the function is called, with the caller's descriptors and in
	// the caller's shell; bodies never called are walked at the end with
	// the descriptors of their declaration.
	funcs     map[string]*function
	funcOrder []string
	// dropped are the definitions a subshell's end or an `unset -f`
	// removed, for walkUncalled (see walk_funcscope.go).
	dropped []*function
	// inertVisiting are the functions whose inertness is being decided
	// (see inertCall), against recursion.
	inertVisiting map[*function]bool
	// funcEnv is the descriptors a function call left the shell with,
	// when an exec in its body changed them.
	funcEnv *fdtable.Table
	calling map[string]bool
	// bodyLooks counts the function bodies read by questions since the
	// walk's last step (see lookahead.go).
	bodyLooks int
	// funcReplays counts the lighter passes over function bodies (see
	// maxFuncReplays).
	funcReplays int
	// locals are the variables the functions being called declared
	// local, with what they hid; localsFrom is where the innermost
	// call's begin (see walk_locals.go).
	locals     []localVar
	localsFrom int
	// args are the positional parameters of the function call being
	// walked, nil where they are not known (see walk_args.go).
	args *argFrame
	// localOpts: the function call being walked puts the shell's options
	// back when it returns (see walk_funcopts.go).
	localOpts bool
}
