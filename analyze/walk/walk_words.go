package walk

import (
	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/fdtable"
	"github.com/shguard/shguard/analyze/knowledge"
	"mvdan.cc/sh/v3/syntax"
)

// words walks the command and process substitutions inside words.
func (w *walker) words(ws []*syntax.Word, env fdtable.Table) {
	for _, word := range ws {
		if word != nil {
			w.nodeSubsts(word, env)
		}
	}
}

func (w *walker) nodeSubsts(n syntax.Node, env fdtable.Table) {
	if word, ok := n.(*syntax.Word); ok && knowledge.PlainWord(word) {
		return // the common case, without a walk
	}
	knowledge.EachSubst(n, func(n syntax.Node) {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			w.forks++
			// The shell reads the substitution's stdout to EOF. When that
			// shell is itself (part of) a background job, it is that job
			// that waits, not the caller.
			sub := env
			sub[1] = fdtable.TBlock
			if w.sh.async {
				sub[1] = fdtable.TJobRead
			}
			njobs, quits := len(w.p.Jobs), w.quits
			w.quits = fdtable.TNone // (its pipe is not the pipeline's)
			w.subshell(n.Stmts, sub, dialect.FormSubst)
			w.quits = quits
			// A job left running with the pipe open keeps the reader
			// waiting as long as it runs.
			if w.keepOpen(w.p.Jobs[njobs:], sub[1]) {
				w.slow++
				if j := w.job; j != nil && j.sh == w.sh {
					j.heldReads++
				}
			}
		case *syntax.ProcSubst:
			w.procSubst(n, env)
		}
	})
}

func redirWords(rs []*syntax.Redirect) []*syntax.Word {
	if len(rs) == 0 {
		return nil
	}
	ws := make([]*syntax.Word, 0, len(rs))
	for _, r := range rs {
		if r.Word != nil {
			ws = append(ws, r.Word)
		}
		if r.Hdoc != nil {
			ws = append(ws, r.Hdoc)
		}
	}
	return ws
}
