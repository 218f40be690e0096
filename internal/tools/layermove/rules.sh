#!/bin/sh
# Moves the rules (sg*.go, rule.go, messages.go, the directive rules) out
# of package analyze into analyze/rules, between the fix and the façade:
# run from the repository root after walk.sh and fix.sh (MOVES.md,
# section 7). Stops at the first step that fails.
set -eu
tool=internal/tools/layermove
(cd $tool && go build -o /tmp/layermove .)
mv=/tmp/layermove
build() { go build ./... && go vet ./analyze/...; }

# the hand edits: the rules' pass (rulepass.go: the walk's pass, the
# fixer, the findings, the rule being checked, report, checkRules) under
# the façade's checker; the order test walks and checks without the façade
git apply $tool/edits/7_rules.patch || { echo "the hand edits do not apply: stage analyze/ and git apply -3 $tool/edits/7_rules.patch, resolve, go on by hand"; exit 1; }
build
mkdir -p analyze/rules
cp $tool/edits/rules_doc.go.txt analyze/rules/doc.go
files=$(cd analyze && ls sg*.go | grep -v '_test\.go$' | tr '\n' ',')rule.go,messages.go,rulepass.go,ruleorder_test.go
$mv -pkg ./analyze -to analyze/rules -files "$files" -decls InvalidDirective,UnusedDirective -into directives.go
# the checker's embedded pass is rules.Pass now (the walk's is inside it)
gofmt -r 'x.pass -> x.Pass' -w analyze/*.go
sed -i 's/if p\.Fixes\.Pass != &p\.Pass {/if p.Fixes.Pass != \&p.Pass.Pass {/' analyze/pass_test.go
# one rule per file; the pass in pass.go
python3 $tool/split.py analyze/rules/directives.go InvalidDirective=sg3101_invalid_directive.go UnusedDirective=sg3102_unused_directive.go
mv analyze/rules/rulepass.go analyze/rules/pass.go
$(go env GOPATH)/bin/goimports -w analyze/rules/*.go
# the exported fields' doc comments say who reads them
python3 $tool/edits/7_rules_docs.py
gofmt -w analyze/rules/*.go
build
gofmt -l analyze
