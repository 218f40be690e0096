// Package playground is what the playground page (docs/playground) runs
// in the browser, compiled to WebAssembly by ./wasm: one call takes the
// text a visitor pasted and the choices they made, and returns what the
// CLI would print for them. Every output is made by the code the CLI uses
// (findingjson, rewrite, udiff, explain) with the options the CLI would
// pass, so that the page and `shguard -f json` agree byte for byte; the
// browser test (e2e/playground) holds them to it.
package playground

import (
	"bytes"
	"errors"
	"strings"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/explain"
	"github.com/shguard/shguard/internal/findingjson"
	"github.com/shguard/shguard/internal/udiff"
	"github.com/shguard/shguard/rewrite"
)

// Request is one check.
type Request struct {
	Source string `json:"source"`
	// Shell is what -s would say; "" or "auto": the text's own (a
	// `# shguard shell=` line, the shebang), else bash, as the CLI does
	// without -s (a page has no .shguardrc).
	Shell string `json:"shell"`
	// Caller is --caller: "leader" (agent tools, the default) or "group".
	Caller string `json:"caller"`
	// Style is --style: "default" or "brace".
	Style string `json:"style"`
	// Script: the text is a script file the shell reads (`shguard
	// script.sh`), not a -c string (`shguard -c '…'`).
	Script bool `json:"script"`
}

// Name is the file name findings carry: the CLI's for -c, or for a
// script the name the browser test gives its file.
func (r Request) Name() string {
	if r.Script {
		return "script.sh"
	}
	return "<command>"
}

// Response is what the page shows.
type Response struct {
	// Shell is the shell the text was analysed for.
	Shell string `json:"shell"`
	// JSON is `shguard -f json` for the request, byte for byte, and
	// Findings the same parsed.
	JSON     string                `json:"json"`
	Findings []findingjson.Finding `json:"findings"`
	// Fixed is what `shguard --fix` prints (the text itself when nothing
	// was fixed; "" when the text does not parse), Applied how many
	// findings the fixes removed, and Diff `shguard -f diff`.
	Fixed   string `json:"fixed"`
	Applied int    `json:"applied"`
	Diff    string `json:"diff"`
	// Rules explains each rule reported, as `shguard explain` does.
	Rules map[string]Rule `json:"rules"`
	// ParseError: the text is not valid shell for Shell (one SG1000
	// finding, at the error).
	ParseError bool `json:"parse_error"`
	// Error is a bad request (an unknown shell, say).
	Error string `json:"error,omitempty"`
}

// Rule is a rule's documentation.
type Rule struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Explain  string `json:"explain"`
	URL      string `json:"url"`
}

// Check runs the analyzer and the rewriter on a request.
func Check(req Request) Response {
	opts, lang, err := options(req)
	if err != nil {
		return Response{Error: err.Error()}
	}
	src := []byte(req.Source)
	resp := Response{Shell: lang.String(), Rules: map[string]Rule{}}
	fs, err := analyze.Analyze(src, opts...)
	var pe *analyze.ParseError
	switch {
	case errors.As(err, &pe):
		fs, resp.ParseError = []analyze.Finding{pe.Finding()}, true
	case err != nil:
		return Response{Error: err.Error()}
	}
	resp.Findings = findingjson.Append([]findingjson.Finding{}, req.Name(), fs)
	var b bytes.Buffer
	findingjson.Write(&b, resp.Findings)
	resp.JSON = b.String()
	for _, f := range fs {
		if r := analyze.Lookup(f.Rule); r != nil {
			resp.Rules[r.ID] = Rule{r.ID, r.Name, r.Severity.String(), r.Summary, explain.Text(r), r.URL()}
		}
	}
	if !resp.ParseError {
		res, err := rewrite.Fix(src, opts...)
		if err != nil {
			return Response{Error: err.Error()}
		}
		resp.Fixed, resp.Applied = string(res.Out), len(res.Applied)
		var d bytes.Buffer
		udiff.Write(&d, req.Name(), src, res.Out)
		resp.Diff = d.String()
	}
	return resp
}

// options are the analyzer options the CLI passes for the same flags
// (cmd/shguard's linter.options without a .shguardrc).
func options(req Request) ([]analyze.Option, analyze.Lang, error) {
	src := []byte(req.Source)
	lang, _ := analyze.ShebangLang(src)
	if s := strings.TrimSpace(req.Shell); s != "" && s != "auto" {
		l, err := analyze.ParseLang(s)
		if err != nil {
			return nil, 0, err
		}
		lang = l
	} else if dl, ok := analyze.DirectiveLang(src); ok {
		lang = dl
	}
	style, err := analyze.ParseStyle(req.Style)
	if err != nil {
		return nil, 0, err
	}
	keep := func(analyze.Finding) bool { return true } // -S info, no -e or -i
	opts := []analyze.Option{analyze.WithLang(lang), analyze.WithStyle(style), analyze.WithFilter(keep), analyze.WithServers()}
	if req.Caller != "" {
		c, err := analyze.ParseCaller(req.Caller)
		if err != nil {
			return nil, 0, err
		}
		opts = append(opts, analyze.WithCaller(c))
	}
	if req.Script {
		opts = append(opts, analyze.WithScriptFile())
	}
	return opts, lang, nil
}
