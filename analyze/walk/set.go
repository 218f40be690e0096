package walk

import (
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// setsNounset reports how `set ARGS` changes the nounset option: on is
// true when it turns it on (-u, -o nounset), off when it turns it off.
func setsNounset(args []*syntax.Word) (on, off bool) {
	return setsOption(args, 'u', "nounset")
}

// setsOption reports how `set ARGS` changes the option of the letter and
// the long name: on is true when it turns it on (-u, -o nounset), off when
// it turns it off.
func setsOption(args []*syntax.Word, letter rune, name string) (on, off bool) {
	for i := 0; i < len(args); i++ {
		a := knowledge.WordLit(args[i])
		if a == "--" || len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		for _, c := range a[1:] {
			u := false
			if c == letter {
				u = true
			} else if c == 'o' && i+1 < len(args) {
				i++
				n := strings.ToLower(strings.ReplaceAll(knowledge.WordLit(args[i]), "_", ""))
				u = n == name
			}
			if u {
				on, off = a[0] == '-', a[0] == '+'
			}
		}
	}
	return on, off
}

// expandsUnset reports whether the simple command expands, in the shell's
// own process, a variable that is unset for sure: under set -u that is an
// error that ends a non-interactive shell before the command runs (`set
// -u; … echo "$TOKEN"`). Unset for sure is a variable the command never
// assigns (see mayBeAssigned) that the environment is not known to set
// (maybeInEnv), read plainly, with ${#X}, ${X#…} and the like, or with
// ${X?…}; `${X:-…}`, `${X-…}`, `${X:+…}`, `${X:=…}` expand without it, and
// so do "$@", "$*", $#, $?, $$. $! before the first job is unset too, but
// in zsh (0). Substitutions run in a subshell, which ends alone.
func (w *walker) expandsUnset(s *syntax.Stmt, ce *syntax.CallExpr) bool {
	var parts func(ps []syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				if parts(p.Parts) {
					return true
				}
			case *syntax.ParamExp:
				if w.unsetRead(p) {
					return true
				}
			}
		}
		return false
	}
	word := func(x *syntax.Word) bool { return x != nil && parts(x.Parts) }
	for _, a := range ce.Assigns {
		if word(a.Value) {
			return true
		}
	}
	for _, a := range ce.Args {
		if word(a) {
			return true
		}
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && word(r.Word) {
			return true
		}
	}
	return false
}

// unsetRead reports whether the expansion p reads a variable that is unset
// for sure in a way set -u refuses (see expandsUnset).
func (w *walker) unsetRead(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Short && p.Param.Value == "" {
		return false
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset,
			syntax.AlternateUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			return false
		}
	}
	if p.Index != nil {
		if i, ok := p.Index.(*syntax.Word); ok && (knowledge.WordLit(i) == "@" || knowledge.WordLit(i) == "*") {
			return false // ${a[@]}: not checked under the shells
		}
	}
	name := p.Param.Value
	if name == "!" {
		return !w.sh.d.BangZero && w.sh.last == nil && len(w.p.Jobs) == 0
	}
	if !isVarName(name) {
		return false // $@ $* $# $? $$ $- $0 and the positional parameters
	}
	return !w.mayBeAssigned(name) && !maybeInEnv(name)
}

func isVarName(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// maybeInEnv reports whether the variable may be set without the command
// assigning it: the shells set it themselves (RANDOM, LINENO, zsh's
// status, path…), or callers commonly export it (HOME, PATH, CI, LC_*).
// Any other name the command never assigns is taken to be unset: which
// variables a caller exports is not known, and the common ones are here.
func maybeInEnv(name string) bool {
	for _, p := range envPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return envNames.Has(name)
}

var envPrefixes = []string{"LC_", "XDG_", "SSH_", "GITHUB_", "RUNNER_", "GIT_", "BASH", "ZSH", "KSH", "npm_", "DOCKER_", "CONDA_", "PYTHON", "JAVA_", "GO", "NODE_", "NPM_", "CARGO_", "RUST", "HOMEBREW_", "DBUS_", "WSL", "TERM_", "CI_", "CLAUDE", "ANTHROPIC_", "OPENAI_", "AWS_", "GOOGLE_", "AZURE_", "KUBE", "HIST", "LESS"}

var envNames = knowledge.SetOf(`HOME PATH USER LOGNAME SHELL PWD OLDPWD TERM LANG LANGUAGE TZ TMPDIR
TMP TEMP HOSTNAME HOSTTYPE OSTYPE MACHTYPE DISPLAY WAYLAND_DISPLAY EDITOR VISUAL PAGER
MAIL MAILPATH IFS PS1 PS2 PS3 PS4 PPID UID EUID GROUPS RANDOM SRANDOM SECONDS LINENO
SHLVL CI VIRTUAL_ENV LD_LIBRARY_PATH LD_PRELOAD CC CXX CFLAGS CXXFLAGS LDFLAGS MAKEFLAGS
MAKELEVEL COLUMNS LINES OPTIND OPTARG OPTERR ENV CDPATH FPATH MANPATH INFOPATH
PKG_CONFIG_PATH COLORTERM HTTP_PROXY HTTPS_PROXY NO_PROXY http_proxy https_proxy
no_proxy all_proxy ALL_PROXY EPOCHREALTIME EPOCHSECONDS FUNCNAME PIPESTATUS REPLY
COMP_WORDS DIRSTACK status pipestatus path cdpath fpath manpath mailpath argv
psvar prompt PROMPT RPROMPT USERNAME HOST VENDOR CPUTYPE OSTYPE TTY TTYIDLE ERRNO
LINENO KEYTIMEOUT WORDCHARS FCEDIT HISTSIZE SAVEHIST KSH_VERSION PATHSEP`)

// declOptions returns the option words of a declaration (`export -f f`
// parses as one in mksh and bash).
func declOptions(c *syntax.DeclClause) []*syntax.Word {
	var opts []*syntax.Word
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			opts = append(opts, a.Value)
		}
	}
	return opts
}
