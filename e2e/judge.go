package e2e

import (
	"encoding/json"

	"fmt"
	"github.com/shguard/shguard/e2e/fakemodel"
	"strings"
	"time"
)

// hangLimit is the longest one tool call may take (from the model's call,
// or from the hook's call where the hook ran for it, to the tool result
// reaching the model) and still count as not hanging.
// The agents' own limits are longer (Claude Code's Bash tool: 2 minutes;
// Copilot CLI gives up waiting after 30 s); a quick command takes under
// 5 s here, and a command moved out of the way returns within its yield
// (shexec: 10 s). The agents' start-up is not counted: on a loaded
// 2-core machine it alone takes up to 30 s.
const hangLimit = 25 * time.Second

// A run is killed (the runner kills the agent's group; the namespace
// takes the rest) when its tool call has waited toolTimeout for a result,
// well past hangLimit, or at hardTimeout, start-up included (OpenCode
// and Qwen Code took over a minute to reach the model on this machine
// under load).
const (
	toolTimeout = 60 * time.Second
	hardTimeout = 180 * time.Second
)

// Verdict is whether a run ended correctly: Cell is the table's text
// (stable from run to run: no timings), Why the reasons it did not.
type Verdict struct {
	OK   bool
	Cell string
	Why  []string
}

// Effect is what the hook's answers did, read from the agent's own
// answer format: the command changed (Changed, Background), refused, or
// advice given for the model.
type Effect struct {
	Changed, Background, Refused, Asked bool
	Advice                              string
}

// effect reads one hook answer. It knows the answer fields of every
// protocol (docs/agents.md): a change (updatedInput, tool_input,
// modifiedArgs, overrideInput, updated_input, OpenCode's args), a refusal (deny, block,
// cancel), a prompt (ask, review) and advice for the model.
func effect(out string) Effect {
	var e Effect
	var v any
	if json.Unmarshal([]byte(out), &v) != nil {
		return e
	}
	var walk func(any)
	walk = func(v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, x := range m {
			switch k {
			case "updatedInput", "tool_input", "modifiedArgs", "overrideInput", "updated_input", "args":
				e.Changed = true
				if xm, ok := x.(map[string]any); ok && (xm["run_in_background"] == true || xm["is_background"] == true) {
					e.Background = true
				}
			case "permissionDecision", "decision", "permission":
				switch x {
				case "deny", "block":
					e.Refused = true
				case "ask":
					e.Asked = true
				}
			case "cancel":
				e.Refused = e.Refused || x == true
			case "review":
				e.Asked = e.Asked || x == true
			case "additionalContext", "contextModification", "context", "agent_message":
				if s, ok := x.(string); ok && s != "" {
					e.Advice = s
				}
			}
			walk(x)
		}
	}
	walk(v)
	return e
}

// judge decides whether a run ended correctly for its case.
func judge(res *Result, a *Agent, c *Case) Verdict {
	var why []string
	fail := func(short, format string, args ...any) {
		why = append(why, short+": "+fmt.Sprintf(format, args...))
	}
	if res.Err != "" {
		return Verdict{Cell: "❌ setup", Why: []string{"setup: " + res.Err}}
	}
	_, marker := c.For(a, res.Mode)
	hooked := res.Mode == "hook" && !res.NoHook
	hooks := agentHooks(res)
	var eff Effect
	for _, h := range hooks {
		e := effect(h.Output)
		eff.Changed, eff.Background = eff.Changed || e.Changed, eff.Background || e.Background
		eff.Refused, eff.Asked = eff.Refused || e.Refused, eff.Asked || e.Asked
		if e.Advice != "" && eff.Advice == "" {
			eff.Advice = e.Advice
		}
	}
	switch tool := toolTime(res); {
	case res.TimedOut && tool > 0 && tool <= hangLimit:
		fail("no exit", "the tool returned in %.0f s, but the agent was still running when killed after %.0f s", tool.Seconds(), res.Wall)
	case res.TimedOut && len(res.Calls) == 0:
		fail("no turn", "killed after %.0f s before the model was asked for a tool call", res.Wall)
	case res.TimedOut:
		fail("hung", "killed after %.0f s", res.Wall)
	case tool > hangLimit:
		fail("hung", "the tool call took %.0f s (limit %v)", tool.Seconds(), hangLimit)
	}
	if hooked && len(hooks) == 0 && len(res.Calls) > 0 {
		fail("hook never ran", "the agent ran the tool without calling the hook")
	}
	if len(res.Results) == 0 {
		fail("no result", "no tool result reached the model (exit %d)", res.Exit)
	}
	if marker != "" && !anyContains(res.Results, marker) {
		fail("work not done", "%q is in no tool result", marker)
	}
	if c.Port != 0 && !res.Served {
		fail("not served", "port %d never answered while the agent ran", c.Port)
	}
	if c.Proc != "" && !running(res.During, c.Proc, res.Prompt) {
		fail("work not done", "no `%s` was running when the tool returned", c.Proc)
	}
	if c.Kind != Risky && (eff.Changed || eff.Refused || eff.Asked) {
		fail("changed", "a command that needs no change was changed, refused or asked about")
	}
	if c.Kind == LeakOnly {
		switch {
		case res.Mode == "mcp":
			if !anyContains(res.Results, "SG2") {
				fail("no advice", "the run tool's result names no SG2xxx finding")
			}
		case !hooked || !a.ContextChannel:
		case eff.Advice == "":
			fail("no advice", "the hook gave no advice for a leak")
		case !reached(res, hooks[0].At, eff.Advice):
			fail("advice lost", "the hook's advice reached no later model request")
		}
	}
	if c.Kind != LeakOnly {
		for _, p := range res.Left {
			if p.Managed == "" {
				fail("left unmanaged", "pid %d `%s`", p.Pid, p.Cmd)
			}
		}
	}
	how := "unchanged"
	switch {
	case res.Mode == "mcp":
		how = "shexec run"
	case !hooked:
		how = "no hook"
	case eff.Refused && len(res.Calls) > 1:
		how = "refused, retried"
	case eff.Refused:
		how = "refused"
	case eff.Background:
		how = "to background"
	case eff.Changed && eff.Asked:
		how = "changed, asked"
	case eff.Changed:
		how = "changed"
	case eff.Asked:
		how = "asked"
	case eff.Advice != "":
		how = "advice"
	}
	if len(why) == 0 {
		return Verdict{OK: true, Cell: "✅ " + how}
	}
	first := strings.SplitN(why[0], ":", 2)[0]
	return Verdict{Cell: "❌ " + first + " (" + how + ")", Why: why}
}

// agentHooks are the hook calls the agent made: those after the model's
// first tool call (`shguard hook --doctor` runs the hook once itself,
// before the agent starts).
func agentHooks(res *Result) []HookCall {
	var first time.Time
	for _, e := range res.Model {
		if e.Reply != nil && e.Reply.Call != nil {
			first = e.Time
			break
		}
	}
	var hs []HookCall
	for _, h := range res.Hook {
		if !first.IsZero() && h.At >= first.UnixNano() {
			hs = append(hs, h)
		}
	}
	return hs
}

// toolTime is how long the first tool call took: from the model's reply
// that made it to the first request carrying its result (0: no call, or
// no result: the run was killed or aborted, judged otherwise).
//
// Where the hook ran for the call, the time counts from the hook's call:
// what the agent does before it runs a command is not the command holding
// the tool. Driven on a loaded machine, Qwen Code spent 32 s between the
// model's call and its PreToolUse hook for `printf` (its log is silent
// meanwhile), and a few seconds on a quiet one.
func toolTime(res *Result) time.Duration {
	var called time.Time
	for _, e := range res.Model {
		if called.IsZero() {
			if e.Reply != nil && e.Reply.Call != nil {
				called = e.Time
			}
			continue
		}
		if c, ok := fakemodel.Parse(e.Path, []byte(e.Body)); ok && len(c.Results) > 0 {
			for _, h := range res.Hook {
				if at := time.Unix(0, h.At); at.After(called) && at.Before(e.Time) {
					called = at
					break
				}
			}
			return e.Time.Sub(called)
		}
	}
	return 0
}

// running reports whether a process runs fragment; the agent's own
// processes, whose command line holds the prompt, do not count (runs
// saved before the prompt stopped holding the command have it empty:
// their prompt began as legacyPrompt).
func running(ps []Proc, fragment, prompt string) bool {
	if prompt == "" {
		prompt = legacyPrompt
	}
	for _, p := range ps {
		if strings.Contains(p.Cmd, fragment) && !strings.Contains(p.Cmd, prompt) {
			return true
		}
	}
	return false
}

const legacyPrompt = "Run this shell command and tell me what it printed: "

func anyContains(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// reached reports whether a request after the first hook call carries
// the advice (its first line, as sent or JSON-escaped).
func reached(res *Result, since int64, advice string) bool {
	line := strings.SplitN(strings.TrimSpace(advice), "\n", 2)[0]
	if len(line) > 60 {
		line = line[:60]
	}
	var esc strings.Builder
	enc := json.NewEncoder(&esc)
	enc.SetEscapeHTML(false) // the agents are JavaScript: JSON.stringify escapes no <, >, &
	enc.Encode(line)
	forms := []string{line, strings.Trim(strings.TrimSpace(esc.String()), `"`)}
	at := time.Unix(0, since)
	for _, e := range res.Model {
		if e.Time.Before(at) {
			continue
		}
		for _, f := range forms {
			if strings.Contains(e.Body, f) {
				return true
			}
		}
	}
	return false
}
