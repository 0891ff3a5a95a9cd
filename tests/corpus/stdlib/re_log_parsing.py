# Regular expressions over training logs: compiled patterns with named groups,
# match vs search vs fullmatch, findall with groups, finditer positions,
# groupdict, and extracting step numbers from checkpoint names.
import re

log = """\
step 0: train loss 4.2874, val loss 4.2823
iter 10: loss 3.1234, time 120.50ms, mfu 12.34%
step 250: train loss 1.9012, val loss 2.0101
iter 20: loss 2.8810, time 98.10ms, mfu -100.00%
saving checkpoint to out/ckpt_250.pt
step 500: train loss 1.4711, val loss 1.6905
"""
eval_re = re.compile(r"step (?P<step>\d+): train loss (?P<train>[\d.]+), val loss (?P<val>[\d.]+)")
for m in eval_re.finditer(log):
    print(m.group("step"), float(m["train"]), m.groupdict(), m.span())
iter_re = re.compile(r"^iter (\d+): loss ([\d.]+), time ([\d.]+)ms, mfu (-?[\d.]+)%$", re.MULTILINE)
print(iter_re.findall(log))
print(re.findall(r"\d+\.\d+", log)[:5])
line = "iter 10: loss 3.1234, time 120.50ms"
print(re.match(r"loss", line), re.search(r"loss ([\d.]+)", line).group(1), re.fullmatch(r"iter \d+", "iter 10"))
m = re.match(r"(\w+) (\d+)(:)?", line)
print(m.groups(), m.group(0), m.group(1, 2), m.start(2), m.end(2), m.lastindex)
names = ["ckpt_100.pt", "ckpt_2000.pt", "ckpt_30.pt", "model.pt", "ckpt_best.pt"]
step_re = re.compile(r"ckpt_(\d+)\.pt")
steps = sorted(int(m.group(1)) for n in names if (m := step_re.fullmatch(n)))
print(steps, [n for n in names if not step_re.match(n)])
print(re.search(r"(?i)SAVING (\S+)", log).group(1), re.search(r"nomatch", log))
m = re.search(r"(?P<a>x)?(?P<b>y)", "y")
print(m.groupdict(), m.groupdict(default="-"), m.group("a"))
print(re.escape("out/ckpt[1].pt"), bool(re.match(re.escape("a.b"), "axb")))
