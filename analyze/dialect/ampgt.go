package dialect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shguard/shguard/analyze/diag"
	"mvdan.cc/sh/v3/syntax"
)

// dash has no `&>`: it reads `server &>/dev/null &` as `server &` followed
// by `>/dev/null &`, so server runs in the background still holding the
// caller's output (checked under dash 0.5.12), where bash, zsh and mksh
// redirect both streams. The POSIX parser rejects `&>`; to walk what dash
// really runs, parseAmpGt parses a copy of the source in which each `&>`
// has become `& >` without changing the length: the `&` moves onto the
// blank before it, or the `>` onto the blank after it. Every other byte
// keeps its offset, so findings keep their positions; fixes that would
// touch a moved byte are dropped (see dropMovedFixes).

// Reread parses src as the shell d reads what mvdan.cc/sh's parser
// refused with parseErr, where the two differ: dash's `&>` (parseAmpGt),
// bash's lone `!`, zsh's empty `;` and try/always (parseZsh). Each change
// keeps every byte's offset. It returns parseErr where the shell has no
// such reading; moved are the `&>` operators dash read as `&`, or the
// `always` words zsh read as a try block's end.
func Reread(src []byte, d *Dialect, parseErr error) (f *syntax.File, moved []int, err error) {
	switch {
	case d.AmpGtBackgrounds:
		f, _, moved, err = parseAmpGt(src, d.Variant)
	case d.Variant == syntax.LangBash:
		// zsh's `cmd &!` written for bash: `cmd &` then `!`, an empty
		// negation bash accepts; `:` does nothing, as it does.
		f, err = parseBlanking(src, d.Variant, "`!` cannot form a statement alone", '!', ':')
	case d.Variant == syntax.LangZsh:
		f, moved, err = parseZsh(src)
	default:
		return nil, nil, parseErr
	}
	return f, moved, err
}

// parseBlanking parses src with each byte was that the parser refuses
// with msg replaced by the byte with, at the same offset.
func parseBlanking(src []byte, lang syntax.LangVariant, msg string, was, with byte) (*syntax.File, error) {
	text := src
	for range 64 {
		f, err := Parse(text, lang)
		if err == nil || !strings.Contains(err.Error(), msg) {
			return f, err
		}
		var pe *diag.ParseError
		if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset >= len(text) || text[pe.Offset] != was {
			return nil, err
		}
		if &text[0] == &src[0] {
			text = append([]byte(nil), src...)
		}
		text[pe.Offset] = with
	}
	return nil, fmt.Errorf("too many %q to read", was)
}

// parseAmpGt parses src as dash reads it. moved are the offsets (in src)
// of the `&>` operators read as `&`, in the order found.
func parseAmpGt(src []byte, lang syntax.LangVariant) (f *syntax.File, text []byte, moved []int, err error) {
	text = src
	for range 64 {
		f, err = Parse(text, lang)
		if err == nil || !strings.Contains(err.Error(), "`&>") {
			return f, text, moved, err
		}
		var pe *diag.ParseError
		if !errors.As(err, &pe) {
			return nil, nil, nil, err
		}
		off := pe.Offset
		if off < 0 || off+1 >= len(text) || text[off] != '&' || text[off+1] != '>' {
			return nil, nil, nil, err
		}
		if len(moved) == 0 {
			text = append([]byte(nil), src...)
		}
		gts := off + 1
		for gts < len(text) && text[gts] == '>' {
			gts++ // the end of `>` or `>>`
		}
		switch {
		case off > 0 && isBlank(text[off-1]):
			text[off-1], text[off] = '&', ' '
		case gts < len(text) && isBlank(text[gts]):
			copy(text[off+2:gts+1], text[off+1:gts])
			text[off+1] = ' '
		default:
			return nil, nil, nil, err // `a&>b`: no blank to borrow
		}
		moved = append(moved, off)
	}
	return nil, nil, nil, err
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
