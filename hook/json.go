package hook

import (
	"bytes"
	"encoding/json"
)

func mustJSON(s string) json.RawMessage {
	b, _ := marshal(s)
	return bytes.TrimSuffix(b, []byte("\n"))
}

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
