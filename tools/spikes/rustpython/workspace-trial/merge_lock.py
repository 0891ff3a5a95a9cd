"""Append to a workspace Cargo.lock the registry [[package]] entries of other lock
files that it lacks (same name and version), so cargo's next resolve prefers them."""
import sys, tomllib
ws_path, *others = sys.argv[1:]
ws = tomllib.load(open(ws_path, 'rb'))
have = {(p["name"], p["version"]) for p in ws["package"]}
ws_names = {p["name"] for p in ws["package"]}
text = open(ws_path).read().rstrip('\n') + '\n'
added = 0
for o in others:
    for p in tomllib.load(open(o, 'rb'))['package']:
        key = (p['name'], p['version'])
        if key in have or p["name"] in ws_names or "source" not in p:
            continue
        have.add(key)
        added += 1
        text += '\n[[package]]\n'
        text += f'name = "{p["name"]}"\nversion = "{p["version"]}"\nsource = "{p["source"]}"\n'
        if 'checksum' in p:
            text += f'checksum = "{p["checksum"]}"\n'
        if p.get('dependencies'):
            text += 'dependencies = [\n' + ''.join(f' "{d}",\n' for d in p['dependencies']) + ']\n'
open(ws_path, 'w').write(text)
print('added', added, file=sys.stderr)
