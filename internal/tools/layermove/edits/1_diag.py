p='analyze/sg1000_not_valid_shell.go'
s=open(p).read()
i=s.index('// Finding is the parse error as a finding')
meth=s[i:]
s=s[:i].rstrip()+"\n"
s=s.replace('ID:       "SG1000"','ID:       parseErrorRule')
open(p,'w').write(s)
meth=meth.replace('Rule: NotValidShell.ID','Rule: parseErrorRule').replace('URL: NotValidShell.URL()','URL: ruleURL(parseErrorRule)')
p='analyze/rule.go'
r=open(p).read()
j=r.index('func ruleURL(id string) string {')
k=r.index('}\n',j)+2
fn=r[j:k]
r=r[:j]+r[k:].lstrip('\n')
open(p,'w').write(r)
p='analyze/finding.go'
f=open(p).read()
f=f.rstrip()+'''

// parseErrorRule is the rule a *ParseError is reported as (SG1000,
// NotValidShell). It is declared here, below the rules, so that a
// ParseError can make its own Finding.
const parseErrorRule = "SG1000"

// ruleURL is the page of a rule, docs/rules/SGxxxx.md in the repository.
'''+fn+"\n"+meth
open(p,'w').write(f)
