package main

import "github.com/shguard/shguard/internal/flagset"

// flagSet is internal/flagset's Set.
type flagSet = flagset.Set

// newFlagSet returns a set of shguard's flags: pflag's spellings and
// messages without pflag, which links package net (internal/flagset says
// why that matters at every `shguard hook` start). --help lists the flags
// in definition order.
func newFlagSet(name string) *flagSet { return flagset.New(name) }
