package analyze

import "mvdan.cc/sh/v3/syntax"

// lastPipelineJob returns how a shell that backgrounds only the last
// pipeline of an and-or list (dialect.bgLastPipeline, zsh) runs `A && B
// &`: as `A && { B & }`, A in its own foreground, so that `cd app &&
// server &` changes the shell's directory and `server || echo failed &`
// waits for the server. zsh's execlist runs every pipeline of a sublist
// but the last with Z_SYNC and only the last with the list's Z_ASYNC
// (Src/exec.c; zshmisc: "note the difference from other shells which
// execute the whole sublist in the background"). It returns nil for any
// other statement. mvdan.cc/sh parses the list left-associative, so the
// last pipeline is the right of the top connection.
func (w *walker) lastPipelineJob(s *syntax.Stmt) *syntax.Stmt {
	if !w.sh.d.bgLastPipeline || s.Coprocess || len(s.Redirs) > 0 {
		return nil
	}
	b, ok := s.Cmd.(*syntax.BinaryCmd)
	if !ok || (b.Op != syntax.AndStmt && b.Op != syntax.OrStmt) {
		return nil
	}
	job := *b.Y
	job.Background, job.Disown, job.Semicolon = s.Background, s.Disown, s.Semicolon
	list := *b
	list.Y = &job
	fg := *s
	fg.Background, fg.Disown, fg.Cmd = false, false, &list
	return &fg
}
