package analyze

import (
	"reflect"
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/diag"
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/rules"
	"github.com/shguard/shguard/analyze/walk"
)

// newChecker clears only the used part of the pooled scratch slices, which is
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
		p := checkers.Get().(*checker)
		for i, f := range p.Findings[len(p.Findings):cap(p.Findings)] {
			if f.Rule != "" || f.Message != "" || f.Fixes != nil {
				t.Fatalf("after %q: findings[%d] beyond len is %+v", src, len(p.Findings)+i, f)
			}
		}
		for i, j := range p.Jobs[len(p.Jobs):cap(p.Jobs)] {
			if j != nil {
				t.Fatalf("after %q: jobs[%d] beyond len is set", src, len(p.Jobs)+i)
			}
		}
		checkers.Put(p)
	}
}

// pass.reset clears passState field by field, and checker.reset the
// checker's own: a field it does not know would carry one command's state
// into the next. After analyses that set most fields (options, pid files,
// functions, nested scripts, findings), a released checker must hold
// nothing but its empty buffers; and a field added to passState, config,
// options or checker fails here until reset clears it (then add it below).
func TestPassResetFields(t *testing.T) {
	// Field names are compared in lower case: a move between floors
	// exports a field another floor reads (jobs, Jobs), nothing else.
	known := map[string]bool{}
	for _, f := range strings.Fields(`written cfg src file top jobs spare calls marks defined
		inPlace inPlaceDone reread ended notPOSIX pidFiles consts constSeen assigned opaqueFiles ampGt always resolvedCalls nextResolved evals`) {
		known[strings.ToLower(f)] = true
	}
	// passState is the walk's, read through reflect: the floors above
	// the walk see only what it exports.
	st := reflect.ValueOf(&checker{}).Elem().FieldByName("Pass").FieldByName("passState").Type()
	for i := range st.NumField() {
		if !known[strings.ToLower(st.Field(i).Name)] {
			t.Errorf("passState.%s: clear it in pass.reset, then list it here", st.Field(i).Name)
		}
	}
	if st.NumField() != len(known) {
		t.Errorf("passState has %d fields, the list %d", st.NumField(), len(known))
	}
	if n := reflect.TypeOf(walk.Config{}).NumField(); n != 6 {
		t.Errorf("config has %d fields: clear the new ones in pass.reset, then count them here", n)
	}
	if n := reflect.TypeOf(options{}).NumField(); n != 4 {
		t.Errorf("options has %d fields: clear the new ones in checker.reset, then count them here", n)
	}
	// the checker's own fields and those of the rules' pass it embeds
	own := map[string]bool{"pass": true, "opts": true, "lines": true, "fixes": true, "findings": true, "rule": true}
	ct, pt := reflect.TypeOf(checker{}), reflect.TypeOf(rules.Pass{})
	for _, tt := range []reflect.Type{ct, pt} {
		for i := range tt.NumField() {
			if !own[strings.ToLower(tt.Field(i).Name)] {
				t.Errorf("%s.%s: clear it in checker.reset, then list it here", tt.Name(), tt.Field(i).Name)
			}
		}
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
		p := checkers.Get().(*checker)
		v := reflect.ValueOf(p).Elem().FieldByName("Pass").FieldByName("passState")
		for i := range v.NumField() {
			name, f := strings.ToLower(st.Field(i).Name), v.Field(i)
			if name != "spare" && (buffers[name] && f.Len() != 0 || !buffers[name] && !f.IsZero()) { // (spare: the jobs to reuse)
				t.Errorf("after %q: the released pass still holds %s", src, name)
			}
		}
		cv := reflect.ValueOf(p).Elem()
		for _, sv := range []reflect.Value{cv, cv.Field(0)} { // (the checker, the rules' pass)
			for i := range sv.NumField() {
				name, f := strings.ToLower(sv.Type().Field(i).Name), sv.Field(i)
				switch {
				case name == "pass": // the rules' pass, the walk's: checked above
				case name == "fixes":
					// the fixer's own fields, through reflect: the fix
					// exports only what the floors above it use
					if p.Fixes.Pass != &p.Pass.Pass {
						t.Errorf("after %q: the released checker's fixer reads another pass", src)
					}
					for k := range f.NumField() {
						if fn := f.Type().Field(k).Name; fn != "Pass" && !f.Field(k).IsZero() {
							t.Errorf("after %q: the released checker's fixer still holds %s", src, fn)
						}
					}
				case name == "opts":
					if o := p.opts; o.cfg != &p.Cfg || o.fixes != &p.Fixes || o.noDirectives || o.keep != nil {
						t.Errorf("after %q: the released checker still holds options", src)
					}
				case buffers[name] && f.Len() != 0 || !buffers[name] && !f.IsZero():
					t.Errorf("after %q: the released checker still holds %s", src, name)
				}
			}
		}
		checkers.Put(p)
	}
}
