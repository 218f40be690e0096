#!/bin/sh
# Moves the walk (the model) out of package analyze into analyze/walk, on a
# tree whose analyze/ has the floors below (floors.sh) and the walk still
# flat in analyze/: run from the repository root. Every step is recorded
# here so that it can be made again after a merge that changed analyze/
# (MOVES.md, section 5). Stops at the first step that fails.
set -eu
tool=internal/tools/layermove
(cd $tool && go build -o /tmp/layermove .)
goimports=${GOIMPORTS:-$(go env GOPATH)/bin/goimports}
mv=/tmp/layermove
build() { go build ./... && go vet ./analyze/...; }

# a word-level fact both the walk and the fix read
$mv -pkg ./analyze -to analyze/knowledge -decls plainName -into words.go
# the hand edits that cut what the tool refuses: pass/checker,
# config/options, run/pass.walk, marks by ID (MOVES.md, section 5)
git apply $tool/edits/5_walk.patch || { echo "the hand edits do not apply: stage analyze/ (git add -A analyze) and git apply -3 $tool/edits/5_walk.patch, resolve, go on by hand"; exit 1; }
build

# the walk: every file of analyze/ but the façade's, the rules' and the
# fix's, and the tests of walk internals
mkdir -p analyze/walk
cp $tool/edits/walk_doc.go.txt analyze/walk/doc.go
files=$(cd analyze && ls *.go | grep -v '_test\.go$' |
	grep -Ev '^(sg[0-9].*|rule|messages|fix_compound|analyze|options|directive|diag_aliases|dialect_aliases|ampgt_moved|check)\.go$' |
	tr '\n' ',')braces_test.go,kill_pslist_test.go,shell_reset_test.go
$mv -pkg ./analyze -to analyze/walk -files "$files" 2>/tmp/walkmove.log || { cat /tmp/walkmove.log; exit 1; }
cat /tmp/walkmove.log
# the checker's embedded pass is walk.Pass now; the reset test names the
# exported fields
gofmt -r 'x.pass -> x.Pass' -w analyze/*.go
sed -i 's/FieldByName("pass")/FieldByName("Pass")/; s/map\[string\]bool{"pass": true/map[string]bool{"Pass": true/; s/case name == "pass":/case name == "Pass":/' analyze/pass_test.go
python3 - <<'PY'
p='analyze/pass_test.go'; s=open(p).read()
s=s.replace('`written cfg src file top jobs spare calls marks defined','`written Cfg Src File top Jobs spare Calls Marks defined')
s=s.replace('inPlace inPlaceDone reread ended notPOSIX pidFiles consts constSeen assigned opaqueFiles ampGt always','inPlace inPlaceDone Reread ended NotPOSIX pidFiles consts constSeen assigned opaqueFiles AmpGt always')
s=s.replace('map[string]bool{"jobs": true, "marks": true,','map[string]bool{"Jobs": true, "Marks": true,')
open(p,'w').write(s)
PY
# doc comments that opened with a name the tool exported
python3 $tool/docnames.py "$(sed -n 's/.*exporting [0-9]* names: //p' /tmp/walkmove.log)" analyze/walk/*.go
# the exported API's doc comments say who reads it and why
git apply $tool/edits/5_walk_docs.patch
gofmt -w analyze/walk/*.go
build
gofmt -l analyze
