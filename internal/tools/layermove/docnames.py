# After layermove exported names, a doc comment that began with the old
# name (`// inNested: …`, `// remoteOnly: …`) still does: the tool renames
# only `// name ` openings. This renames the opening word of the comment
# block right above each declaration or field whose name the tool
# exported. usage: docnames.py 'old->New old2->New2 …' FILE...
import re, sys
pairs = dict(p.split('->') for p in sys.argv[1].split())
for path in sys.argv[2:]:
    lines = open(path).read().split('\n')
    changed = False
    for i, l in enumerate(lines):
        m = re.match(r'^\s*(?:func \([^)]*\) )?(\w+(?:\s*,\s*\w+)*)\b', l.replace('func ', 'func ', 1))
        names = re.findall(r'\b([A-Z]\w*)\b', l.split('//')[0])
        news = {n for n in names if n in pairs.values()}
        if not news:
            continue
        k = i - 1
        while k >= 0 and lines[k].strip().startswith('//'):
            k -= 1
        if k + 1 >= i:
            continue
        first = lines[k + 1]
        mm = re.match(r'^(\s*// )(\w+)(.*)$', first)
        if mm and mm.group(2) in pairs and pairs[mm.group(2)] in news:
            lines[k + 1] = mm.group(1) + pairs[mm.group(2)] + mm.group(3)
            changed = True
    if changed:
        open(path, 'w').write('\n'.join(lines))
