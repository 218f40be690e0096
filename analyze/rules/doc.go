// Package rules holds the checks, one file per rule (sgNNNN_name.go), each
// a Rule value with its documentation, a WRONG and a RIGHT example, and a
// check that reads the walk's facts — the jobs, marks and calls of the
// walk.Pass its Pass embeds — and reports. A rule reads no other rule's
// findings (the order they run in does not matter:
// TestRuleOrderIrrelevant), never computes the model again, and keeps no
// knowledge table: what a program is lives in knowledge, what a shell
// does in dialect, what became of a job in walk. The two directive rules
// (SG3101, SG3102) are declared here and reported by the façade, which
// applies the directives after every rule ran. This package imports only
// fix, walk and the floors below them.
package rules
