import re
def rd(p): return open(p).read()
def wr(p,s): open(p,'w').write(s)
# a. the seam: scriptRunner takes whether this host's sh leaves a script's command
p='analyze/runners_scripts.go'; s=rd(p)
s=s.replace("func scriptRunner(r resolved) (apart, deep bool) {","func scriptRunner(r resolved, shLeaves bool) (apart, deep bool) {")
s=s.replace("\t\treturn scriptRunner(inner)\n","\t\treturn scriptRunner(inner, shLeaves)\n")
s=s.replace("\tleaves := shDialect().cTail == 0\n","\tleaves := shLeaves\n")
s=s.replace("rake, invoke) leaves what its task file runs (see runners_tasks.go).","rake, invoke) leaves what its task file runs (see runners_tasks.go).\n// shLeaves: this host's sh leaves a script's last command running as its\n// child (dash) rather than exec it in its place; the dialect table knows\n// (the caller asks it), this file only uses the answer.")
wr(p,s)
p='analyze/walk_tails.go'; s=rd(p)
s=s.replace("scriptRunner(r); apart {","scriptRunner(r, shDialect().cTail == 0); apart {"); wr(p,s)
p='analyze/runners_tasks_test.go'; s=rd(p)
s=s.replace("scriptRunner(resolveText(t, cmd)); apart","scriptRunner(resolveText(t, cmd), shDialect().cTail == 0); apart"); wr(p,s)
# b. source stays with the walk
p='analyze/literal.go'; s=rd(p)
i=s.index("// source maps offsets in the text being walked")
j=s.index("// wordLit is w.Lit()")
src=s[i:j]; s=s[:i]+s[j:]; wr(p,s)
hdr=s[:s.index(')\n',s.index('import'))+2]
wr('analyze/source.go', "package analyze\n\n"+hdr[hdr.index('import'):]+"\n"+src)
# c. WithServers is an option of the façade
p='analyze/servers.go'; s=rd(p)
i=s.index("// WithServers adds program names")
ws=s[i:]; s=s[:i].rstrip()+"\n"; wr(p,s)
p='analyze/options.go'; s=rd(p); wr(p, s.rstrip()+"\n\n"+ws)
