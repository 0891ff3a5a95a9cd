# argparse subcommands (train / eval / export) with set_defaults(func=...),
# positional arguments, nargs="?" and "*", required options, and dispatching
# on the parsed namespace, as multi-command CLI tools do.
import argparse


def cmd_train(args):
    print(f"train {args.model} for {args.epochs} epochs on {args.data} (resume={args.resume})")


def cmd_eval(args):
    print(f"eval {args.checkpoint} splits={args.splits} metric={args.metric}")


def cmd_export(args):
    print(f"export to {args.format} -> {args.output}")


parser = argparse.ArgumentParser(prog="tool")
parser.add_argument("--seed", type=int, default=0)
sub = parser.add_subparsers(dest="command", required=True)
p = sub.add_parser("train", help="train a model")
p.add_argument("model")
p.add_argument("data", nargs="?", default="data/")
p.add_argument("--epochs", type=int, default=1)
p.add_argument("--resume", default=None)
p.set_defaults(func=cmd_train)
p = sub.add_parser("eval")
p.add_argument("checkpoint")
p.add_argument("splits", nargs="*")
p.add_argument("--metric", choices=["acc", "f1"], default="acc")
p.set_defaults(func=cmd_eval)
p = sub.add_parser("export", aliases=["ex"])
p.add_argument("--format", required=True, choices=["onnx", "torchscript"])
p.add_argument("-o", "--output", default="model.out")
p.set_defaults(func=cmd_export)

for argv in (
    ["train", "gpt2"],
    ["--seed", "3", "train", "resnet", "imagenet/", "--epochs", "90", "--resume", "ckpt.pt"],
    ["eval", "best.pt"],
    ["eval", "best.pt", "val", "test", "--metric", "f1"],
    ["ex", "--format", "onnx", "-o", "m.onnx"],
):
    args = parser.parse_args(argv)
    shown = {k: v for k, v in vars(args).items() if k != "func"}
    print(argv[0], "->", shown)
    args.func(args)
