//go:build linux || darwin || freebsd

package main

import "github.com/shguard/shguard/internal/flagset"

// flagSet is internal/flagset's Set.
type flagSet = flagset.Set

// newFlagSet returns a set of shexec's flags: pflag's spellings and
// messages without pflag, whose package net would make the default (cgo)
// build a dynamically linked program that pays the loader at every start
// (internal/flagset). --help lists the flags by name, as pflag did.
func newFlagSet(name string) *flagSet {
	fs := flagset.New(name)
	fs.SortFlags = true
	return fs
}
