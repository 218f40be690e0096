//go:build linux && !portable

package main

// portableBuild: see portable_test.go.
const portableBuild = false
