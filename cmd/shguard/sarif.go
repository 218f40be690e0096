package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/shguard/shguard/analyze"
	"github.com/shguard/shguard/internal/version"
)

// SARIF 2.1.0, the subset GitHub code scanning reads: the tool with its
// rule metadata, and results with physical locations and fixes.

const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver struct {
			Name           string      `json:"name"`
			Version        string      `json:"version"`
			InformationURI string      `json:"informationUri"`
			Rules          []sarifRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	Name                 string    `json:"name"`
	ShortDescription     sarifText `json:"shortDescription"`
	FullDescription      sarifText `json:"fullDescription"`
	HelpURI              string    `json:"helpUri"`
	Help                 sarifText `json:"help"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties struct {
		Tags []string `json:"tags"`
	} `json:"properties"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion struct {
		ByteOffset int `json:"byteOffset"`
		ByteLength int `json:"byteLength"`
	} `json:"deletedRegion"`
	InsertedContent struct {
		Text string `json:"text"`
	} `json:"insertedContent"`
}

type sarifFormat struct {
	wd      string // the working directory, for relative artifact URIs
	results []sarifResult
}

func sarifLevel(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "error"
	case analyze.Warning:
		return "warning"
	}
	return "note"
}

// srcRoot is the base the artifact URIs of files under the working
// directory are relative to: code scanning resolves it to the checkout.
const srcRoot = "%SRCROOT%"

// sarifArtifactOf is the artifact location of an input: a file under the
// working directory by its path relative to it (uriBaseId %SRCROOT%),
// whether given as a relative or an absolute path, so that the report does
// not carry the paths of the machine that ran it; any other file by its
// absolute file:// URI; stdin and -c by a name of their own.
func sarifArtifactOf(name, wd string) sarifArtifact {
	switch name {
	case "-":
		return sarifArtifact{URI: "stdin"}
	case commandName:
		return sarifArtifact{URI: "command"}
	}
	abs := name
	if !filepath.IsAbs(abs) && wd != "" {
		abs = filepath.Join(wd, name)
	}
	if wd != "" {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return sarifArtifact{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: srcRoot}
		}
	}
	if filepath.IsAbs(abs) {
		p := filepath.ToSlash(abs)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x on Windows
		}
		return sarifArtifact{URI: "file://" + escapePath(p)}
	}
	return sarifArtifact{URI: escapePath(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(name)), "./"))}
}

// escapePath percent-encodes what a URI path may not hold as is (like
// net/url, which would add to the hook's start-up time).
func escapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// codePointColumn is the 1-based column of a byte offset counted in
// Unicode code points, as columnKind unicodeCodePoints says.
func codePointColumn(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	return utf8.RuneCount(src[ls:off]) + 1
}

func (s *sarifFormat) add(_ io.Writer, name string, src []byte, fs []analyze.Finding) {
	art := sarifArtifactOf(name, s.wd)
	index := map[string]int{}
	for i, r := range analyze.Rules() {
		index[r.ID] = i
	}
	for _, f := range fs {
		r := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{Text: f.Message}}
		if f.Suggestion != "" {
			r.Message.Text += " Suggestion: " + f.Suggestion
		}
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation = art
		loc.PhysicalLocation.Region = sarifRegion{
			StartLine: f.Start.Line, StartColumn: codePointColumn(src, f.Start.Offset),
			EndLine: f.End.Line, EndColumn: codePointColumn(src, f.End.Offset),
		}
		r.Locations = []sarifLocation{loc}
		for _, fx := range f.Fixes {
			change := sarifArtifactChange{ArtifactLocation: art}
			for _, e := range fx.Edits {
				var rp sarifReplacement
				rp.DeletedRegion.ByteOffset, rp.DeletedRegion.ByteLength = e.Start, e.End-e.Start
				rp.InsertedContent.Text = e.New
				change.Replacements = append(change.Replacements, rp)
			}
			r.Fixes = append(r.Fixes, sarifFix{Description: sarifText{Text: fx.Message}, ArtifactChanges: []sarifArtifactChange{change}})
		}
		s.results = append(s.results, r)
	}
}

func (s *sarifFormat) flush(w io.Writer) {
	var run sarifRun
	run.Tool.Driver.Name = "shguard"
	run.Tool.Driver.Version = version.Short()
	run.Tool.Driver.InformationURI = "https://github.com/shguard/shguard"
	run.ColumnKind = "unicodeCodePoints"
	for _, r := range analyze.Rules() {
		sr := sarifRule{
			ID: r.ID, Name: r.Name,
			ShortDescription: sarifText{Text: r.Summary},
			FullDescription:  sarifText{Text: oneLine(r.Doc)},
			HelpURI:          r.URL(),
			Help: sarifText{
				Text:     r.Doc + "\n\nWRONG: " + r.Wrong + "\nRIGHT: " + r.Right,
				Markdown: r.Doc + "\n\nWRONG:\n```sh\n" + r.Wrong + "\n```\nRIGHT:\n```sh\n" + r.Right + "\n```\n\n[" + r.ID + "](" + r.URL() + ")",
			},
		}
		sr.DefaultConfiguration.Level = sarifLevel(r.Severity)
		sr.Properties.Tags = []string{"shell", r.Severity.String()}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	run.Results = s.results
	if run.Results == nil {
		run.Results = []sarifResult{}
	}
	writeJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}
