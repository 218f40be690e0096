//go:build linux && !portable

package mcpserver

// portableBuild: see portable_test.go.
const portableBuild = false
