package hook

import (
	"bytes"
	"encoding/json"
)

// mustJSON is s as a JSON string.
func mustJSON(s string) json.RawMessage { return appendJSONString(nil, s) }

// marshal encodes without HTML escaping (commands are full of & and <),
// with a final newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
