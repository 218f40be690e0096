package hook

import (
	"encoding/json"
	"errors"
)

// OpenCode is the protocol between shguard and its OpenCode plugin
// (hook/opencode_plugin.js, printed by --print-config opencode; contrib/opencode/shguard.js links to it).
// OpenCode has no command hooks: a plugin's "tool.execute.before" gets
// ({tool, sessionID, callID}, {args}) before every tool call and may
// change output.args in place or throw, and "tool.execute.after" may
// change the result the model reads. Read from the opencode-ai 1.18.33
// binary (the tool wrapper calls trigger("tool.execute.before", ...,
// {args}) and then runs the tool with that same args object; the bash
// tool asks its own permission inside, for the args it then holds) and
// https://opencode.ai/docs/plugins/.
//
// In (what the plugin sends): {"tool": "bash", "sessionID", "callID",
// "args": {"command", "timeout", "workdir", "description"}, "directory":
// the project, "shell": $SHELL}. Out: {"args": {...}} — the complete new
// args, which the plugin assigns — for a change, which OpenCode's own
// permission then judges (Caps.Silent); {"deny": "reason"}, which the
// plugin throws: the call fails with the reason as its error and the
// run goes on; "context", which the plugin appends to the call's output
// for the model. The bash tool has no background parameter: a lone job
// gets a log file, a foreground server a managed job. The plugin lets
// the call go ahead on any exit but 0 with an answer, so errors exit 1.
var OpenCode = &Protocol{
	Name: "opencode", Agent: "OpenCode", ErrorExit: 1,
	Parse:      parseOpenCode,
	DetectRule: `"tool", "callID" and "args" (shguard's OpenCode plugin)`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, t := m["tool"]
		_, c := m["callID"]
		_, a := m["args"]
		return t && c && a
	},
}

func parseOpenCode(payload []byte, env Env) (*Call, error) {
	m, err := object(payload, "OpenCode tool.execute.before")
	if err != nil {
		return nil, err
	}
	if str(m, "tool") != "bash" {
		return nil, nil
	}
	var args map[string]json.RawMessage
	if err := field(m, "args", &args); err != nil || args == nil {
		return nil, errors.New(`hook input: OpenCode "args" is not an object`)
	}
	cmd, err := command(args, "bash")
	if err != nil {
		return nil, err
	}
	c := &Call{
		Request: Request{Command: cmd, Cwd: str(m, "directory")},
		Caps:    Caps{Rewrite: true, Silent: true},
	}
	if d := str(args, "workdir"); d != "" {
		c.Cwd = d
	}
	if sh := str(m, "shell"); sh != "" {
		c.Shell, c.ShellFrom = sh, "$SHELL"
	}
	c.Render = func(a Answer) ([]byte, error) {
		var o jsonObject
		switch a.Kind {
		case Refuse:
			o.str("deny", a.Reason)
		case Change:
			in, err := rawMap(withCommand(args, a.Command, "", false))
			if err != nil {
				return nil, err
			}
			o.raw("args", in)
		default:
			if a.Context == "" {
				return nil, nil
			}
		}
		o.strOmitEmpty("context", a.Context)
		return append(o.json(), '\n'), nil
	}
	return c, nil
}
