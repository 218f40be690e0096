package main

import (
	"runtime"
	"sync"
)

// inOrder runs work(i) for every i in [0, n) on as many goroutines as
// there are CPUs, and calls emit(i, result) in index order, each as soon as
// it and every earlier one are done. A CI job lints a repository's scripts
// in one call; each file is parsed and analysed on its own, so the files
// spread over the cores while the output stays exactly what a sequential
// run prints. Workers run at most a few inputs ahead of the output, so the
// memory held is a few files' worth whatever their number. With one input
// or one CPU it is a plain loop.
func inOrder[T any](n int, work func(i int) T, emit func(i int, r T)) {
	procs := min(runtime.GOMAXPROCS(0), n)
	if procs <= 1 {
		for i := range n {
			emit(i, work(i))
		}
		return
	}
	results := make([]T, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	ahead := make(chan struct{}, 4*procs) // a token per input started, returned once emitted
	next := make(chan int)
	go func() {
		for i := range n {
			ahead <- struct{}{}
			next <- i
		}
		close(next)
	}()
	var wg sync.WaitGroup
	for range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = work(i)
				close(done[i])
			}
		}()
	}
	for i := range n {
		<-done[i]
		emit(i, results[i])
		var zero T
		results[i] = zero // emitted: let it go
		<-ahead
	}
	wg.Wait()
}
