package rules

import (
	"slices"
	"strings"
	"sync"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
)

// Rule is one check, declared as a value in its own file (like an
// analysis.Analyzer): an ID that never changes, the severity its findings
// carry, the documentation the CLI prints with `shguard explain`, and a
// WRONG and a RIGHT example that the tests run through Analyze.
type Rule struct {
	// ID is stable: SG1xxx rules report errors, SG2xxx warnings, SG3xxx info.
	ID string
	// Name is a short kebab-case name, used in README anchors.
	Name string
	// Severity of every finding this rule reports.
	Severity diag.Severity
	// Summary is one line for rule tables.
	Summary string
	// Doc explains what bash really does and why it matters.
	Doc string
	// Wrong is a command this rule reports; Right is the same intent
	// written so that the rule (and every other rule) is quiet.
	Wrong, Right string
	// Shell is the shell the examples are for (default bash), for a rule
	// about what one shell does.
	Shell dialect.Lang

	check func(*Pass)
}

// URL is the rule's own page, docs/rules/SGxxxx.md in the repository,
// written from the rule's documentation (Markdown) and kept up to date by
// a test (go test ./analyze -run TestRulePages -update rewrites them).
func (r *Rule) URL() string { return diag.RuleURL(r.ID) }

// Markdown is the rule's page: what it reports, why, and a WRONG and a
// RIGHT example.
func (r *Rule) Markdown() string {
	var b strings.Builder
	b.WriteString("# " + r.ID + " " + r.Name + "\n\n")
	b.WriteString("Severity: " + r.Severity.String())
	if r.Shell != dialect.LangBash {
		b.WriteString(" · shell: " + r.Shell.String())
	}
	b.WriteString("\n\n" + r.Summary + ".\n\n")
	b.WriteString(r.Doc + "\n\n")
	b.WriteString("## Wrong\n\n```sh\n" + r.Wrong + "\n```\n\n")
	b.WriteString("## Right\n\n```sh\n" + r.Right + "\n```\n\n")
	b.WriteString("Silence it for one statement with `# shguard disable=" + r.ID + " -- reason` (or `disable=" + r.Name + "`), for a project with `exclude=" + r.ID + "` in `.shguardrc`.\n\n")
	b.WriteString("_Generated from the rule's declaration in `analyze/rules/` (`go test ./analyze -run TestRulePages -update`)._\n")
	return b.String()
}

// registered is every rule. A rule is a composite literal in its own
// file (a Rule, not a *Rule, so that the façade's aliases are addresses
// the linker fills in) and is listed here, which the linker lays out as it
// is: a
// registry that each rule's var joined by a call at start-up ran code in
// every hook process (with the map and URLs it built, about 22K
// instructions of a clean hook call's 800K, callgrind). TestRegistered
// fails on a rule declared and not listed here.
var registered = []*Rule{
	&NotValidShell,
	&BackgroundHoldsOutput,
	&CompoundBackground,
	&BackgroundBlocksShell,
	&AmpGtDash,
	&UnmanagedBackground,
	&Nohup,
	&Setsid,
	&Disown,
	&DoubleFork,
	&Coproc,
	&JobControl,
	&Daemonizes,
	&ForegroundServer,
	&SetsidForeground,
	&NotPOSIX,
	&InvalidDirective,
	&UnusedDirective,
}

// Rules returns every rule, ordered by ID.
func Rules() []*Rule { return append([]*Rule(nil), sortedRules()...) }

var (
	rulesOnce sync.Once
	rulesList []*Rule
)

// sortedRules is the registry in ID order, computed once.
func sortedRules() []*Rule {
	rulesOnce.Do(func() { rulesList = buildRules() })
	return rulesList
}

func buildRules() []*Rule {
	byID := func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) }
	rs := registered
	if !slices.IsSortedFunc(rs, byID) {
		rs = slices.SortedFunc(slices.Values(rs), byID)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].ID == rs[i-1].ID {
			panic("duplicate rule " + rs[i].ID)
		}
	}
	return rs
}

// Lookup returns the rule with the given ID or name (case-insensitive:
// SG1001, background-output), or nil.
func Lookup(idOrName string) *Rule {
	for _, r := range sortedRules() {
		if strings.EqualFold(r.ID, idOrName) || strings.EqualFold(r.Name, idOrName) {
			return r
		}
	}
	return nil
}
