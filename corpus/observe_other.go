//go:build !linux

package corpus

import (
	"context"
	"errors"
	"runtime"
)

// errNoObserve: Observe finds a run's processes through /proc and keeps
// orphans with PR_SET_CHILD_SUBREAPER, which only Linux has.
var errNoObserve = errors.New("corpus.Observe needs Linux (/proc and a child subreaper); this is " + runtime.GOOS)

// Subreaper reports that this platform has no child subreaper.
func Subreaper() error { return errNoObserve }

// Observe cannot observe on this platform.
func Observe(ctx context.Context, script string, opts Options) (Outcome, error) {
	return Outcome{}, errNoObserve
}

// ReapZombies has nothing to do where Observe does not run.
func ReapZombies() {}

// Uninherit has nothing to do where Observe does not run.
func Uninherit() {}
