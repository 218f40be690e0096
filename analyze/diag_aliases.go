package analyze

import "github.com/shguard/shguard/analyze/diag"

// The public names that moved to package diag,
// kept here so that the package's clients compile unchanged.

type Edit = diag.Edit

const Error = diag.Error

type Finding = diag.Finding

type Fix = diag.Fix

const Info = diag.Info

type ParseError = diag.ParseError

// ParseSeverity reads "error", "warning" or "info" (case-insensitive; "note"
// and "style" are accepted as info, as ShellCheck users type them).
func ParseSeverity(s string) (Severity, error) { return diag.ParseSeverity(s) }

type Position = diag.Position

type Severity = diag.Severity

// Verdict is the highest severity among findings that are at least
// warnings: Error, Warning, or 0 when the command is clean (info findings
// are advice and do not change the verdict).
func Verdict(fs []Finding) Severity { return diag.Verdict(fs) }

const Warning = diag.Warning
