package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/shguard/shguard/e2e/fakemodel"
)

func TestEffect(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want Effect
	}{
		{``, Effect{}},
		{`{"hookSpecificOutput":{"permissionDecision":"ask","updatedInput":{"command":"x","run_in_background":true}}}`, Effect{Changed: true, Background: true, Asked: true}},
		{`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r","additionalContext":"ctx"}}`, Effect{Refused: true, Advice: "ctx"}},
		{`{"decision":"ask","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"x","is_background":true}}}`, Effect{Changed: true, Background: true, Asked: true}},
		{`{"permissionDecision":"deny","permissionDecisionReason":"r"}`, Effect{Refused: true}},
		{`{"cancel":true,"errorMessage":"r"}`, Effect{Refused: true}},
		{`{"cancel":false,"contextModification":"advice"}`, Effect{Advice: "advice"}},
	} {
		if got := effect(tc.out); got != tc.want {
			t.Errorf("effect(%s) = %+v, want %+v", tc.out, got, tc.want)
		}
	}
}

// TestJudge holds the judge to each way a run can go wrong.
func TestJudge(t *testing.T) {
	a := &Agent{Name: "A", Protocol: "claude", ContextChannel: true}
	t0 := time.Unix(1000, 0)
	ok := func() *Result {
		return &Result{Spec: Spec{Mode: "hook"}, Hook: []HookCall{{Output: "", At: t0.UnixNano() + 1}},
			Calls: []fakemodel.Call{{Name: "Bash"}}, Results: []string{"e2e-mid-200"}, Served: true,
			Model: []fakemodel.Entry{{Time: t0, Reply: &fakemodel.Reply{Call: &fakemodel.Call{Name: "Bash"}}}}}
	}
	mid := lookupCase("mid-job")
	if v := judge(ok(), a, mid); !v.OK {
		t.Fatalf("a good run fails: %v", v.Why)
	}
	for name, tc := range map[string]struct {
		c    string
		bend func(*Result)
		cell string
	}{
		"killed": {"mid-job", func(r *Result) { r.TimedOut = true }, "❌ hung"},
		"no exit": {"mid-job", func(r *Result) {
			r.TimedOut = true
			r.Model = append(r.Model, fakemodel.Entry{Time: t0.Add(time.Second), Path: "/v1/messages",
				Body: `{"messages":[{"role":"user","content":[{"type":"tool_result","content":"e2e-mid-200"}]}]}`})
		}, "❌ no exit"},
		"slow tool": {"mid-job", func(r *Result) {
			r.Model = append(r.Model, fakemodel.Entry{Time: t0.Add(hangLimit + 2*time.Second), Path: "/v1/messages",
				Body: `{"messages":[{"role":"user","content":[{"type":"tool_result","content":"e2e-mid-200"}]}]}`})
		}, "❌ hung"},
		"left":          {"mid-job", func(r *Result) { r.Left = []Proc{{Pid: 7, Cmd: "python3 -m http.server"}} }, "❌ left unmanaged"},
		"no marker":     {"mid-job", func(r *Result) { r.Results = []string{"nothing"} }, "❌ work not done"},
		"not served":    {"bg-server", func(r *Result) { r.Served = false }, "❌ not served"},
		"hook skipped":  {"mid-job", func(r *Result) { r.Hook = nil }, "❌ hook never ran"},
		"doctor only":   {"mid-job", func(r *Result) { r.Hook[0].At = t0.UnixNano() - 1 }, "❌ hook never ran"},
		"clean changed": {"clean", func(r *Result) { r.Results = []string{"e2e-clean-42"}; r.Hook[0].Output = `{"cancel":true}` }, "❌ changed"},
		"no advice":     {"leak-only", func(r *Result) { r.Results = []string{"e2e-leak-started"} }, "❌ no advice"},
		"not running": {"log-follow", func(r *Result) {
			r.Prompt = "go"
			r.During = []Proc{{Pid: 3, Cmd: "agent go tail -f app.log"}} // the agent's own command line
		}, "❌ work not done"},
	} {
		r := ok()
		tc.bend(r)
		v := judge(r, a, lookupCase(tc.c))
		if v.OK || !strings.HasPrefix(v.Cell, tc.cell) {
			t.Errorf("%s: cell %q (%v), want %q…", name, v.Cell, v.Why, tc.cell)
		}
	}
	follow := ok()
	follow.During = []Proc{{Pid: 9, Cmd: "tail -f app.log"}}
	if v := judge(follow, a, lookupCase("log-follow")); !v.OK {
		t.Errorf("a follower running when the tool returned fails: %v", v.Why)
	}
	// An agent slow before it runs the command (its hook call comes
	// late) is not the command holding the tool.
	late := ok()
	late.Hook[0].At = t0.Add(hangLimit).UnixNano()
	late.Model = append(late.Model, fakemodel.Entry{Time: t0.Add(hangLimit + 2*time.Second), Path: "/v1/messages",
		Body: `{"messages":[{"role":"user","content":[{"type":"tool_result","content":"e2e-mid-200"}]}]}`})
	if v := judge(late, a, mid); !v.OK {
		t.Errorf("a tool that returned 2 s after the hook ran fails: %v", v.Why)
	}
	managed := ok()
	managed.Left = []Proc{{Pid: 7, Cmd: "python3", Managed: "shexec job"}}
	if v := judge(managed, a, mid); !v.OK {
		t.Errorf("a managed leftover fails the run: %v", v.Why)
	}
}

func TestTableRoundTrip(t *testing.T) {
	cs := cells{}
	cs.set("A 1 (hook)", "clean", "✅ unchanged")
	cs.set("A 1 (hook)", "fg-server", "❌ hung (advice)")
	doc := "intro\n" + renderTable(cs, []string{"A 1 (hook)"}) + "\nafter\n"
	back := readTable(doc)
	if back["A 1 (hook)"]["clean"] != "✅ unchanged" || back["A 1 (hook)"]["fg-server"] != "❌ hung (advice)" || back["A 1 (hook)"]["nested"] != "not run" {
		t.Errorf("read back %v from\n%s", back, doc)
	}
}
