package analyze

import "github.com/shguard/shguard/analyze/rules"

// The public names that moved to package rules,
// kept here so that the package's clients compile unchanged.

var AmpGtDash = rules.AmpGtDash

var BackgroundBlocksShell = rules.BackgroundBlocksShell

var BackgroundHoldsOutput = rules.BackgroundHoldsOutput

var CompoundBackground = rules.CompoundBackground

var Coproc = rules.Coproc

var Daemonizes = rules.Daemonizes

var Disown = rules.Disown

var DoubleFork = rules.DoubleFork

var ForegroundServer = rules.ForegroundServer

var InvalidDirective = rules.InvalidDirective

var JobControl = rules.JobControl

// Lookup returns the rule with the given ID or name (case-insensitive:
// SG1001, background-output), or nil.
func Lookup(idOrName string) *Rule { return rules.Lookup(idOrName) }

var Nohup = rules.Nohup

var NotPOSIX = rules.NotPOSIX

var NotValidShell = rules.NotValidShell

type Rule = rules.Rule

// Rules returns every rule, ordered by ID.
func Rules() []*Rule { return rules.Rules() }

var Setsid = rules.Setsid

var SetsidForeground = rules.SetsidForeground

var UnmanagedBackground = rules.UnmanagedBackground

var UnusedDirective = rules.UnusedDirective
