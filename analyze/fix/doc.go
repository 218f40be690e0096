// Package fix makes the fixes: the edits that turn a compound background
// statement (`A && B &`) into one whose background process is B itself,
// in the style the caller chose (StyleExec: `A && exec B &`; StyleBrace:
// `A && { B & }`), only where that provably changes nothing else. It reads
// the walk's facts (a job's statement, tail and source, the script's
// functions and traps) and imports no rule: SG1002 asks it for the fix
// of the job it reports. This package imports only walk and the floors
// below it.
package fix
