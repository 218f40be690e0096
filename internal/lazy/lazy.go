// Package lazy holds package-level values that are built the first time
// they are used instead of when the program starts.
//
// `shguard hook` and shexec start for every command an agent runs, and a
// package whose variables need code at start-up has that code run, its
// page of the binary read in and its data written, in every one of those
// processes (about 9 µs for each 64 KB of code first touched, measured on
// the development VM). A sync.OnceValue is itself such a call. A var of
// these types is a composite literal the linker lays out: nothing runs
// until Get. cmd/shguard's TestNoStartupWork keeps shguard's packages free
// of start-up code.
package lazy

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use.
type Regexp struct {
	Expr string // the expression, as regexp.MustCompile takes it
	once sync.Once
	re   *regexp.Regexp
}

// Get returns the compiled expression; it panics, as regexp.MustCompile
// does, on an expression that does not compile (a test that uses it finds
// that).
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}

// Value is a value built on first use by Build.
type Value[T any] struct {
	Build func() T
	once  sync.Once
	v     T
}

// Get returns the value, building it the first time.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.Build() })
	return l.v
}
