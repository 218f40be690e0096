package analyze

import "github.com/shguard/shguard/analyze/rules"

// The rules live in package rules, one file each (analyze/rules/sgNNNN_*.go
// says what each finds and why); these names keep the clients of package
// analyze (the CLIs, hook, rewrite, the LSP server) compiling unchanged.

// Rule is one check: its ID, name, severity and documentation.
type Rule = rules.Rule

// Lookup returns the rule with the given ID or name (case-insensitive:
// SG1001, background-output), or nil.
func Lookup(idOrName string) *Rule { return rules.Lookup(idOrName) }

// Rules returns every rule, ordered by ID.
func Rules() []*Rule { return rules.Rules() }

// Each rule, by ID.
var (
	NotValidShell         = &rules.NotValidShell         // SG1000
	BackgroundHoldsOutput = &rules.BackgroundHoldsOutput // SG1001
	CompoundBackground    = &rules.CompoundBackground    // SG1002
	BackgroundBlocksShell = &rules.BackgroundBlocksShell // SG1003
	AmpGtDash             = &rules.AmpGtDash             // SG1004
	UnmanagedBackground   = &rules.UnmanagedBackground   // SG2001
	Nohup                 = &rules.Nohup                 // SG2002
	Setsid                = &rules.Setsid                // SG2003
	Disown                = &rules.Disown                // SG2004
	DoubleFork            = &rules.DoubleFork            // SG2005
	Coproc                = &rules.Coproc                // SG2006
	JobControl            = &rules.JobControl            // SG2007
	Daemonizes            = &rules.Daemonizes            // SG2008
	ForegroundServer      = &rules.ForegroundServer      // SG3001
	SetsidForeground      = &rules.SetsidForeground      // SG3002
	NotPOSIX              = &rules.NotPOSIX              // SG3003
	InvalidDirective      = &rules.InvalidDirective      // SG3101
	UnusedDirective       = &rules.UnusedDirective       // SG3102
)
