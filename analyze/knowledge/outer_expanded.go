package knowledge

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// OuterExpanded is the code of a nested shell's -c string whose parameters
// the shell that runs the command expands before the nested shell parses
// it: `bash -c "cd $APP_DIR && npm start &"`, or a make recipe's `bash -c
// "trap 'kill -- -$$$$' EXIT; …"`. Each parameter expansion stands as a
// word of underscores as long as its source: a value the walk does not
// know, which names no pid, file or job of the nested shell's: `kill
// $PID` and `kill $!` there kill nothing the walk follows). `$$` is kept:
// the outer shell's pid, whose group `kill -- -$$` signals, every job of
// both shells in it, when the caller made the outer shell a group leader,
// and no group otherwise, as the walk takes the nested shell's `-$$`. ok
// is false for a word with no parameter (see literal) or with a part that
// runs code in the outer shell, a command substitution. The code gets no
// fixes (they would write the stand-ins back).
func OuterExpanded(w *syntax.Word) (code string, offs []int, ok bool) {
	parts := make([]syntax.WordPart, len(w.Parts))
	params := false
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			parts[i], params = paramStub(p), true
		case *syntax.DblQuoted:
			dq := *p
			dq.Parts = make([]syntax.WordPart, len(p.Parts))
			for j, dp := range p.Parts {
				if pe, isParam := dp.(*syntax.ParamExp); isParam {
					dq.Parts[j], params = paramStub(pe), true
				} else {
					dq.Parts[j] = dp
				}
			}
			parts[i] = &dq
		default:
			parts[i] = p
		}
	}
	if !params {
		return "", nil, false
	}
	return Literal(&syntax.Word{Parts: parts})
}

// paramStub is the literal that stands for an expansion the walk cannot
// know, at its place and as long as its source; `$$` stands as itself.
func paramStub(p *syntax.ParamExp) *syntax.Lit {
	n := int(p.End().Offset() - p.Pos().Offset())
	v := strings.Repeat("_", n)
	if p.Short && p.Param != nil && p.Param.Value == "$" {
		v = "$$"
	}
	return &syntax.Lit{ValuePos: p.Pos(), ValueEnd: p.End(), Value: v}
}
