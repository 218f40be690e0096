package analyze

import "mvdan.cc/sh/v3/syntax"

// assignsReadonly reports whether s assigns a parameter the shell keeps
// read-only (see dialect.readonlyParams), an error that ends a
// non-interactive shell before anything after it runs: zsh's $status is
// $?, so a test script's `npm test; status=$?; kill $SERVER_PID; exit
// $status` ends at the assignment under zsh and leaves the server (zsh
// says "read-only variable: status"; checked under zsh 5.9, in a function
// too, and `||` after it does not help).
func (w *walker) assignsReadonly(s *syntax.Stmt) bool {
	d := w.sh.d
	if d.readonlyParams == nil || s.Background {
		return false
	}
	var assigns []*syntax.Assign
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		assigns = c.Assigns
	case *syntax.DeclClause:
		assigns = c.Args
	case *syntax.ForClause:
		wi, ok := c.Loop.(*syntax.WordIter)
		return ok && len(wi.Items) > 0 && d.readonlyParams.has(wi.Name.Value)
	}
	for _, a := range assigns {
		if a.Name != nil && d.readonlyParams.has(a.Name.Value) {
			return true
		}
	}
	return false
}
