// Package knowledge is what a word or a command is without running it:
// literal values of words, command resolution through wrappers (sudo,
// env, nice, timeout, nohup, setsid, shims), the runners that keep their
// work as a child (npm run, npx, make), supervisors, the programs that run
// until stopped (servers, watchers, followers: ServerKind) and those that
// daemonize themselves (Daemonizes), quick programs and durations, and
// the exit statuses of commands.
//
// It is the floor above diag and below everything that walks: the walk,
// the dialect table and the rules ask it questions; it asks nothing of
// them. A question it needs the shell for is a parameter (ScriptRunner's
// shLeaves: the dialect table answers it, the caller passes it in). A new
// program goes here, into the table of its kind — serverNames, daemonNames,
// the runners — never into a rule file.
package knowledge
