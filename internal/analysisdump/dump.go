// Package analysisdump writes everything the analyzer and its public
// clients make of a command — findings with their fixes, background jobs,
// the fixed source in both styles, the promotion plan and the hook's
// decision — as one JSON line per input. Two dumps of the same inputs are
// compared byte for byte to show that a change inside analyze/ (moving
// code between packages, splitting the walker's state) changed no
// behaviour: the corpus and fuzz packages' TestDumpAnalyses write them
// when SHGUARD_DUMP names a file, and `diff` compares them.
//
// It exists for refactors: a verdict test checks what a command's shell
// does; this checks that nothing at all moved, down to the wording of a
// message and the byte offsets of an edit.
package analysisdump

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/hook"
	"github.com/shguard/shguard/rewrite"
)

// Input is one command under one shell and caller.
type Input struct {
	ID     string
	Src    string
	Lang   analyze.Lang
	Caller analyze.Caller
	Script bool // analyzed as a script file (WithScriptFile)
	NoHook bool // skip the hook's decision (it analyses the command again)
}

type record struct {
	ID     string          `json:"id"`
	Lang   string          `json:"lang"`
	Caller int             `json:"caller"`
	Run    json.RawMessage `json:"run"`
	Fix    json.RawMessage `json:"fix"`
	Brace  json.RawMessage `json:"brace"`
	Plan   json.RawMessage `json:"plan"`
	Hook   json.RawMessage `json:"hook,omitempty"`
	HookBg json.RawMessage `json:"hook_bg,omitempty"`
}

// result is analyze.Result without the syntax tree.
type result struct {
	Findings []analyze.Finding
	Jobs     []analyze.Job
	Reread   bool
}

// errOr marshals v, or the error when err is not nil.
func errOr(v any, err error) json.RawMessage {
	if err != nil {
		if pe, ok := err.(*analyze.ParseError); ok {
			v = map[string]any{"parse_error": pe.Error(), "shell": pe.Shell, "valid_in": pe.ValidIn}
		} else {
			v = map[string]string{"error": err.Error()}
		}
	}
	b, merr := json.Marshal(v)
	if merr != nil {
		b, _ = json.Marshal(map[string]string{"marshal_error": merr.Error()})
	}
	return b
}

// Write appends in's record to w.
func Write(w io.Writer, in Input) error {
	opts := []analyze.Option{analyze.WithLang(in.Lang), analyze.WithCaller(in.Caller)}
	if in.Script {
		opts = append(opts, analyze.WithScriptFile())
	}
	src := []byte(in.Src)
	rec := record{ID: in.ID, Lang: in.Lang.String(), Caller: int(in.Caller)}

	res, err := analyze.Run(src, opts...)
	var r *result
	if res != nil {
		r = &result{res.Findings, res.Jobs, res.Reread}
	}
	rec.Run = errOr(r, err)
	// Analyze (findings only) must agree with Run.
	fs, err2 := analyze.Analyze(src, opts...)
	if (err == nil) != (err2 == nil) || (res != nil && fmt.Sprint(fs) != fmt.Sprint(res.Findings)) {
		rec.Run = errOr(map[string]any{"run": r, "analyze": fs}, nil)
	}
	fixed, err := rewrite.Fix(src, opts...)
	rec.Fix = errOr(fixed, err)
	braced, err := rewrite.Fix(src, append(opts, analyze.WithStyle(analyze.StyleBrace))...)
	rec.Brace = errOr(braced, err)
	plan, err := rewrite.Plan(src, opts...)
	rec.Plan = errOr(plan, err)
	if !in.NoHook {
		logs := func(n int) string { return fmt.Sprintf("/tmp/job%d.log", n) }
		out, err := hook.Decide(in.Src, hook.Options{Lang: in.Lang, LogFile: logs})
		rec.Hook = errOr(out, err)
		out, err = hook.Decide(in.Src, hook.Options{Lang: in.Lang, LogFile: logs, Background: true})
		rec.HookBg = errOr(out, err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
