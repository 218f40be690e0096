package walk

import (
	"fmt"
	"strconv"

	"github.com/shguard/shguard/analyze/dialect"
	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion, where the shell does it, turns one literal word into
// several: `for i in {1..30}; do curl … && break; sleep 1; done` runs
// thirty rounds in bash and zsh, and `for i in {1..3}; do ./worker & done`
// starts three workers there; dash expands no braces (one round, i is the
// text `{1..30}`), and mksh expands lists (`{api,web}`) but not sequences
// (eval.c's alt_expand looks for commas only). The for walk takes the
// words a loop's list expands to (see braceItems).

// braceLimit bounds the words a list is expanded to: a loop's rounds are
// counted up to two, and a case branch a round takes is matched against
// each word, so a longer list is taken as it is written.
const braceLimit = 1000

// braceItems is a for loop's list after brace expansion in the shell's
// dialect: the items themselves when none of them expands.
func (w *walker) braceItems(items []*syntax.Word) []*syntax.Word {
	kind := w.sh.d.Braces
	if kind == dialect.BracesNone {
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
func braceWords(word *syntax.Word, kind dialect.BraceKind) ([]*syntax.Word, bool) {
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
	if kind == dialect.BracesLists && !seqsAsText(split) {
		return nil, false // only sequences: mksh keeps the word
	}
	texts, ok := braceTexts(split.Parts)
	if !ok || len(texts) == 1 {
		return nil, false // ({x} is text: no comma, no sequence)
	}
	out := make([]*syntax.Word, len(texts))
	for i, t := range texts {
		out[i] = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: t}}}
	}
	return out, true
}

// braceTexts is what the parts of a split word expand to, in order, or
// false past braceLimit words. (mvdan.cc/sh/v3/expand has this too, but
// links os/user, and with it cgo, into every start of shguard.)
func braceTexts(parts []syntax.WordPart) ([]string, bool) {
	out := []string{""}
	for _, p := range parts {
		var alts []string
		switch p := p.(type) {
		case *syntax.Lit:
			alts = []string{p.Value}
		case *syntax.BraceExp:
			var ok bool
			if alts, ok = braceAlts(p); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
		if len(out)*len(alts) > braceLimit {
			return nil, false
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		out = next
	}
	return out, true
}

// braceAlts is the words one brace expansion stands for: each element of
// a list, expanded in turn, or each step of a sequence of numbers
// (`{1..30}`, `{01..10}`, `{1..9..2}`, `{3..1}`) or of letters (`{a..e}`).
// braceBound bounds the numbers of a sequence the walk expands: `{1..N}`
// past it is more rounds than braceLimit anyway.
const braceBound = 1 << 30

func braceAlts(br *syntax.BraceExp) ([]string, bool) {
	if !br.Sequence {
		var alts []string
		for _, e := range br.Elems {
			ts, ok := braceTexts(e.Parts)
			if !ok || len(alts)+len(ts) > braceLimit {
				return nil, false
			}
			alts = append(alts, ts...)
		}
		return alts, true
	}
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	a, err1 := strconv.Atoi(from)
	b, err2 := strconv.Atoi(to)
	chars := err1 != nil || err2 != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, b = int(from[0]), int(to[0])
	}
	if a < -braceBound || a > braceBound || b < -braceBound || b > braceBound {
		return nil, false // (and b-a cannot overflow below)
	}
	step := 1
	if len(br.Elems) > 2 {
		n, err := strconv.Atoi(br.Elems[2].Lit())
		if err != nil {
			return nil, false
		}
		step = max(n, -n, 1)
	}
	if a > b {
		step = -step
	}
	if (b-a)/step >= braceLimit {
		return nil, false
	}
	width := 0
	if !chars && (len(from) > 1 && from[0] == '0' || len(to) > 1 && to[0] == '0') {
		width = max(len(from), len(to))
	}
	var alts []string
	for n := a; step > 0 && n <= b || step < 0 && n >= b; n += step {
		switch {
		case chars:
			alts = append(alts, string(rune(n)))
		case width > 0:
			alts = append(alts, fmt.Sprintf("%0*d", width, n))
		default:
			alts = append(alts, strconv.Itoa(n))
		}
	}
	return alts, true
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
