package lazy

import (
	"sync"
	"testing"
)

var digits = Regexp{Expr: `[0-9]+`}

func TestRegexp(t *testing.T) {
	if got := digits.Get().FindString("ab123c"); got != "123" {
		t.Fatalf("FindString = %q, want 123", got)
	}
	if digits.Get() != digits.Get() {
		t.Fatal("compiled twice")
	}
}

// TestValueOnce: Build runs once, also when many goroutines ask at once.
func TestValueOnce(t *testing.T) {
	builds := 0
	v := Value[[]int]{Build: func() []int { builds++; return []int{1, 2} }}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); _ = v.Get() }()
	}
	wg.Wait()
	if builds != 1 || len(v.Get()) != 2 {
		t.Fatalf("builds = %d, value %v", builds, v.Get())
	}
}
