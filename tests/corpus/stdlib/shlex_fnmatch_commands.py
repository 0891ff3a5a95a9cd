# shlex for launching and logging commands: split with quotes and escapes,
# quote and join for a copy-pasteable command line; fnmatch and fnmatchcase
# for include/exclude patterns over parameter and file names.
import fnmatch
import shlex

cmd = 'torchrun --nproc_per_node=8 train.py --name "my run" --note \'it\'"\'"\'s fine\' --path a\\ b'
print(shlex.split(cmd))
print(shlex.split("a 'b c' \"d e\" # comment", comments=True), shlex.split(""))
args = ["python", "train.py", "--out", "runs/exp 1", "--tag", "it's", "--expr", "$HOME;rm"]
line = shlex.join(args)
print(line)
print(shlex.split(line) == args, shlex.quote("safe-name_1.txt"), shlex.quote(""), shlex.quote("a b"))
lex = shlex.shlex("key=value, other = 'quoted str'", posix=True)
lex.whitespace_split = False
print(list(lex))
try:
    shlex.split('unterminated "quote')
except ValueError as e:
    print(type(e).__name__, e)

names = ["encoder.layer.0.weight", "encoder.layer.0.bias", "decoder.norm.weight", "head.bias", "Encoder.Proj.weight"]
print([n for n in names if fnmatch.fnmatch(n, "*.bias")])
no_decay = ["*.bias", "*norm*"]
decay = [n for n in names if not any(fnmatch.fnmatchcase(n, p) for p in no_decay)]
print(decay)
print(fnmatch.filter(names, "encoder.layer.[0-9].*"), fnmatch.fnmatchcase("Encoder.Proj.weight", "encoder*"))
print(fnmatch.fnmatch("data_01.bin", "data_0?.bin"), fnmatch.fnmatch("x.txt", "[!x]*"), fnmatch.translate("*.py"))
