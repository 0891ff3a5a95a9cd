# An argparse parser in the style of nanoGPT and the pytorch/examples scripts:
# type=int/float, defaults, store_true flags, choices, nargs, parse_args on an
# explicit list, the Namespace repr and vars(), and parse_known_args.
import argparse

parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
parser.add_argument("--batch-size", type=int, default=64, metavar="N", help="input batch size for training (default: 64)")
parser.add_argument("--epochs", type=int, default=14)
parser.add_argument("--lr", type=float, default=1.0, help="learning rate")
parser.add_argument("--gamma", type=float, default=0.7)
parser.add_argument("--no-cuda", action="store_true", default=False)
parser.add_argument("--dry-run", action="store_true")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--optimizer", choices=["sgd", "adam", "adamw"], default="adamw")
parser.add_argument("--betas", type=float, nargs=2, default=[0.9, 0.95])
parser.add_argument("--layers", type=int, nargs="+", default=[128, 64])
parser.add_argument("--tags", nargs="*", default=[])
parser.add_argument("--save-model", action="store_true")
parser.add_argument("--compile", action=argparse.BooleanOptionalAction, default=True)
parser.add_argument("-v", "--verbose", action="count", default=0)
parser.add_argument("--out", dest="out_dir", default="out")

args = parser.parse_args([])
print(args)
args = parser.parse_args(["--batch-size", "128", "--lr=3e-4", "--dry-run", "--optimizer", "sgd",
                          "--betas", "0.8", "0.99", "--layers", "256", "256", "10", "--no-compile", "-vv",
                          "--tags", "a", "b", "--out", "runs/x"])
print(args)
print(sorted(vars(args).items()))
print(args.batch_size * 2, type(args.lr).__name__, args.dry_run, args.no_cuda, args.out_dir)
config = {k: v for k, v in vars(args).items() if isinstance(v, (int, float, bool, str))}
print(config)
args, rest = parser.parse_known_args(["--epochs", "3", "--unknown", "7", "extra"])
print(args.epochs, rest)
ns = argparse.Namespace(a=1, b="x")
print(ns, ns == argparse.Namespace(b="x", a=1), "a" in ns)
ns.c = [1, 2]
print(ns)
