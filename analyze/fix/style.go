package fix

import (
	"fmt"
	"strings"
)

// Style chooses how compound background statements (`A && B &`) are fixed.
type Style int

const (
	// StyleExec turns `A && B &` into `A && exec B &`: the backgrounded
	// subshell becomes B, so nothing waits on B and nothing else changes.
	StyleExec Style = iota
	// StyleBrace turns `A && B &` into `A && { B & }`, the form a seed
	// platform shipped; A then runs in the foreground of the shell.
	StyleBrace
)

// ParseStyle reads "default" (or "exec") and "brace".
func ParseStyle(s string) (Style, error) {
	switch strings.ToLower(s) {
	case "default", "exec", "":
		return StyleExec, nil
	case "brace":
		return StyleBrace, nil
	}
	return 0, fmt.Errorf("unknown fix style %q (want default or brace)", s)
}

func (s Style) String() string {
	if s == StyleBrace {
		return "brace"
	}
	return "default"
}
