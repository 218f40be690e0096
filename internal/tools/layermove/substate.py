# Moves walker fields into a per-concern sub-state: the field lines (with
# their comments) leave the walker struct in walk.go for a struct of
# their own in FILE, the walker gets one field NAME of that type.
# usage: substate.py FILE TYPE NAME "doc" field...
import sys,re
file,typ,name,doc=sys.argv[1:5]; fields=sys.argv[5:]
s=open('walk.go').read()
a=s.index('type walker struct {'); b=s.index('\n}\n',a)
body=s[a:b].split('\n')
out=[]; moved=[]; pending=[]
for line in body:
    st=line.strip()
    if st.startswith('//'):
        pending.append(line); continue
    m=re.match(r'\s*(\w+)(,\s*(\w+))*\s',line+' ')
    names=re.findall(r'\w+', line.split('//')[0].strip().split(' ')[0]) if st else []
    first=re.match(r'^\s*(\w+(?:\s*,\s*\w+)*)\s+\S',line)
    fnames=[x.strip() for x in first.group(1).split(',')] if first and st else []
    if fnames and all(f in fields for f in fnames):
        moved+=pending+[line]; pending=[]
    elif fnames and any(f in fields for f in fnames):
        sys.exit('a field line mixes moved and kept names: '+line)
    else:
        out+=pending+[line]; pending=[]
out+=pending
got=set()
for l in moved:
    fm=re.match(r'^\s*(\w+(?:\s*,\s*\w+)*)\s+\S',l)
    if fm and not l.strip().startswith('//'): got|={x.strip() for x in fm.group(1).split(',')}
missing=set(fields)-got
if missing: sys.exit('not found: %s'%missing)
out.append('\t// %s\n\t%s %s' % (doc.replace('\n','\n\t// '), name, typ))
s=s[:a]+'\n'.join(out)+s[b:]
open('walk.go','w').write(s)
open(file,'w').write('package analyze\n\n// %s is %s\ntype %s struct {\n%s\n}\n' % (typ, doc[0].lower()+doc[1:] if False else 'a concern\'s part of the walker\'s state (see walker.%s).' % name, typ, '\n'.join(moved)))
print('moved', sorted(got))
