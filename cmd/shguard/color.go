package main

import (
	"fmt"
	"io"
	"os"

	"github.com/shguard/shguard/analyze"
)

// useColor decides --color: always, never, or auto (the default): colour
// when stdout is a terminal and NO_COLOR (https://no-color.org) is unset
// or empty, as ShellCheck and most CLIs do.
func useColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
			return false, nil
		}
		f, ok := stdout.(*os.File)
		if !ok {
			return false, nil
		}
		fi, err := f.Stat()
		return err == nil && fi.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, fmt.Errorf("%q: want auto, always or never", mode)
}

// ANSI SGR sequences of the text format: the severity in its colour (red,
// yellow, cyan, bold), the caret line in the same colour, fixes in green.
const (
	sgrReset = "\x1b[0m"
	sgrFix   = "\x1b[32m"
)

func severityColor(s analyze.Severity) string {
	switch s {
	case analyze.Error:
		return "\x1b[1;31m"
	case analyze.Warning:
		return "\x1b[1;33m"
	}
	return "\x1b[1;36m"
}

// paint wraps s in the sequence when on is set.
func paint(on bool, sgr, s string) string {
	if !on || s == "" {
		return s
	}
	return sgr + s + sgrReset
}
