// Package walk is the model: an abstract run of a shell command. It parses
// the source as its shell reads it (Pass.Walk) and walks every statement
// in execution order, modelling which descriptors each process holds and
// what becomes of each background job (waited for, killed, left running,
// escaped on purpose). What it found stays in the Pass as facts the floors
// above read and never write: the jobs (Job), the marks of positions a
// rule reports (Mark, picked by the rule's ID), the calls of programs that
// may never end (Call), and the parse's own facts (NotPOSIX, Reread).
//
// The walk imports no rule and no fix: what it exports is what they read,
// and nothing of theirs reaches down (findings, the rule being checked and
// the fix's caches are the façade's checker's). A kill is decided in
// kill.go and the files of its forms (kill_*.go); the walker's state per
// concern is in kill_state.go and trap_state.go. This package imports only
// dialect, fdtable, knowledge and diag.
package walk
