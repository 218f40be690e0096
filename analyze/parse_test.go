package analyze_test

import (
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze"
)

// TestShellReads checks which sources each shell runs and which it
// refuses, where that differs from what mvdan.cc/sh's parser for its
// variant says: the rereads (dash's `&>`, bash's lone `!`, zsh's empty
// `;`) and the refusals (zsh's background command with no command word),
// alone and together.
func TestShellReads(t *testing.T) {
	for _, tc := range []struct {
		lang    analyze.Lang
		src     string
		refused string // a part of the parse error; "" when the shell runs it
	}{
		{analyze.LangDash, "./server &>/dev/null &", ""},
		{analyze.LangBash, "./server >/dev/null 2>&1 &! sleep 1", ""},
		{analyze.LangZsh, "./server >/dev/null 2>&1 &; sleep 1; kill $!", ""},
		{analyze.LangZsh, "./server >/dev/null 2>&1 &\n; sleep 1", ""},
		{analyze.LangZsh, "true; ; echo ok", ""},
		{analyze.LangZsh, "out=$(npm run dev &) &", "cannot be put in the background"},
		{analyze.LangZsh, "x=$(./server &) & sleep 1; kill $!", "cannot be put in the background"},
		{analyze.LangZsh, "true &; x=1 &", "cannot be put in the background"},
		{analyze.LangZsh, "echo a;; echo b", "case clause"},
		{analyze.LangBash, "true &; echo ok", "`;`"},
		{analyze.LangBash, "out=$(npm run dev &) &", ""},
	} {
		_, err := analyze.Analyze([]byte(tc.src), analyze.WithLang(tc.lang))
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%v %q: %v; the shell runs it", tc.lang, tc.src, err)
		case tc.refused != "" && err == nil:
			t.Errorf("%v %q: no parse error; the shell refuses it", tc.lang, tc.src)
		case tc.refused != "" && !strings.Contains(err.Error(), tc.refused):
			t.Errorf("%v %q: %v; want an error about %s", tc.lang, tc.src, err, tc.refused)
		}
	}
}
