// Package shguardrc reads .shguardrc files: per-project defaults for the
// shguard linter, found by walking up from the linted file's directory.
//
// The format is one setting per line, `key=value`; blank lines and lines
// starting with # are ignored:
//
//	# .shguardrc at the root of the repository
//	severity=warning        # error, warning or info
//	exclude=SG2001,SG3001   # rule IDs or names (also: disable=)
//	include=                # only these rules (empty: all)
//	style=brace             # fix style: default or brace
//	shell=zsh               # bash, zsh, dash, sh, mksh or ksh (also: lang=)
//	caller=group            # how the shell is started: leader or group
//
// A # after a value starts a comment. Unknown keys and bad values are
// errors with the file's path and line, so a typo never silently changes
// what CI checks.
package shguardrc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/shguard/shguard/analyze"
)

// Name is the file name looked for.
const Name = ".shguardrc"

// Config is what a .shguardrc sets. A zero field is unset.
type Config struct {
	// Path is the file the settings came from ("" for none).
	Path     string
	Severity analyze.Severity
	// Exclude and Include hold rule IDs (names are resolved to IDs).
	Exclude, Include []string
	Style            *analyze.Style
	Lang             *analyze.Lang
	Caller           *analyze.Caller
	// Servers are more program names that run until stopped (a
	// project's own dev server script): in the foreground they get the
	// SG3001 advice.
	Servers []string
}

// Find returns the path of the .shguardrc nearest to dir (dir itself, then
// its parents up to the root), or "" when there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, Name)
		st, err := os.Stat(p)
		switch {
		case err == nil && !st.IsDir():
			return p, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and checks the file at path.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	c.Path = path
	return c, nil
}

// Parse reads the contents of a .shguardrc. Errors start with the line
// number and a colon.
func Parse(b []byte) (*Config, error) {
	c := &Config{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%d: %q is not key=value", n, line)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if err := c.set(key, val); err != nil {
			return nil, fmt.Errorf("%d: %v", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) set(key, val string) error {
	switch strings.ToLower(key) {
	case "severity":
		s, err := analyze.ParseSeverity(val)
		if err != nil {
			return err
		}
		c.Severity = s
	case "exclude", "disable":
		ids, err := RuleList(val)
		if err != nil {
			return err
		}
		c.Exclude = append(c.Exclude, ids...)
	case "include", "enable":
		ids, err := RuleList(val)
		if err != nil {
			return err
		}
		c.Include = append(c.Include, ids...)
	case "style":
		s, err := analyze.ParseStyle(val)
		if err != nil {
			return err
		}
		c.Style = &s
	case "lang", "shell":
		l, err := analyze.ParseLang(val)
		if err != nil {
			return err
		}
		c.Lang = &l
	case "caller":
		cl, err := analyze.ParseCaller(val)
		if err != nil {
			return err
		}
		c.Caller = &cl
	case "servers", "server":
		for _, n := range strings.Split(val, ",") {
			if n = strings.TrimSpace(n); n != "" {
				c.Servers = append(c.Servers, n)
			}
		}
	default:
		return fmt.Errorf("unknown key %q (want severity, exclude, include, style, shell, caller or servers)", key)
	}
	return nil
}

// RuleList reads a comma-separated list of rule IDs or names (SG1001,
// compound-background) and returns the IDs.
func RuleList(s string) ([]string, error) {
	var ids []string
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		r := analyze.Lookup(w)
		if r == nil {
			return nil, fmt.Errorf("unknown rule %q (see shguard --list-rules)", w)
		}
		ids = append(ids, r.ID)
	}
	return ids, nil
}
