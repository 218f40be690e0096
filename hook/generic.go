package hook

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/rewrite"
)

// GenericFinding is a finding in Generic's answer.
type GenericFinding struct {
	Rule       string        `json:"rule"`
	Severity   string        `json:"severity"`
	Line       int           `json:"line"`
	Column     int           `json:"column"`
	EndLine    int           `json:"end_line"`
	EndColumn  int           `json:"end_column"`
	Start      int           `json:"start_offset"`
	End        int           `json:"end_offset"`
	Message    string        `json:"message"`
	Suggestion string        `json:"suggestion,omitempty"`
	Fixes      []analyze.Fix `json:"fixes,omitempty"`
	URL        string        `json:"url"`
}

// GenericJob is a job of Generic's plan.
type GenericJob struct {
	Command     string `json:"command"`
	Prelude     string `json:"prelude"`
	Script      string `json:"script"`
	HoldsOutput bool   `json:"holds_output"`
}

// GenericAnswer is what Generic prints.
type GenericAnswer struct {
	Command string `json:"command"`
	Changed bool   `json:"changed"`
	Plan    struct {
		Foreground string       `json:"foreground"`
		Jobs       []GenericJob `json:"jobs"`
	} `json:"plan"`
	Findings []GenericFinding `json:"findings"`
	Fixed    []GenericFinding `json:"fixed"`
	Error    string           `json:"error,omitempty"`
}

// Generic answers the framework-neutral shape: {"command": "..."} in;
// out the command with its behaviour-preserving fixes applied, whether it
// changed, the promotion plan of that command (foreground script and the
// background jobs a manager should own, see rewrite.Plan), its remaining
// findings and the fixed ones. It always answers; a command that is not
// valid shell comes back unchanged with "error" set. Options.Mode does not
// apply: the framework owns the jobs of the plan.
func Generic(payload []byte, opt Options) ([]byte, error) {
	var in struct {
		Command *string `json:"command"`
	}
	if err := json.Unmarshal(payload, &in); err != nil {
		return nil, fmt.Errorf("hook input is not a command JSON object: %v", err)
	}
	if in.Command == nil {
		return nil, errors.New(`hook input has no string "command"`)
	}
	ans := GenericAnswer{Command: *in.Command, Findings: []GenericFinding{}, Fixed: []GenericFinding{}}
	ans.Plan.Foreground, ans.Plan.Jobs = *in.Command, []GenericJob{}
	fixed, err := rewrite.Fix([]byte(*in.Command), opt.analyzeOpts()...)
	if err != nil {
		var pe *analyze.ParseError
		if !errors.As(err, &pe) {
			return nil, err
		}
		ans.Error = pe.Error()
		return marshal(ans)
	}
	ans.Command, ans.Changed = string(fixed.Out), string(fixed.Out) != *in.Command
	ans.Findings, ans.Fixed = generic(fixed.Remaining), generic(fixed.Applied)
	plan, err := rewrite.Plan(fixed.Out, opt.analyzeOpts()...)
	if err != nil {
		return nil, err // cannot happen: Fix's output parses
	}
	ans.Plan.Foreground = plan.Foreground
	for _, j := range plan.Jobs {
		ans.Plan.Jobs = append(ans.Plan.Jobs, GenericJob{Command: j.Command, Prelude: j.Prelude, Script: j.Script(), HoldsOutput: j.Holds})
	}
	return marshal(ans)
}

func generic(fs []analyze.Finding) []GenericFinding {
	out := make([]GenericFinding, 0, len(fs))
	for _, f := range fs {
		g := GenericFinding{
			Rule: f.Rule, Severity: f.Severity.String(),
			Line: f.Start.Line, Column: f.Start.Col, EndLine: f.End.Line, EndColumn: f.End.Col,
			Start: f.Start.Offset, End: f.End.Offset,
			Message: f.Message, Suggestion: f.Suggestion, Fixes: f.Fixes,
		}
		if r := analyze.Lookup(f.Rule); r != nil {
			g.URL = r.URL()
		}
		out = append(out, g)
	}
	return out
}

// JSON is the framework-neutral protocol (see Generic).
var JSON = &Protocol{
	Name: "json", Agent: "any framework", ErrorExit: 1,
	Direct:     Generic,
	DetectRule: `a top-level "command" string and nothing agent-specific`,
	Detect: func(m map[string]json.RawMessage) bool {
		_, ok := m["command"]
		return ok
	},
}
