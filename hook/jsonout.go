package hook

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"
)

// jsonObject writes one JSON object by hand, its keys in the order they
// are added, byte for byte as encoding/json's Encoder with
// SetEscapeHTML(false) writes the same struct (or, with sorted keys, map).
//
// The answers that change a command are written with it because the
// encoder reflects over a value's type the first time it meets it, and
// the hook is a process that answers once: every rewritten command paid
// that, about a tenth of a millisecond of the hook's start.
type jsonObject struct{ b []byte }

func (o *jsonObject) key(k string) {
	if o.b == nil {
		// One buffer for a whole answer: each growth to a size class the
		// process has not used yet takes fresh pages (page faults).
		o.b = append(make([]byte, 0, 1024), '{')
	} else {
		o.b = append(o.b, ',')
	}
	o.b = appendJSONString(o.b, k)
	o.b = append(o.b, ':')
}

// str adds a string field.
func (o *jsonObject) str(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// strOmitEmpty adds a string field unless it is "" (`json:",omitempty"`).
func (o *jsonObject) strOmitEmpty(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

// raw adds a field whose value is already compact JSON.
func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

// json is the object; an answer adds the newline Encoder.Encode ends with.
func (o *jsonObject) json() []byte {
	if o.b == nil {
		return []byte("{}")
	}
	return append(o.b, '}')
}

// rawMap writes m as encoding/json writes a map[string]json.RawMessage:
// keys sorted, each value compacted.
func rawMap(m map[string]json.RawMessage) ([]byte, error) {
	var o jsonObject
	var v bytes.Buffer
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v.Reset()
		if err := json.Compact(&v, m[k]); err != nil {
			return nil, err
		}
		o.raw(k, v.Bytes())
	}
	return o.json(), nil
}

// appendJSONString appends s as a JSON string the way encoding/json does
// without HTML escaping: quotes, backslashes and control characters
// escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
