//go:build linux

package exec

// The test binary doubles as the supervisor program: Store.Start re-executes
// os.Executable(), which here is the test binary. init runs before the
// testing flags are parsed, so a supervisor invocation never reaches them.
func init() { MaybeSupervise() }
