package main

import (
	"encoding/xml"
	"strings"
	"testing"
)

// attr escapes as encoding/xml does, which it replaces.
func TestAttrLikeEncodingXML(t *testing.T) {
	for _, s := range []string{
		"", "plain", `"quoted" & 'single' <tag>`, "tab\there\nnew\rline",
		"bell\x07 nul\x00 del\x7f", "bad utf8 \xff\xfe end", "\uFFFD real replacement",
		"ünïcödé ✓ 😀", "\uFFFE \uFFFF \U0010FFFF", "a\xed\xa0\x80b",
	} {
		var want strings.Builder
		xml.EscapeText(&want, []byte(s))
		if got := attr(s); got != want.String() {
			t.Errorf("attr(%q) = %q, want %q", s, got, want.String())
		}
	}
}
