package knowledge

import (
	"strings"
	"sync"
	"sync/atomic"
)

// WordSet is a set of names written as one space-separated string. Its
// first lookups read the string itself; only a process that asks often
// (a linter over many scripts) builds the map. shexec links the analyzer
// but consults it only for commands that contain '&', and `shguard hook`
// analyses one command per process: a table built at start, or at the
// first lookup, would be paid by every `shexec -c true` (bench/shexec.sh)
// and every hook start (building them all cost about a tenth of a clean
// hook call's instructions, callgrind).
//
// A set is made by SetOf, or, inside another table's composite literal, as
// &name of a package-level WordSet{Words: ...}: the linker lays both out,
// where a call inside a composite literal would run at start-up.
type WordSet struct {
	Words   string // the names, separated by blanks
	lookups atomic.Int32
	once    sync.Once
	m       map[string]bool
}

// scanLookups is how many lookups of a set read its string before the
// map is built: scanning a list of a few hundred names costs about as much
// as a few map lookups, building the map as some hundreds.
const scanLookups = 32

func SetOf(words string) *WordSet { return &WordSet{Words: words} }

func (s *WordSet) Has(name string) bool {
	if s == nil {
		return false
	}
	if s.lookups.Load() < scanLookups {
		s.lookups.Add(1)
		return hasWord(s.Words, name)
	}
	return s.names()[name]
}

func (s *WordSet) names() map[string]bool {
	s.once.Do(func() {
		s.m = make(map[string]bool, maxWords(s.Words))
		for w := range strings.FieldsSeq(s.Words) {
			s.m[w] = true
		}
	})
	return s.m
}

// hasWord reports whether name is one of the whitespace-separated words.
func hasWord(words, name string) bool {
	if name == "" || strings.ContainsAny(name, " \t\n") {
		return false
	}
	for i := 0; ; {
		j := strings.Index(words[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || isSpace(words[j-1])) && (end == len(words) || isSpace(words[end])) {
			return true
		}
		i = j + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }

// maxWords bounds the number of words in a word list, to size its map.
func maxWords(words string) int {
	return strings.Count(words, " ") + strings.Count(words, "\n") + 1
}
