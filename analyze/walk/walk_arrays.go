package walk

import (
	"strconv"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// indexedPid follows `pids[N]=$!`, which makes pids an array in bash and
// mksh: a bare `$pids` is then its first element only (`sleep 1 &
// pids[0]=$!; server & pids[1]=$!; for p in $pids; do kill $p; done`
// leaves the server). held is how many jobs the variable named before
// this assignment. Only an index that appends to what the walk knows
// keeps the positions pidElement reads (0, 1, … in order, zsh's from 1,
// or the array's own length);
// any other index leaves which element is where unknown, and the variable
// is taken to name every job it held.
func (w *walker) indexedPid(a *syntax.Assign, held int) {
	name := a.Name.Value
	next := held
	if w.arraysFromOne() {
		next++
	}
	word, ok := a.Index.(*syntax.Word)
	appends := ok && (knowledge.WordLit(word) == strconv.Itoa(next) || countsItself(word, name))
	if appends && len(w.sh.lasts()) == 1 && (held == 0 || w.sh.arrays[name]) {
		w.sh.setArray(name)
		return
	}
	delete(w.sh.arrays, name)
}

// countsItself reports whether the index word is the array's own length,
// `pids[${#pids[@]}]=$!`: the element after the last (bash, mksh).
func countsItself(word *syntax.Word, name string) bool {
	if len(word.Parts) != 1 {
		return false
	}
	pe, ok := word.Parts[0].(*syntax.ParamExp)
	if !ok || !pe.Length || pe.Param == nil || pe.Param.Value != name {
		return false
	}
	ix, ok := pe.Index.(*syntax.Word)
	return ok && (knowledge.WordLit(ix) == "@" || knowledge.WordLit(ix) == "*")
}

// indexBindsNoPid reports whether the assignment a to an array element
// gives it no pid where `pids[N]=$!` looks like it does, and then notes
// that the variable holds none of the jobs (a kill of it stops nothing).
// zsh keeps an unquoted `$!` in a subscripted assignment's value as text
// (`pids[1]=$!; kill $pids` says "illegal pid: $!"; "$!" and ${!}
// expand; checked under zsh 5.9, also `pids[$i]=$!`): see
// dialect.indexKeepsBang.
func (w *walker) indexBindsNoPid(a *syntax.Assign) bool {
	if a.Index == nil || a.Name == nil || a.Value == nil || !w.sh.d.IndexKeepsBang || !bareBang(a.Value) {
		return false
	}
	if w.sh.pidVars == nil {
		w.sh.pidVars = map[string][]*Job{}
	}
	if _, ok := w.sh.pidVars[a.Name.Value]; !ok {
		w.sh.pidVars[a.Name.Value] = []*Job{}
	}
	return true
}

// bareBang reports whether the word holds an unquoted, unbraced $!.
func bareBang(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && pe.Short && pe.Param != nil && pe.Param.Value == "!" {
			return true
		}
	}
	return false
}

// elementWord notes a command word `pids[0]=$!` in a shell without
// arrays (dash, dialect.noArrays): it is no assignment but a command that
// is not found ("pids[0]=123: not found"), so unless the script assigns
// pids otherwise it holds nothing, and `kill $pids` stops nothing.
func (w *walker) elementWord(ce *syntax.CallExpr) {
	if !w.sh.d.NoArrays || len(ce.Args) == 0 || len(ce.Args[0].Parts) == 0 {
		return
	}
	l, ok := ce.Args[0].Parts[0].(*syntax.Lit)
	if !ok {
		return
	}
	name, rest, ok := strings.Cut(l.Value, "[")
	if !ok || !isName(name) || !strings.Contains(rest, "]=") {
		return
	}
	if _, held := w.sh.pidVars[name]; !held {
		w.sh.setEmpty(name, true)
	}
}
