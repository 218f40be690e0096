package diag

import (
	"fmt"
	"strings"
)

// Severity says what a finding means for the caller of the shell. The levels
// have exact meanings that tests, the corpus and CI gates rely on.
type Severity int

const (
	// Info is advice: nothing hangs and nothing leaks, but there is a better
	// way (a dev server run in the foreground, say).
	Info Severity = iota + 1
	// Warning: nothing hangs, but something outlives the shell unmanaged.
	Warning
	// Error: the caller will not get EOF when the shell exits, or the shell
	// itself blocks.
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// MarshalText makes severities appear as their names in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText accepts what MarshalText produces.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSeverity reads "error", "warning" or "info" (case-insensitive; "note"
// and "style" are accepted as info, as ShellCheck users type them).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info", "note", "style":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Position is a place in the analyzed source. Offset is a 0-based byte
// offset; Line and Col are 1-based, Col counting bytes like the parser does.
type Position struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Col    int `json:"column"`
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Edit replaces the bytes [Start, End) of the original source with New.
// Like golang.org/x/tools/go/analysis.TextEdit, edits are against the
// original bytes, never a reprint of the syntax tree, so comments, spacing
// and here-doc bodies outside the edit stay byte for byte.
type Edit struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// Fix is a set of edits that removes the problem a finding describes without
// changing anything else the command does. A finding carries a fix only
// when that is provably so; otherwise it carries a Suggestion instead.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// Finding is one problem found in a command.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Start    Position `json:"start"`
	End      Position `json:"end"`
	// Message says what will happen and what to do about it.
	Message string `json:"message"`
	// Suggestion is a remedy that changes behaviour (a redirection the user
	// has to choose, or promotion to a managed job); it is never applied
	// automatically.
	Suggestion string `json:"suggestion,omitempty"`
	// Fixes keep behaviour apart from the removed hang or leak; --fix
	// applies them.
	Fixes []Fix `json:"fixes,omitempty"`
	// URL is the rule's documentation page (Rule.URL).
	URL string `json:"url,omitempty"`
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s: %s [%s]", f.Start, f.Severity, f.Message, f.Rule)
}

// ParseError is returned when the source is not valid shell. Line and Col
// are 1-based.
type ParseError struct {
	Line, Col int
	Msg       string
	// Shell is the shell the source was parsed for; ValidIn, when not
	// empty, another shell whose syntax accepts it (`-s zsh`).
	Shell, ValidIn string
	Offset         int    // byte offset, -1 if unknown
	Src            []byte // the source, to try other shells on
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Verdict is the highest severity among findings that are at least
// warnings: Error, Warning, or 0 when the command is clean (info findings
// are advice and do not change the verdict).
func Verdict(fs []Finding) Severity {
	v := Severity(0)
	for _, f := range fs {
		if f.Severity >= Warning && f.Severity > v {
			v = f.Severity
		}
	}
	return v
}

// ParseErrorRule is the rule a *ParseError is reported as (SG1000,
// NotValidShell). It is declared here, below the rules, so that a
// ParseError can make its own Finding.
const ParseErrorRule = "SG1000"

// RuleURL is the page of a rule, docs/rules/SGxxxx.md in the repository.
func RuleURL(id string) string {
	return "https://github.com/shguard/shguard/blob/main/docs/rules/" + id + ".md"
}

// Finding is the parse error as a finding of NotValidShell, at its
// position (Offset -1 when the parser did not give one).
func (e *ParseError) Finding() Finding {
	pos := Position{Offset: e.Offset, Line: e.Line, Col: e.Col}
	return Finding{Rule: ParseErrorRule, Severity: Error, Start: pos, End: pos, Message: e.Msg, URL: RuleURL(ParseErrorRule)}
}
