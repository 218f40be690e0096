# split a Go file of top-level declarations into files by declaration name
# usage: split.py FILE name=dest.go ...   (the names not listed stay)
import sys, re
path=sys.argv[1]; dest={}
for a in sys.argv[2:]:
    k,v=a.split('='); dest[k]=v
lines=open(path).read().split('\n')
# header: package + imports
i=0
while i<len(lines) and not re.match(r'^(func|type|var|const) |^//', lines[i]) or (i<len(lines) and lines[i].startswith('import')):
    if lines[i].startswith('import ('):
        while lines[i]!=')': i+=1
    i+=1
header='\n'.join(lines[:i]).rstrip()+'\n'
# blocks
blocks=[]; cur=[]; name=None
def flush():
    global cur,name
    if cur and any(l.strip() for l in cur): blocks.append((name,'\n'.join(cur).strip('\n')+'\n'))
    cur=[]; name=None
j=i; docstart=None
while j<len(lines):
    l=lines[j]
    m=re.match(r'^(func|type|var|const) (\(?)(\w+)',l)
    if m:
        n=m.group(3)
        if m.group(1)=='const' and m.group(2)=='(':
            # name from first spec
            n=re.match(r'\s*(\w+)',lines[j+1]).group(1)
        mm=re.match(r'^func \(\w+ \*?\w+\) (\w+)',l)
        if mm: n=mm.group(1)
        name=n
    if l=='' and name is not None:
        # end of a block when next nonblank starts a new doc/decl at col 0
        k=j+1
        while k<len(lines) and lines[k]=='': k+=1
        if k>=len(lines) or re.match(r'^(//|func |type |var |const )',lines[k]):
            cur.append(l); flush(); j+=1; continue
    cur.append(l); j+=1
flush()
out={}
stay=[]
for n,b in blocks:
    d=dest.get(n)
    if d: out.setdefault(d,[]).append(b)
    else: stay.append(b)
import os
for d,bs in out.items():
    p=os.path.join(os.path.dirname(path),d)
    if os.path.exists(p):
        s=open(p).read().rstrip('\n')+'\n\n'+'\n'.join(bs)
    else:
        s=header+'\n'+'\n'.join(bs)
    open(p,'w').write(s)
if stay: open(path,'w').write(header+'\n'+'\n'.join(stay))
else: os.remove(path)
print({d:len(b) for d,b in out.items()}, 'stay', len(stay))
