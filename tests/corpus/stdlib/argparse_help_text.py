# The help text argparse formats: description, epilog, argument groups, a
# mutually exclusive group, metavar, %(default)s in help strings and
# ArgumentDefaultsHelpFormatter; printed with format_help() and print_usage().
import argparse

parser = argparse.ArgumentParser(
    prog="train_gpt.py",
    description="Train a small GPT on a text file.",
    epilog="Example: train_gpt.py data.txt --n-layer 4",
    formatter_class=argparse.ArgumentDefaultsHelpFormatter,
)
parser.add_argument("data", help="path to the training text")
model = parser.add_argument_group("model")
model.add_argument("--n-layer", type=int, default=6, help="transformer blocks")
model.add_argument("--n-embd", type=int, default=384, metavar="DIM", help="embedding size")
model.add_argument("--dropout", type=float, default=0.2, help="dropout probability")
opt = parser.add_argument_group("optimizer", "settings of AdamW")
opt.add_argument("--lr", type=float, default=6e-4, help="peak learning rate")
opt.add_argument("--weight-decay", type=float, default=0.1)
dev = parser.add_mutually_exclusive_group()
dev.add_argument("--cpu", action="store_true", help="force the CPU")
dev.add_argument("--device", default="cuda", help="device name")
print(parser.format_help())
parser.print_usage()
args = parser.parse_args(["d.txt", "--cpu"])
print(args.cpu, args.device, args.n_embd)
