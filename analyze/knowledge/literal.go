package knowledge

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Value is what a word that expands nothing passes to the program: quotes
// and escapes removed. It is "" for a word that expands something.
func Value(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
			return l.Value
		}
	}
	v, _, ok := Unquote(w, false)
	if !ok {
		return ""
	}
	return v
}

// Literal returns the value a word has when it contains no expansion, with
// the source offset of every byte of the value (plus one for its end), so
// that findings inside a `bash -c '…'` string point into the outer source.
// ok is false when the word expands something.
func Literal(w *syntax.Word) (val string, offs []int, ok bool) { return Unquote(w, true) }

// Unquote is literal, with the offsets only when wantOffs: most callers
// want the value alone, and the offsets cost a slice as long as it.
func Unquote(w *syntax.Word, wantOffs bool) (val string, offs []int, ok bool) {
	if len(w.Parts) == 1 {
		if l, isLit := w.Parts[0].(*syntax.Lit); isLit && l.ValuePos.Offset() == w.Pos().Offset() && strings.IndexByte(l.Value, '\\') < 0 {
			if !wantOffs {
				return l.Value, nil, true
			}
			// Fast path, and the shape of a here-document body.
			base := int(l.Pos().Offset())
			offs = make([]int, len(l.Value)+1)
			for i := range offs {
				offs[i] = base + i
			}
			return l.Value, offs, true
		}
	}
	var b strings.Builder
	if wantOffs {
		// The value is at most as long as its source: one allocation.
		offs = make([]int, 0, int(w.End().Offset()-w.Pos().Offset())+1)
	}
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			base := int(p.Pos().Offset())
			s := p.Value
			for i := 0; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) {
					if s[i+1] == '\n' {
						i++
						continue
					}
					i++
				}
				b.WriteByte(s[i])
				if wantOffs {
					offs = append(offs, base+i)
				}
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", nil, false
			}
			if !wantOffs && len(w.Parts) == 1 {
				return p.Value, nil, true
			}
			b.WriteString(p.Value)
			if wantOffs {
				base := int(p.Pos().Offset()) + 1
				for i := range len(p.Value) {
					offs = append(offs, base+i)
				}
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", nil, false
			}
			for _, dp := range p.Parts {
				l, isLit := dp.(*syntax.Lit)
				if !isLit {
					return "", nil, false
				}
				base := int(l.Pos().Offset())
				s := l.Value
				for i := 0; i < len(s); i++ {
					if s[i] == '\\' && i+1 < len(s) {
						switch s[i+1] {
						case '\n':
							i++
							continue
						case '"', '\\', '$', '`':
							i++
						}
					}
					b.WriteByte(s[i])
					if wantOffs {
						offs = append(offs, base+i)
					}
				}
			}
		default:
			return "", nil, false
		}
	}
	// The end is just past the last byte, inside the closing quote, so
	// that a range ending there does not take the quote in.
	if !wantOffs {
		return b.String(), nil, true
	}
	end := int(w.End().Offset())
	if len(offs) > 0 {
		end = offs[len(offs)-1] + 1
	}
	return b.String(), append(offs, end), true
}

// WordLit is w.Lit(), without its cost for the usual word of one literal
// part: Word.Lit builds a slice and joins it for every word, and the
// analysis asks for the literal of a command's words many times (resolve
// and the rules).
func WordLit(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			return l.Value
		}
	}
	return w.Lit()
}

// printers are reused: a new one allocates a 4 KB buffer, far more than
// printing the word it is made for.
var printers = sync.Pool{New: func() any { return syntax.NewPrinter() }}

// Printed is a node as mvdan.cc/sh prints it (the same spelling for the
// same code, however the source spaced it); ok is false if it cannot be.
func Printed(n syntax.Node) (src string, ok bool) {
	pr := printers.Get().(*syntax.Printer)
	var b strings.Builder
	err := pr.Print(&b, n)
	printers.Put(pr)
	return b.String(), err == nil
}
