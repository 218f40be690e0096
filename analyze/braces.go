package analyze

import (
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion, where the shell does it, turns one literal word into
// several: `for i in {1..30}; do curl … && break; sleep 1; done` runs
// thirty rounds in bash and zsh, and `for i in {1..3}; do ./worker & done`
// starts three workers there; dash expands no braces (one round, i is the
// text `{1..30}`), and mksh expands lists (`{api,web}`) but not sequences
// (eval.c's alt_expand looks for commas only). The for walk takes the
// words a loop's list expands to (see braceItems).

// braceKind is what brace expansion a shell does.
type braceKind uint8

const (
	bracesNone  braceKind = iota // dash: `{a,b}` and `{1..3}` are text
	bracesLists                  // mksh: `{a,b}`; `{1..3}` is text
	bracesAll                    // bash, zsh: `{a,b}`, `{1..3}`, `{a..c}`, `{1..9..2}`
)

// braceLimit bounds the words a list is expanded to: a loop's rounds are
// counted up to two, and a case branch a round takes is matched against
// each word, so a longer list is taken as it is written.
const braceLimit = 1000

// braceItems is a for loop's list after brace expansion in the shell's
// dialect: the items themselves when none of them expands.
func (w *walker) braceItems(items []*syntax.Word) []*syntax.Word {
	kind := w.sh.d.braces
	if kind == bracesNone {
		return items
	}
	var out []*syntax.Word
	for i, it := range items {
		words, ok := braceWords(it, kind)
		if !ok {
			if out != nil {
				out = append(out, it)
			}
			continue
		}
		if out == nil {
			out = append([]*syntax.Word(nil), items[:i]...)
		}
		out = append(out, words...)
		if len(out) > braceLimit {
			return items
		}
	}
	if out == nil {
		return items
	}
	return out
}

// braceWords expands one unquoted literal word with braces the dialect
// expands; ok is false for a word that stays as it is.
func braceWords(word *syntax.Word, kind braceKind) ([]*syntax.Word, bool) {
	if len(word.Parts) != 1 {
		return nil, false
	}
	lit, isLit := word.Parts[0].(*syntax.Lit)
	if !isLit {
		return nil, false
	}
	split := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: lit.Value}}}
	if !syntax.SplitBraces(split) {
		return nil, false
	}
	if kind == bracesLists && !seqsAsText(split) {
		return nil, false // only sequences: mksh keeps the word
	}
	var out []*syntax.Word
	for wd, err := range expand.BracesSeq(nil, split) {
		if err != nil || len(out) == braceLimit {
			return nil, false
		}
		out = append(out, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: wd.Lit()}}})
	}
	return out, true
}

// seqsAsText turns the sequences among a split word's brace expansions
// back into the text they were written as, for a shell that expands only
// lists, and reports whether a list is left to expand.
func seqsAsText(word *syntax.Word) (lists bool) {
	for i, p := range word.Parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if br.Sequence {
			text := "{" + br.Elems[0].Lit()
			for _, e := range br.Elems[1:] {
				text += ".." + e.Lit()
			}
			word.Parts[i] = &syntax.Lit{Value: text + "}"}
			continue
		}
		lists = true
		for _, e := range br.Elems {
			seqsAsText(e) // nested: {a,b{1..2}}
		}
	}
	return lists
}
