package knowledge

import (
	"strings"
)

// shimOperands is how many words a shim takes after its options and
// before the command: the user of gosu, su-exec, setuidgid and envuidgid
// (`gosu app:app ./server`), the directory of envdir.
var shimOperands = table[int]{
	{"gosu", 1}, {"su-exec", 1}, {"setuidgid", 1}, {"envuidgid", 1}, {"envdir", 1},
}

// RelayKind says where a shim that stays as its command's parent passes
// the signals it catches on.
type RelayKind uint8

const (
	RelayNone  RelayKind = iota
	relayChild           // to the command alone (tini, dumb-init -c)
	RelayGroup           // to the command's process group (dumb-init, tini -g)
)

// shimRelay is where the shim name, given option o, passes signals on,
// given where it passed them before the option (relay).
func shimRelay(name, o string, relay RelayKind) RelayKind {
	switch name {
	case "tini":
		if relay == RelayNone {
			relay = relayChild
		}
		if len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], 'g') >= 0 { // -g, -sg
			relay = RelayGroup
		}
	case "dumb-init":
		if relay == RelayNone {
			relay = RelayGroup
		}
		if o == "--single-child" || len(o) > 1 && o[1] != '-' && strings.IndexByte(o[1:], 'c') >= 0 {
			relay = relayChild
		}
	}
	return relay
}
