package knowledge

import "strings"

// progKind says what a program name is known for; resolve looks it up once
// per command, for the rules and the walk to test bits.
type progKind uint8

const (
	KWrapper progKind = 1 << iota // runs its arguments as a command (wrapperOpts)
	KQuick                        // a builtin that finishes at once (quick)
	KServer                       // serverKind knows it (serverNames)
	KDaemon                       // daemonizes knows it (daemonNames)
)

// KindOf says what a program name is known for. It is the first question
// every analysis asks, for every command name, so every hook start pays
// for the answer: it reads kindIndex, the word lists of each kind (quick,
// instant; serverNames, followerNames, fileRunnerNames; daemonNames,
// moreDaemonNames: kindLists in kinds_test.go) merged and sorted ahead of
// time in kinds_index.go, rather than scanning each list (9 lists, 1.6 KB:
// 31K of a clean hook call's 730K instructions, callgrind) or building a
// map at start.
func KindOf(name string) progKind {
	var k progKind
	if _, ok := wrapperOpts.of(name); ok {
		k |= KWrapper
	}
	lo, hi := 0, len(kindIndex)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := strings.Compare(kindIndex[mid].name, name); {
		case c == 0:
			return k | kindIndex[mid].of
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return k
}
