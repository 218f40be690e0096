package lsp

import (
	"fmt"
	"sort"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is a document's content with the offset of each line, to convert
// between the analyzer's byte offsets and LSP positions, which count
// lines and UTF-16 code units (the only encoding every client accepts).
// A text is never modified: an edit makes a new one, so that an analysis
// can go on reading the old one while the editor types.
type text struct {
	src   []byte
	lines []int // the offset where each line starts
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// lineEnd is the offset of the end of line i, its \n (and a \r before
// it) excluded.
func (t *text) lineEnd(i int) int {
	end := len(t.src)
	if i+1 < len(t.lines) {
		end = t.lines[i+1] - 1
	}
	if end > t.lines[i] && t.src[end-1] == '\r' {
		end--
	}
	return end
}

// offset converts an LSP position to a byte offset. A line past the end
// is the end of the text and a character past the end of its line is the
// end of the line, as the specification says.
func (t *text) offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(t.lines) {
		return len(t.src)
	}
	off, end := t.lines[line], t.lineEnd(line)
	for units := int(p.Character); units > 0 && off < end; {
		r, n := utf8.DecodeRune(t.src[off:end])
		u := utf16Len(r)
		if u > units {
			break // inside a surrogate pair: stay before it
		}
		units -= u
		off += n
	}
	return off
}

// position converts a byte offset to an LSP position.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	units := 0
	for i := t.lines[line]; i < off; {
		r, n := utf8.DecodeRune(t.src[i:off])
		units += utf16Len(r)
		i += n
	}
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(units)}
}

// lineCol converts the analyzer's 1-based line and byte column (a parse
// error has no offset) to a byte offset.
func (t *text) lineCol(line, col int) int {
	if line < 1 || line > len(t.lines) {
		return len(t.src)
	}
	return min(t.lines[line-1]+max(col-1, 0), t.lineEnd(line-1))
}

func (t *text) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(end)}
}

// utf16Len is how many UTF-16 code units a rune takes; an invalid byte is
// one (clients show it as U+FFFD).
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// apply returns the text after one change of textDocument/didChange: a
// range and its new text, or without a range the whole new text.
func (t *text) apply(change any) (*text, error) {
	switch c := change.(type) {
	case protocol.TextDocumentContentChangeEventWhole:
		return newText([]byte(c.Text)), nil
	case protocol.TextDocumentContentChangeEvent:
		start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
		if end < start {
			return nil, fmt.Errorf("change range ends before it starts: %v", c.Range)
		}
		src := make([]byte, 0, len(t.src)-(end-start)+len(c.Text))
		src = append(append(append(src, t.src[:start]...), c.Text...), t.src[end:]...)
		return newText(src), nil
	}
	return nil, fmt.Errorf("unknown change %T", change)
}
