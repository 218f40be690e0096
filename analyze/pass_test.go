package analyze

import (
	"reflect"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// newPass clears only the used part of the pooled scratch slices, which is
// enough only if whatever shrinks them zeroes what it drops. A pass that
// left stale findings or jobs past the end would keep their memory alive
// and, worse, hand them to a later append's reader.
func TestPassScratchZeroBeyondLen(t *testing.T) {
	many := strings.Repeat("sleep 1 & sleep 2 &\n", 20)
	fewer := "sleep 3 &\n# shguard disable=SG1001 -- dropped from the middle\nsleep 4 &\nsleep 5 &\n"
	for _, src := range []string{many, fewer, "echo hi\n"} {
		if _, err := Analyze([]byte(src)); err != nil {
			t.Fatal(err)
		}
		p := passes.Get().(*pass)
		for i, f := range p.findings[len(p.findings):cap(p.findings)] {
			if f.Rule != "" || f.Message != "" || f.Fixes != nil {
				t.Fatalf("after %q: findings[%d] beyond len is %+v", src, len(p.findings)+i, f)
			}
		}
		for i, j := range p.jobs[len(p.jobs):cap(p.jobs)] {
			if j != nil {
				t.Fatalf("after %q: jobs[%d] beyond len is set", src, len(p.jobs)+i)
			}
		}
		passes.Put(p)
	}
}

// pass.reset clears passState field by field: a field it does not know
// would carry one command's state into the next. After analyses that set
// most fields (options, pid files, functions, nested scripts, findings),
// a released pass must hold nothing but its empty buffers; and a field
// added to passState or config fails here until reset clears it (then
// add it below).
func TestPassResetFields(t *testing.T) {
	known := map[string]bool{}
	for _, f := range strings.Fields(`written cfg src file top jobs spare calls marks findings lines defined
		outerScope nestedScopes rule inPlace inPlaceDone reread ended notPOSIX pidFiles consts constSeen assigned opaqueFiles ampGt always resolvedCalls nextResolved evals`) {
		known[f] = true
	}
	st := reflect.TypeOf(passState{})
	for i := range st.NumField() {
		if !known[st.Field(i).Name] {
			t.Errorf("passState.%s: clear it in pass.reset, then list it here", st.Field(i).Name)
		}
	}
	if st.NumField() != len(known) {
		t.Errorf("passState has %d fields, the list %d", st.NumField(), len(known))
	}
	if n := reflect.TypeOf(config{}).NumField(); n != 9 {
		t.Errorf("config has %d fields: clear the new ones in pass.reset, then count them here", n)
	}
	buffers := map[string]bool{"jobs": true, "marks": true, "findings": true, "lines": true}
	srcs := []string{
		"f() { server & echo $! > run.pid; }; f; kill $(cat run.pid); bash -c 'x & y'; A && B &\n# shguard disable=SG1002 -- test\nC && D &",
		"#!/bin/sh\nexec >log; [[ -n x ]] && sleep 9 & kill %1; eval \"$c\"; read -r pid < run.pid",
		"echo hi",
	}
	opts := []Option{WithLang(dialect.LangZsh), WithServers("srv"), WithCaller(dialect.CallerGroupLeader), WithScriptFile(), WithStyle(StyleBrace), WithDirectives(false), WithFilter(func(diag.Finding) bool { return true })}
	for _, src := range srcs {
		if _, err := Run([]byte(src), opts...); err != nil {
			t.Fatal(err)
		}
		if _, err := Run([]byte(src)); err != nil {
			t.Fatal(err)
		}
		p := passes.Get().(*pass)
		v := reflect.ValueOf(p.passState)
		for i := range v.NumField() {
			name, f := st.Field(i).Name, v.Field(i)
			if name != "spare" && (buffers[name] && f.Len() != 0 || !buffers[name] && !f.IsZero()) { // (spare: the jobs to reuse)
				t.Errorf("after %q: the released pass still holds %s", src, name)
			}
		}
		passes.Put(p)
	}
}

// shell.reset clears a reused shell field by field. A shell with every
// field set must come out of it empty, but for what reset is given and
// the (emptied) memory it keeps; a field added to shell fails here until
// reset clears it and it is set below.
func TestShellReset(t *testing.T) {
	j := &job{}
	sh := &shell{
		kind: shNested, async: true, jobs: []*job{j}, inherited: 1, last: j, alt: []*job{j},
		pidVars: map[string][]*job{"p": {j}}, arrays: map[string]bool{"a": true}, joined: map[string]bool{"j": true},
		empty: map[string]bool{"e": true}, statusVars: map[string]*syntax.Stmt{"s": {}}, traps: []trapBody{{code: "x"}}, errTraps: []trapBody{{code: "x"}}, monitor: true, d: dialect.DialectBash, held: 1,
		maxNum: 2, leads: true, kept: fdtable.Table{1: fdtable.TCaller}, keptTen: true, ignored: 1, replaced: true,
		sigTraps: []sigTrap{{sigs: 1}}, keep: true, process: j, nounset: true, errexit: true, pipefail: true, wordSplit: true, kshArrays: true, posixTraps: true, localTraps: true, skipTraps: true, execsElem: true, inPlace: []*syntax.Stmt{{}}, scriptChild: true, inPlaceKnown: true, fgBody: []*syntax.Stmt{{}}, fgElem: &syntax.Stmt{}, fgForm: dialect.FormParen, ended: true, maybes: maybes{cond: 1},
		aliases: map[string]aliasDef{"a": {ok: true}}, expandAliases: aliasDef{ok: true},
		outerFuncs: map[string]*function{"f": {}}, ownFuncs: true,
	}
	v := reflect.ValueOf(sh).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("shell.%s is not set here: set it, and clear it in shell.reset", v.Type().Field(i).Name)
		}
	}
	sh.reset(shSubshell, false, nil)
	for i := range v.NumField() {
		name, f := v.Type().Field(i).Name, v.Field(i)
		switch name {
		case "kind":
			if sh.kind != shSubshell {
				t.Errorf("kind %v after reset", sh.kind)
			}
		case "jobs", "traps", "errTraps", "sigTraps", "pidVars", "empty":
			if f.Len() != 0 {
				t.Errorf("shell.%s holds %d after reset", name, f.Len())
			}
		default:
			if !f.IsZero() {
				t.Errorf("shell.%s is set after reset", name)
			}
		}
	}
}
