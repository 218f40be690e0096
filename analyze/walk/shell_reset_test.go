package walk

import (
	"reflect"
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"mvdan.cc/sh/v3/syntax"
)

// shell.reset clears a reused shell field by field. A shell with every
// field set must come out of it empty, but for what reset is given and
// the (emptied) memory it keeps; a field added to shell fails here until
// reset clears it and it is set below.
func TestShellReset(t *testing.T) {
	j := &Job{}
	sh := &shell{
		kind: shNested, async: true, jobs: []*Job{j}, inherited: 1, last: j, alt: []*Job{j},
		pidVars: map[string][]*Job{"p": {j}}, arrays: map[string]bool{"a": true}, joined: map[string]bool{"j": true},
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
