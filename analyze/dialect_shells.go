package analyze

import (
	"path/filepath"
	"sync"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// The four shells' tables of differences (see dialect), the small types
// some of their fields take, and how a shell is found by name.

// tails are the compounds a background subshell's tail exec goes through.
type tails uint16

const (
	tailAndOr    tails = 1 << iota // A && B, A || B
	tailSubshell                   // ( A; B )
	tailBlock                      // { A; B; }
	tailIf                         // if …; then A; else B; fi
	tailCase                       // case … in x) A;; esac
	tailFor                        // for x in one; do A; done (the last round: only a one-word list is known to be it)
	tailNegated                    // ! A
	tailLone                       // the whole -c string is one simple command (mksh's cTail)
	// tailAndOrAlone: A && B when it is the whole last command, not after
	// `;` on its line (bash, whose optimization looks at the top connection
	// only: `x; A && B` forks B, `x && A; B` and `A && B` exec it).
	tailAndOrAlone
	// tailRedirected: a { }, if, case or loop with redirections of its
	// own, inside the compound (zsh). dash runs such a compound
	// without its exec flag (evaltree's NREDIR passes flags &
	// EV_TESTED only), so `true && { server; } >log &` forks the server
	// and waits; the job's own redirections (`{ server; } >log &`) are
	// made in its process (NBACKGND) and a ( )'s by its subshell, which
	// keep the tail.
	tailRedirected
)

// saved are the statements that keep saved descriptors in the background.
type saved uint8

const (
	savedCompound saved = 1 << iota // ( ), { }, if, for, while, case with redirections
	savedFuncCall                   // a function called with redirections
	// savedPipeElem: a { }, if, loop or case with redirections as an
	// element of a background pipeline: its process runs the body with
	// the redirections pushed, the replaced descriptors saved, and forks
	// the body's programs (dash: evalpipe's child evaluates the NREDIR
	// without EV_EXIT): `{ server; } 2>/dev/null | cat >/dev/null 2>&1
	// &` keeps the caller's stderr in dash and mksh.
	savedPipeElem
)

var (
	dialectBash = &dialect{
		lang: LangBash, variant: syntax.LangBash,
		substTail: tailAndOr, cTail: tailAndOrAlone, parenTail: tailAndOrAlone, fgTail: fgTailBash, trapsForkTail: trapsBash, ampEndsTail: true,
		jobsP: true, splitsWords: true, prevIsCurrentAlone: true, substReadsFile: true, pidLead: true, pidTrail: " \t",
		killSAttached:      true,
		returnOutsideFails: true,
		trapRefuses:        trapNoSigPseudo | trapGoesOn,
		currentSkipsDone:   true, childrenKeepSaved: true, savedTailExec: true, waitOptions: true,
		coprocPidVar: true, jobsKeepIgnored: true, jobNumAboveHighest: true, specStopsAtDead: true,
		signalRunsExitTrap: true, topSignalRunsExitTrap: true, negPidFindsJob: true, jobsKeptIn: formSubst | formProcSubst,
		jobsOptions: "lnprsx", disownOptions: "ahr", substDropsErrexit: true, aliasesOff: true, unsetFallsToFunc: true,
		localDashOpts: true, braces: bracesAll, childIntSurvives: true, fgWaitHolds: sigINT | sigQUIT,
	}
	dialectDash = &dialect{
		lang: LangDash, variant: syntax.LangPOSIX,
		pidLead: true, pidTrail: " \t\n",
		killSAttached:        true,
		localDashOpts:        true,
		badDup:               dupEndsShell,
		bashSyntaxStops:      true,
		refusesExpansion:     dashRefuses,
		ignoredStayIgnored:   true,
		fgWaitHolds:          sigINT,
		jobSigWaits:          sigINT,
		bgTail:               tailAndOr | tailSubshell | tailBlock | tailIf | tailCase,
		fgTail:               fgTailBg,
		ampGtBackgrounds:     true,
		specsSignalGroup:     true,
		keepsSaved:           savedFuncCall | savedPipeElem,
		negatedWaits:         true,
		bracesTransparent:    true,
		splitsWords:          true,
		childrenKeepSaved:    true,
		jobFuncSaved:         true,
		killSigNoDashDash:    true,
		killStopsAtBad:       true,
		groupBlanks:          true,
		killNoSigPrefix:      true,
		trapRefuses:          trapNoSigPrefix | trapNoPseudo,
		missing:              knowledge.SetOf(`[[ source mapfile readarray shopt declare typeset let pushd popd disown caller complete compgen enable help history builtin`),
		testNoDoubleEquals:   true,
		jobsKeepIgnored:      true,
		doneJobsStay:         true,
		killNoNumOption:      true,
		specialBuiltinsFirst: true,
		monitorNeedsTty:      true,
		jobsOptions:          "lp",
		jobsMarkField:        true,
		noArrays:             true,
		setLetters:           "abefimnpsuvxCEIV",
		exportLetters:        "p",
		setNames:             knowledge.SetOf(`errexit noglob ignoreeof interactive monitor noexec stdin xtrace verbose vi emacs noclobber allexport notify nounset privileged nolog debug`),
	}
	dialectZsh = &dialect{
		lang: LangZsh, variant: syntax.LangZsh,
		refusesExpansion:     zshRefuses,
		bgLastPipeline:       true,
		fgWaitHolds:          sigINT | sigQUIT,
		bgTail:               tailAndOr | tailSubshell | tailBlock | tailIf | tailCase | tailFor | tailNegated | tailRedirected,
		fgTail:               fgTailBg,
		substTail:            tailAndOr | tailSubshell | tailBlock | tailIf | tailCase | tailFor | tailNegated | tailRedirected,
		cTail:                tailAndOr | tailIf | tailBlock | tailSubshell | tailCase | tailFor | tailRedirected,
		trapsForkTail:        trapsZsh,
		tailKeepsRedirs:      true,
		waitsSubst:           true,
		multios:              true,
		lastPipeHere:         true,
		exitTrapFunc:         "TRAPEXIT",
		exitHook:             "zshexit",
		bangZero:             true,
		waitPidOnly:          true,
		coprocWord:           true,
		compoundHoldsJob:     true,
		assignBgRefused:      true,
		funcRedirsApplied:    true,
		monitorExits:         true,
		funcExitTraps:        true,
		trapFuncs:            true,
		unfunction:           true,
		arraysFromOne:        true,
		zeroIndexFatal:       true,
		printBuiltin:         true,
		specPicksHighest:     true,
		jobsOptions:          "dlprsZ",
		jobsMarkField:        true,
		indexKeepsBang:       true,
		parsesWholeC:         true,
		emptyArgIgnored:      true,
		substReadsFile:       true,
		nounsetSkipsTraps:    true,
		readonlyParams:       knowledge.SetOf(`status ARGC PPID HISTCMD LINENO`),
		trapRefuses:          trapUpperOnly,
		equalsExpands:        true,
		killSName:            true,
		commandSkipsBuiltins: true,
		missing:              knowledge.SetOf(`mapfile readarray shopt caller complete compgen help`),
		missingBuiltin:       absentFails,
		// (-m: see monitorExits; b c j q z: "bad option"; i m t Z: "can't
		// change option", which + does not meet)
		setLetters:     "0123456789adefghklnopqrsuvwxyABCDEFGHIJKLMNOPQRSTUVWXY",
		setOffLetters:  "imtZ",
		setNames:       zshOptions,
		setNamesLoose:  true,
		setoptBuiltins: true,
		braces:         bracesAll,
	}
	dialectMksh = &dialect{
		lang: LangMksh, variant: syntax.LangMirBSDKorn, braces: bracesLists,
		refusesExpansion: mkshRefuses,
		fgWaitHolds:      sigTERM | sigHUP | sigINT | sigQUIT,
		jobSigWaits:      sigTERM | sigHUP | sigINT | sigQUIT,
		fgTail:           fgTailLone,
		cTail:            tailLone, jobsP: true, jobsPLast: true, killRaces: true, splitsWords: true, specsKeepReaped: true,
		pidLead:                true,
		killSAttached:          true,
		killNameExact:          true,
		jobsKeptIn:             formParen | formSubst | formProcSubst | formPipe | formJob,
		jobsOptions:            "lnpz",
		jobsMarkField:          true,
		specialBuiltinsFirst:   true,
		badDup:                 dupFailsCommand,
		coprocDup:              true,
		keepsSaved:             savedCompound | savedFuncCall | savedPipeElem,
		missing:                knowledge.SetOf(`mapfile readarray shopt declare pushd popd disown caller complete compgen enable help`),
		missingBuiltin:         absentFatal,
		execCloexec:            true,
		negatedWaits:           true,
		subshellDefersTerm:     true,
		tailDropsTraps:         true,
		childrenKeepSaved:      true,
		childrenKeepFirstSaved: true,
		execKeepsFirstSaved:    true,
		execBuiltinRuns:        true,
		killNoNumOption:        true,
		jobsKeepIgnored:        true,
		jobFuncSaved:           true,
		jobTextEscaped:         true,
		selfKillDeferred:       true,
		topSignalRunsExitTrap:  true,
		substReadsFile:         true,
		funcErrorReturns:       true,
		kshFuncOptsLocal:       true,
		noNegativeIndex:        true,
		printBuiltin:           true,
		selfTermTakesJobs:      true,
		setLetters:             "abefhkmnopsuvxACUX",
		exportLetters:          "p",
		setNames:               knowledge.SetOf(`allexport asis bgnice braceexpand emacs errexit gmacs ignoreeof inherit-xtrace interactive keyword login markdirs monitor noclobber noexec noglob nohup nolog notify nounset physical pipefail posix privileged restricted sh stdin trackall utf8-mode verbose vi vi-esccomplete vi-tabcomplete viraw xtrace`),
	}
)

// dialects are the tables by shell; sh is whatever /bin/sh is (shDialect).
var dialects = map[Lang]*dialect{LangBash: dialectBash, LangDash: dialectDash, LangZsh: dialectZsh, LangMksh: dialectMksh}

// dialect returns the table of the shell; sh is the /bin/sh of this
// machine (the hook and shexec judge commands for the machine they run on).
func (l Lang) dialect() *dialect {
	if l == LangPOSIX {
		return shDialect()
	}
	if d := dialects[l]; d != nil {
		return d
	}
	return dialectBash
}

// shDialect is what `sh` is here: dash on Debian, Ubuntu and Alpine;
// bash (in POSIX mode, parsed as POSIX sh) on macOS and Fedora.
var shDialect = sync.OnceValue(func() *dialect {
	if p, err := filepath.EvalSymlinks("/bin/sh"); err == nil {
		if l, _ := LangFromPath(p); l != LangBash && dialects[l] != nil {
			return dialects[l]
		}
	}
	d := *dialectBash
	d.lang, d.variant = LangPOSIX, syntax.LangPOSIX
	d.substDropsErrexit = false  // (POSIX mode: $(…) keeps set -e)
	d.returnOutsideFails = false // (a special builtin's error ends the shell)
	return &d
})

// dialectOfProgram is the dialect of a shell run by name in the script
// (`zsh -c '…'`, `sh -s`), or nil for a program that is not a shell.
func dialectOfProgram(name string) *dialect {
	switch name {
	case "bash":
		return dialectBash
	case "sh":
		return shDialect()
	case "dash", "ash", "busybox":
		return dialectDash
	case "zsh":
		return dialectZsh
	case "mksh", "ksh":
		return dialectMksh
	}
	return nil
}
