#!/bin/sh
# Rebuilds analyze/'s floors from a flat analyze/ (main's, say, after a
# merge): run from the repository root on a tree whose analyze/*.go are
# the flat package and whose analyze/{diag,knowledge,fdtable,dialect}/
# hold only their doc.go. Each floor: the hand edits that cut what the tool
# refuses (edits/), then layermove, then the split of the carved
# declarations by concern. Stops at the first step that fails.
set -eu
tool=internal/tools/layermove
(cd $tool && go build -o /tmp/layermove .)
goimports=${GOIMPORTS:-$(go env GOPATH)/bin/goimports}
mv=/tmp/layermove
build() { go build ./... && go vet ./analyze/...; }

# rules independent of order
git apply $tool/sg2001-order.patch
build

# 1. diag
python3 $tool/edits/1_diag.py
$mv -pkg ./analyze -to analyze/diag -files finding.go
build

# 2. knowledge
python3 $tool/edits/2_knowledge.py
$goimports -w analyze/source.go analyze/literal.go analyze/servers.go analyze/options.go
$mv -pkg ./analyze -to analyze/knowledge \
	-files literal.go,inspect.go,substs.go,command.go,duration.go,notty.go,runners.go,runners_exec.go,runners_scripts.go,runners_tasks.go,supervisors.go,servers.go,outer_expanded.go,status.go${KNOWLEDGE_FILES:+,$KNOWLEDGE_FILES} \
	-decls shimOperands,relayKind,relayNone,relayChild,relayGroup,shimRelay,isDigits,daemonizes,hasOperand,daemonNames,serverKind,serverNames,taskNames,plainWord${KNOWLEDGE_DECLS:+,$KNOWLEDGE_DECLS} \
	-into carved.go
python3 $tool/split.py analyze/knowledge/carved.go IsDigits=words.go PlainWord=words.go \
	Daemonizes=daemons.go hasOperand=daemons.go daemonNames=daemons.go \
	ServerKind=serverkind.go TaskNames=serverkind.go serverNames=serverkind.go \
	shimOperands=shims.go RelayKind=shims.go RelayNone=shims.go shimRelay=shims.go
$goimports -w analyze/knowledge/*.go
build

# 3. fdtable
$mv -pkg ./analyze -to analyze/knowledge -decls solePart,unquotedParts -into words.go
$goimports -w analyze/knowledge/words.go
$mv -pkg ./analyze -to analyze/fdtable -files fd.go
gofmt -r 'fdtable.FdTable -> fdtable.Table' -w analyze/*.go
gofmt -r 'FdTable -> Table' -w analyze/fdtable/*.go
gofmt -r 'fdtable.FdNamed -> fdtable.Named' -w analyze/*.go
gofmt -r 'FdNamed -> Named' -w analyze/fdtable/*.go
sed -i 's|^// fdTable |// Table |; s|^// FdTable models descriptors 0-9 of one process, and in its slot fdNamed|// Table models descriptors 0-9 of one process, and in its slot Named|; s|^// fdNamed |// Named |; s|^// FdNamed is the one slot|// Named is the one slot|' analyze/fdtable/fd.go
mv analyze/fdtable/fd.go analyze/fdtable/table.go
build

# 4. dialect
python3 $tool/edits/4_dialect.py
$mv -pkg ./analyze -to analyze/dialect \
	-files shells.go,dialect.go,dialect_shells.go,dialect_traps.go,dialect_kill.go,dialect_parse.go,parse.go,ampgt.go,shellopts.go \
	-decls parseZsh,alwaysAt,alwaysWord,absence,present,absentFails,absentFatal,badDupEffect,dupOpensFile,dupFailsCommand,dupEndsShell,braceKind,bracesNone,bracesLists,bracesAll,fgTailRule,fgTailBash,fgTailBg,fgTailLone,sigSet,sigTERM,sigHUP,sigINT,sigQUIT,sigBit,signalName,killArgs,subshellForm,formParen,formSubst,formProcSubst,formPipe,formJob,dashRefuses,zshRefuses,mkshRefuses,caseOrQuoteOp,zshOptions${DIALECT_DECLS:+,$DIALECT_DECLS} \
	-into carved.go
python3 $tool/split.py analyze/dialect/carved.go badDupEffect=baddup.go dupOpensFile=baddup.go \
	BraceKind=braces.go BracesNone=braces.go \
	dashRefuses=refuses.go zshRefuses=refuses.go mkshRefuses=refuses.go caseOrQuoteOp=refuses.go ExpansionRefused=refuses.go \
	SubshellForm=forms.go FormParen=forms.go \
	zshOptions=zshoptions.go SetFails=zshoptions.go setName=zshoptions.go ExportFails=zshoptions.go \
	KillArgs=signals.go SignalName=signals.go SigSet=signals.go SigTERM=signals.go SigBit=signals.go \
	fgTailRule=fgtails.go FgTailBash=fgtails.go Absence=missing.go Present=missing.go \
	alwaysWord=zsh_always.go parseZsh=zsh_always.go alwaysAt=zsh_always.go
$goimports -w analyze/dialect/*.go
build
gofmt -l analyze
