//go:build linux && planner

package main

import (
	"strings"

	"github.com/shguard/shguard/analyze"
	_ "github.com/shguard/shguard/internal/startstack" // as in shexec
	"github.com/shguard/shguard/rewrite"
)

// With -tags planner, isolated links what shexec links to plan the
// promotion of background statements, and plans as exec.Run has shexec's
// planner plan: only a command with a '&' (a command without one has no
// background statement to promote). The plan is not used: the command
// runs as written.
func init() {
	plan = func(cmd string) {
		if strings.Contains(cmd, "&") {
			rewrite.Plan([]byte(cmd), analyze.WithLang(analyze.LangBash))
		}
	}
}
