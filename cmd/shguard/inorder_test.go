package main

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 100} {
		var got []int
		inOrder(n, func(i int) int {
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond) // finish out of order
			return i * i
		}, func(i, r int) {
			if r != i*i {
				t.Errorf("n=%d: emit(%d, %d), want %d", n, i, r, i*i)
			}
			got = append(got, i)
		})
		if len(got) != n {
			t.Fatalf("n=%d: %d emitted", n, len(got))
		}
		for i, g := range got {
			if g != i {
				t.Fatalf("n=%d: emitted in order %v", n, got)
			}
		}
	}
}
