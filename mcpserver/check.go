//go:build linux || darwin || freebsd

package mcpserver

import (
	"errors"
	"path/filepath"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// Finding is one finding of the analysis, as the model sees it.
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// lang is the analyzer's dialect for a shell name or path.
func lang(shell string) analyze.Lang {
	switch filepath.Base(shell) {
	case "sh", "dash", "ash", "posix":
		return analyze.LangPOSIX
	case "mksh", "ksh":
		return analyze.LangMksh
	}
	return analyze.LangBash
}

// analyzeCommand returns the findings of a command and its fixed text. A
// command that does not parse gets one SG1000 (not-valid-shell) finding: the shell
// will reject it too, and the model should know why.
func analyzeCommand(cmd, shell string) (fs []Finding, fixed string) {
	fs = []Finding{}
	res, err := analyze.Run([]byte(cmd), analyze.WithLang(lang(shell)))
	var pe *analyze.ParseError
	if errors.As(err, &pe) {
		return append(fs, Finding{Rule: analyze.NotValidShell.ID, Severity: "error", Message: pe.Msg, Line: pe.Line, Column: pe.Col}), cmd
	}
	if err != nil {
		return append(fs, Finding{Rule: "internal", Severity: "info", Message: err.Error()}), cmd
	}
	// One analysis: the findings are the command's, the fix is made from
	// them (only its output is analysed again).
	out := rewrite.FixResult([]byte(cmd), res, analyze.WithLang(lang(shell)))
	for _, f := range res.Findings {
		fs = append(fs, Finding{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Line: f.Start.Line, Column: f.Start.Col})
	}
	return fs, string(out.Out)
}
