package dialect

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

const (
	FormParen     SubshellForm = 1 << iota // ( … )
	FormSubst                              // $( … ), `…`
	FormProcSubst                          // <( … ), >( … )
	FormPipe                               // an element of a pipeline
	FormJob                                // the body of a background job
)

// zshOptions are the option names of zsh 5.9 as `set -o` lists them (an
// option on by default with "no" in front).
var zshOptions = knowledge.WordSet{Words: `noaliases aliasfuncdef allexport noalwayslastprompt alwaystoend
appendcreate noappendhistory autocd autocontinue noautolist noautomenu
autonamedirs noautoparamkeys noautoparamslash autopushd noautoremoveslash
autoresume nobadpattern nobanghist nobareglobqual bashautolist bashrematch
nobeep nobgnice braceccl bsdecho nocaseglob nocasematch casepaths cbases
cdablevars cdsilent chasedots chaselinks nocheckjobs nocheckrunningjobs
noclobber clobberempty combiningchars completealiases completeinword
continueonerror correct correctall cprecedences cshjunkiehistory
cshjunkieloops cshjunkiequotes cshnullcmd cshnullglob nodebugbeforecmd
dvorak emacs noequals errexit errreturn noevallineno noexec extendedglob
extendedhistory noflowcontrol forcefloat nofunctionargzero noglob
noglobalexport noglobalrcs globassign globcomplete globdots globstarshort
globsubst nohashcmds nohashdirs hashexecutablesonly nohashlistall
histallowclobber nohistbeep histexpiredupsfirst histfcntllock
histfindnodups histignorealldups histignoredups histignorespace
histlexwords histnofunctions histnostore histreduceblanks nohistsavebycopy
histsavenodups histsubstpattern histverify nohup ignorebraces
ignoreclosebraces ignoreeof incappendhistory incappendhistorytime
interactive interactivecomments ksharrays kshautoload kshglob
kshoptionprint kshtypeset kshzerosubscript nolistambiguous nolistbeep
listpacked listrowsfirst nolisttypes localloops localoptions localpatterns
localtraps login longlistjobs magicequalsubst mailwarning markdirs
menucomplete monitor nomultibyte nomultifuncdef nomultios nonomatch
nonotify nullglob numericglobsort octalzeroes overstrike pathdirs
pathscript pipefail posixaliases posixargzero posixbuiltins posixcd
posixidentifiers posixjobs posixstrings posixtraps printeightbit
printexitvalue privileged promptbang nopromptcr nopromptpercent nopromptsp
promptsubst pushdignoredups pushdminus pushdsilent pushdtohome
rcexpandparam rcquotes norcs recexact rematchpcre restricted rmstarsilent
rmstarwait sharehistory shfileexpansion shglob shinstdin shnullcmd
shoptionletters noshortloops shortrepeat shwordsplit singlecommand
singlelinezle sourcetrace sunkeyboardhack transientrprompt trapsasync
typesetsilent typesettounset nounset verbose vi warncreateglobal
warnnestedvar xtrace zle`}

// SetFails reports whether `set ARGS` fails in this shell: an option
// letter or name it does not know (see dialect.setLetters). Parsing stops
// at the first operand or at `--`; a bare `-o`/`+o` lists the options.
func (d *Dialect) SetFails(args []*syntax.Word) bool {
	if d.setLetters == "" {
		return false
	}
	for i := 0; i < len(args); i++ {
		a, _, ok := knowledge.Literal(args[i])
		if !ok {
			return false // not known before it runs
		}
		if a == "--" || a == "-" || a == "+" || len(a) < 2 || a[0] != '-' && a[0] != '+' {
			return false
		}
		for _, c := range a[1:] {
			if c != 'o' {
				if !strings.ContainsRune(d.setLetters, c) && (a[0] == '-' || !strings.ContainsRune(d.setOffLetters, c)) {
					return true
				}
				continue
			}
			if i+1 >= len(args) {
				break // set -o: lists the options
			}
			i++
			name, _, ok := knowledge.Literal(args[i])
			if !ok {
				return false
			}
			if !d.setName(name) {
				return true
			}
		}
	}
	return false
}

// setName reports whether NAME is an option `set -o NAME` knows.
func (d *Dialect) setName(name string) bool {
	if d.setNamesLoose {
		name = strings.ToLower(strings.ReplaceAll(name, "_", ""))
		return d.setNames.Has(name) || d.setNames.Has("no"+name) || strings.HasPrefix(name, "no") && d.setNames.Has(name[2:])
	}
	return d.setNames.Has(name)
}

// ExportFails reports whether export or readonly with the option words
// opts fails for an option the shell does not know (see
// dialect.exportLetters): the special builtin's error ends the shell.
func (d *Dialect) ExportFails(opts []*syntax.Word) bool {
	if d.exportLetters == "" {
		return false
	}
	for _, o := range opts {
		a, _, ok := knowledge.Literal(o)
		if !ok || a == "--" || len(a) < 2 || a[0] != '-' && a[0] != '+' {
			return false
		}
		for _, c := range a[1:] {
			if !strings.ContainsRune(d.exportLetters, c) {
				return true
			}
		}
	}
	return false
}
