package knowledge

// table is a knowledge table keyed by program name, written as a slice
// rather than a map: Go lays a slice literal of strings and slices out in
// the binary as it is, where a map literal is built by code at every
// start — and every `shguard hook` start paid for the followers' and
// detachers' maps (about 55K instructions and 15 KB of a clean call,
// callgrind and GODEBUG=inittrace=1) though most commands look up a name
// neither has. A lookup reads the entries in order (a few dozen).
type table[T any] []named[T]

type named[T any] struct {
	name string
	of   T
}

// of returns the entry for name, and whether there is one.
func (t table[T]) of(name string) (T, bool) {
	for _, e := range t {
		if e.name == name {
			return e.of, true
		}
	}
	var zero T
	return zero, false
}
