// Package diag holds the types every floor of the analyzer shares and its
// clients see: Finding, Severity, Position, Edit, Fix and ParseError. It
// is the ground floor: it imports nothing of the analyzer, so that the
// dialect table, the walk and the rules can all speak of a finding or a
// parse error without importing each other (package analyze keeps aliases
// of these names for its clients).
package diag
