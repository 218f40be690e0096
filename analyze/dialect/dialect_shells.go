package dialect

import (
	"path/filepath"

	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// The four shells' tables of differences (see dialect), the small types
// some of their fields take, and how a shell is found by name.

// Tails are the compounds a background subshell's tail exec goes through.
type Tails uint16

const (
	TailAndOr    Tails = 1 << iota // A && B, A || B
	TailSubshell                   // ( A; B )
	TailBlock                      // { A; B; }
	TailIf                         // if …; then A; else B; fi
	TailCase                       // case … in x) A;; esac
	TailFor                        // for x in one; do A; done (the last round: only a one-word list is known to be it)
	TailNegated                    // ! A
	TailLone                       // the whole -c string is one simple command (mksh's cTail)
	// tailAndOrAlone: A && B when it is the whole last command, not after
	// `;` on its line (bash, whose optimization looks at the top connection
	// only: `x; A && B` forks B, `x && A; B` and `A && B` exec it).
	TailAndOrAlone
	// tailRedirected: a { }, if, case or loop with redirections of its
	// own, inside the compound (zsh). dash runs such a compound
	// without its exec flag (evaltree's NREDIR passes flags &
	// EV_TESTED only), so `true && { server; } >log &` forks the server
	// and waits; the job's own redirections (`{ server; } >log &`) are
	// made in its process (NBACKGND) and a ( )'s by its subshell, which
	// keep the tail.
	TailRedirected
)

// saved are the statements that keep saved descriptors in the background.
type saved uint8

const (
	SavedCompound saved = 1 << iota // ( ), { }, if, for, while, case with redirections
	SavedFuncCall                   // a function called with redirections
	// savedPipeElem: a { }, if, loop or case with redirections as an
	// element of a background pipeline: its process runs the body with
	// the redirections pushed, the replaced descriptors saved, and forks
	// the body's programs (dash: evalpipe's child evaluates the NREDIR
	// without EV_EXIT): `{ server; } 2>/dev/null | cat >/dev/null 2>&1
	// &` keeps the caller's stderr in dash and mksh.
	SavedPipeElem
)

var (
	DialectBash = &Dialect{
		Lang: LangBash, Variant: syntax.LangBash,
		SubstTail: TailAndOr, CTail: TailAndOrAlone, ParenTail: TailAndOrAlone, FgTail: FgTailBash, trapsForkTail: trapsBash, AmpEndsTail: true,
		JobsP: true, SplitsWords: true, PrevIsCurrentAlone: true, SubstReadsFile: true, PidLead: true, PidTrail: " \t",
		killSAttached:      true,
		ReturnOutsideFails: true,
		TrapRefuses:        trapNoSigPseudo | trapGoesOn,
		CurrentSkipsDone:   true, ChildrenKeepSaved: true, SavedTailExec: true, WaitOptions: true,
		CoprocPidVar: true, JobsKeepIgnored: true, JobNumAboveHighest: true, SpecStopsAtDead: true,
		SignalRunsExitTrap: true, TopSignalRunsExitTrap: true, NegPidFindsJob: true, JobsKeptIn: FormSubst | FormProcSubst,
		JobsOptions: "lnprsx", DisownOptions: "ahr", SubstDropsErrexit: true, AliasesOff: true, UnsetFallsToFunc: true,
		LocalDashOpts: true, Braces: BracesAll, ChildIntSurvives: true, FgWaitHolds: sigINT | sigQUIT,
	}
	dialectDash = &Dialect{
		Lang: LangDash, Variant: syntax.LangPOSIX,
		PidLead: true, PidTrail: " \t\n",
		killSAttached:        true,
		LocalDashOpts:        true,
		BadDup:               DupEndsShell,
		BashSyntaxStops:      true,
		RefusesExpansion:     dashRefuses,
		IgnoredStayIgnored:   true,
		FgWaitHolds:          sigINT,
		JobSigWaits:          sigINT,
		BgTail:               TailAndOr | TailSubshell | TailBlock | TailIf | TailCase,
		FgTail:               FgTailBg,
		AmpGtBackgrounds:     true,
		SpecsSignalGroup:     true,
		KeepsSaved:           SavedFuncCall | SavedPipeElem,
		NegatedWaits:         true,
		BracesTransparent:    true,
		SplitsWords:          true,
		ChildrenKeepSaved:    true,
		JobFuncSaved:         true,
		KillSigNoDashDash:    true,
		KillStopsAtBad:       true,
		GroupBlanks:          true,
		killNoSigPrefix:      true,
		TrapRefuses:          trapNoSigPrefix | trapNoPseudo,
		Missing:              &dashMissing,
		TestNoDoubleEquals:   true,
		JobsKeepIgnored:      true,
		DoneJobsStay:         true,
		killNoNumOption:      true,
		SpecialBuiltinsFirst: true,
		MonitorNeedsTty:      true,
		JobsOptions:          "lp",
		JobsMarkField:        true,
		NoArrays:             true,
		setLetters:           "abefimnpsuvxCEIV",
		exportLetters:        "p",
		setNames:             &dashSetNames,
	}
	dialectZsh = &Dialect{
		Lang: LangZsh, Variant: syntax.LangZsh,
		RefusesExpansion:     zshRefuses,
		BgLastPipeline:       true,
		FgWaitHolds:          sigINT | sigQUIT,
		BgTail:               TailAndOr | TailSubshell | TailBlock | TailIf | TailCase | TailFor | TailNegated | TailRedirected,
		FgTail:               FgTailBg,
		SubstTail:            TailAndOr | TailSubshell | TailBlock | TailIf | TailCase | TailFor | TailNegated | TailRedirected,
		CTail:                TailAndOr | TailIf | TailBlock | TailSubshell | TailCase | TailFor | TailRedirected,
		trapsForkTail:        TrapsZsh,
		TailKeepsRedirs:      true,
		WaitsSubst:           true,
		Multios:              true,
		LastPipeHere:         true,
		ExitTrapFunc:         "TRAPEXIT",
		ExitHook:             "zshexit",
		BangZero:             true,
		WaitPidOnly:          true,
		CoprocWord:           true,
		CompoundHoldsJob:     true,
		assignBgRefused:      true,
		FuncRedirsApplied:    true,
		MonitorExits:         true,
		FuncExitTraps:        true,
		TrapFuncs:            true,
		Unfunction:           true,
		ArraysFromOne:        true,
		ZeroIndexFatal:       true,
		PrintBuiltin:         true,
		SpecPicksHighest:     true,
		JobsOptions:          "dlprsZ",
		JobsMarkField:        true,
		IndexKeepsBang:       true,
		ParsesWholeC:         true,
		EmptyArgIgnored:      true,
		SubstReadsFile:       true,
		NounsetSkipsTraps:    true,
		ReadonlyParams:       &zshReadonlyParams,
		TrapRefuses:          trapUpperOnly,
		EqualsExpands:        true,
		killSName:            true,
		CommandSkipsBuiltins: true,
		Missing:              &zshMissing,
		MissingBuiltin:       AbsentFails,
		// (-m: see monitorExits; b c j q z: "bad option"; i m t Z: "can't
		// change option", which + does not meet)
		setLetters:     "0123456789adefghklnopqrsuvwxyABCDEFGHIJKLMNOPQRSTUVWXY",
		setOffLetters:  "imtZ",
		setNames:       &zshOptions,
		setNamesLoose:  true,
		SetoptBuiltins: true,
		Braces:         BracesAll,
	}
	dialectMksh = &Dialect{
		Lang: LangMksh, Variant: syntax.LangMirBSDKorn, Braces: BracesLists,
		RefusesExpansion: mkshRefuses,
		FgWaitHolds:      sigTERM | sigHUP | sigINT | sigQUIT,
		JobSigWaits:      sigTERM | sigHUP | sigINT | sigQUIT,
		FgTail:           FgTailLone,
		CTail:            TailLone, JobsP: true, JobsPLast: true, KillRaces: true, SplitsWords: true, SpecsKeepReaped: true,
		PidLead:                true,
		killSAttached:          true,
		killNameExact:          true,
		JobsKeptIn:             FormParen | FormSubst | FormProcSubst | FormPipe | FormJob,
		JobsOptions:            "lnpz",
		JobsMarkField:          true,
		SpecialBuiltinsFirst:   true,
		BadDup:                 dupFailsCommand,
		CoprocDup:              true,
		KeepsSaved:             SavedCompound | SavedFuncCall | SavedPipeElem,
		Missing:                &mkshMissing,
		MissingBuiltin:         AbsentFatal,
		ExecCloexec:            true,
		NegatedWaits:           true,
		SubshellDefersTerm:     true,
		TailDropsTraps:         true,
		ChildrenKeepSaved:      true,
		ChildrenKeepFirstSaved: true,
		ExecKeepsFirstSaved:    true,
		ExecBuiltinRuns:        true,
		killNoNumOption:        true,
		JobsKeepIgnored:        true,
		JobFuncSaved:           true,
		JobTextEscaped:         true,
		SelfKillDeferred:       true,
		TopSignalRunsExitTrap:  true,
		SubstReadsFile:         true,
		FuncErrorReturns:       true,
		KshFuncOptsLocal:       true,
		NoNegativeIndex:        true,
		PrintBuiltin:           true,
		SelfTermTakesJobs:      true,
		setLetters:             "abefhkmnopsuvxACUX",
		exportLetters:          "p",
		setNames:               &mkshSetNames,
	}
)

// The word lists of the dialects above, declared apart so that the linker
// lays the tables out (a call inside a composite literal runs at start-up).
var (
	dashMissing       = knowledge.WordSet{Words: `[[ source mapfile readarray shopt declare typeset let pushd popd disown caller complete compgen enable help history builtin`}
	dashSetNames      = knowledge.WordSet{Words: `errexit noglob ignoreeof interactive monitor noexec stdin xtrace verbose vi emacs noclobber allexport notify nounset privileged nolog debug`}
	zshReadonlyParams = knowledge.WordSet{Words: `status ARGC PPID HISTCMD LINENO`}
	zshMissing        = knowledge.WordSet{Words: `mapfile readarray shopt caller complete compgen help`}
	mkshMissing       = knowledge.WordSet{Words: `mapfile readarray shopt declare pushd popd disown caller complete compgen enable help`}
	mkshSetNames      = knowledge.WordSet{Words: `allexport asis bgnice braceexpand emacs errexit gmacs ignoreeof inherit-xtrace interactive keyword login markdirs monitor noclobber noexec noglob nohup nolog notify nounset physical pipefail posix privileged restricted sh stdin trackall utf8-mode verbose vi vi-esccomplete vi-tabcomplete viraw xtrace`}
)

// dialectOf is the table of the shells that have one of their own (not
// sh, which is whatever /bin/sh is: ShDialect), or nil.
func dialectOf(l Lang) *Dialect {
	switch l {
	case LangBash:
		return DialectBash
	case LangDash:
		return dialectDash
	case LangZsh:
		return dialectZsh
	case LangMksh:
		return dialectMksh
	}
	return nil
}

// Dialect returns the table of the shell; sh is the /bin/sh of this
// machine (the hook and shexec judge commands for the machine they run on).
func (l Lang) Dialect() *Dialect {
	if l == LangPOSIX {
		return ShDialect()
	}
	if d := dialectOf(l); d != nil {
		return d
	}
	return DialectBash
}

// ShDialect is what `sh` is here: dash on Debian, Ubuntu and Alpine;
// bash (in POSIX mode, parsed as POSIX sh) on macOS and Fedora.
func ShDialect() *Dialect { return shDialect.Get() }

var shDialect = lazy.Value[*Dialect]{Build: func() *Dialect {
	if p, err := filepath.EvalSymlinks("/bin/sh"); err == nil {
		if l, _ := LangFromPath(p); l != LangBash && dialectOf(l) != nil {
			return dialectOf(l)
		}
	}
	d := *DialectBash
	d.Lang, d.Variant = LangPOSIX, syntax.LangPOSIX
	d.SubstDropsErrexit = false  // (POSIX mode: $(…) keeps set -e)
	d.ReturnOutsideFails = false // (a special builtin's error ends the shell)
	return &d
}}

// DialectOfProgram is the dialect of a shell run by name in the script
// (`zsh -c '…'`, `sh -s`), or nil for a program that is not a shell.
func DialectOfProgram(name string) *Dialect {
	switch name {
	case "bash":
		return DialectBash
	case "sh":
		return ShDialect()
	case "dash", "ash", "busybox":
		return dialectDash
	case "zsh":
		return dialectZsh
	case "mksh", "ksh":
		return dialectMksh
	}
	return nil
}
