import sys, tomllib, subprocess
old = tomllib.loads(subprocess.run(['git','show','HEAD:Cargo.lock'],capture_output=True,text=True,check=True).stdout)['package']
new = tomllib.load(open('Cargo.lock','rb'))['package']
o = {(p['name'],p['version']):p for p in old}; n = {(p['name'],p['version']):p for p in new}
rm = sorted(set(o)-set(n)); add = sorted(set(n)-set(o))
print('removed/changed existing:', rm)
print('added:', len(add))
onames = {k[0] for k in o}
print('added with a name already in the old lock (second version):', [k for k in add if k[0] in onames])
strip = lambda d: sorted(x.split(' ')[0] for x in d.get('dependencies',[]))
for k in sorted(set(o)&set(n)):
    if k[0].startswith('tpu-') or k[0]=='xtask': 
        if strip(o[k])!=strip(n[k]): print('deps changed', k, set(strip(n[k]))-set(strip(o[k])))
        continue
    if strip(o[k])!=strip(n[k]): print('deps changed', k, strip(o[k]), strip(n[k]))
    if o[k].get('checksum')!=n[k].get('checksum'): print('checksum', k)
rv = [k for k in add if k[0].startswith('rustpython-ruff')]
print(rv)
