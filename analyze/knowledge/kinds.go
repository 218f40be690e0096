package knowledge

// progKind says what a program name is known for; resolve looks it up once
// per command, for the rules and the walk to test bits.
type progKind uint8

const (
	KWrapper progKind = 1 << iota // runs its arguments as a command (wrapperOpts)
	KQuick                        // a builtin that finishes at once (quick)
	KServer                       // serverKind knows it (serverNames)
	KDaemon                       // daemonizes knows it (daemonNames)
)

// KindOf says what a program name is known for, from the word lists
// themselves (each a WordSet, which the first lookups of a process scan):
// it is the first question every analysis asks, so every hook start pays
// for the answer.
func KindOf(name string) progKind {
	var k progKind
	if _, ok := wrapperOpts.of(name); ok {
		k |= KWrapper
	}
	if quick.Has(name) || instant.Has(name) {
		k |= KQuick
	}
	if serverNames.Has(name) || followerNames.Has(name) || fileRunnerNames.Has(name) {
		k |= KServer
	}
	if daemonNames.Has(name) || moreDaemonNames.Has(name) {
		k |= KDaemon
	}
	return k
}
