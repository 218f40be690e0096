#!/bin/sh
# Moves the fix (fix_compound.go and the Style option's type) out of
# package analyze into analyze/fix, between the walk and the rules: run
# from the repository root after walk.sh (MOVES.md, section 6). Stops at
# the first step that fails.
set -eu
tool=internal/tools/layermove
(cd $tool && go build -o /tmp/layermove .)
mv=/tmp/layermove
build() { go build ./... && go vet ./analyze/...; }

# the hand edits: the fixer gets a state of its own (fixer.go: the pass it
# reads, its style and scope caches), held by the checker, set by WithStyle
git apply $tool/edits/6_fix.patch || { echo "the hand edits do not apply: stage analyze/ and git apply -3 $tool/edits/6_fix.patch, resolve, go on by hand"; exit 1; }
build
mkdir -p analyze/fix
cp $tool/edits/fix_doc.go.txt analyze/fix/doc.go
$mv -pkg ./analyze -to analyze/fix -files fix_compound.go,fixer.go -decls Style,StyleExec,StyleBrace,ParseStyle -into style.go
# the public signature keeps the façade's name for the type (an alias)
sed -i 's/func WithStyle(s fix.Style) Option/func WithStyle(s Style) Option/' analyze/options.go
sed -i 's/WithStyle(fix.StyleBrace)/WithStyle(StyleBrace)/' analyze/pass_test.go
$(go env GOPATH)/bin/goimports -w analyze/options.go analyze/pass_test.go
# the exported fields' doc comments say who sets and reads them
sed -i 's|^// what `B` ran. The façade.s checker holds one, pooled with it; WithStyle$|// what `B` ran. The façade'"'"'s checker holds one, pooled with it, and hands|; s|^// sets its style.$|// it to SG1002, the one rule with a fix; analyze.WithStyle sets Style.|; s|^\tStyle Style$|\tStyle Style // the form of the compound fix (exported: the option sets it)|' analyze/fix/fixer.go
gofmt -w analyze/fix/*.go
build
gofmt -l analyze
