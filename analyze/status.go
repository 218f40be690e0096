package analyze

import "mvdan.cc/sh/v3/syntax"

// status tells the exit status of a statement when it is known without
// running it: 1 it succeeds, -1 it fails, 0 it depends. Only commands that
// cannot fail (true, :, echo, a literal sleep…) and false are known;
// anything that touches the world (cd, curl, a test) depends.
func status(s *syntax.Stmt) int {
	st := 0
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		st = callStatus(s, c)
	case *syntax.BinaryCmd:
		x, y := status(c.X), status(c.Y)
		switch c.Op {
		case syntax.AndStmt: // fails if either fails; succeeds if both do
			switch {
			case x < 0 || y < 0:
				st = -1
			case x > 0 && y > 0:
				st = 1
			}
		case syntax.OrStmt: // succeeds if either does; fails if both fail
			switch {
			case x > 0 || y > 0:
				st = 1
			case x < 0 && y < 0:
				st = -1
			}
		}
	}
	if s.Negated {
		st = -st
	}
	return st
}

func callStatus(s *syntax.Stmt, c *syntax.CallExpr) int {
	if len(s.Redirs) > 0 || s.Background {
		return 0 // a redirection can fail; a job's status is not its own
	}
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Value != nil && !plainWord(a.Value) || a.Array != nil {
				return 0 // x=$(cmd) has cmd's status
			}
		}
		return 1
	}
	r := resolve(c.Args)
	if r.wrapped || len(r.all) == 0 {
		return 0
	}
	switch r.name {
	case "true", ":", "echo", "printf":
		return 1
	case "false":
		return -1
	case "sleep":
		if _, ok := sleepFor(r.args); ok {
			return 1
		}
	}
	return 0
}
