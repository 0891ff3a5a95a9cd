# argparse rejecting bad input: each error raises SystemExit(2) after writing
# the usage and message to stderr; the message is captured with
# redirect_stderr and printed so it is compared. Also --help exits with 0.
import argparse
import contextlib
import io

parser = argparse.ArgumentParser(prog="train.py")
parser.add_argument("--epochs", type=int, default=10)
parser.add_argument("--lr", type=float, required=True)
parser.add_argument("--mode", choices=["train", "eval"], default="train")
parser.add_argument("files", nargs="+")


def attempt(argv):
    err = io.StringIO()
    out = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            ns = parser.parse_args(argv)
        print("ok:", ns)
    except SystemExit as e:
        print(f"SystemExit({e.code}) for {argv}")
        for line in err.getvalue().splitlines():
            print("  stderr:", line)
        if out.getvalue():
            print("  stdout lines:", len(out.getvalue().splitlines()), out.getvalue().splitlines()[0])


attempt(["--lr", "0.1", "a.txt"])
attempt(["--lr", "0.1", "--epochs", "ten", "a.txt"])
attempt(["--lr", "fast", "a.txt"])
attempt(["--lr", "0.1", "--mode", "test", "a.txt"])
attempt(["--lr", "0.1"])
attempt(["a.txt"])
attempt(["--lr", "0.1", "a.txt", "--bogus"])
attempt(["--help"])


class NoExitParser(argparse.ArgumentParser):
    def error(self, message):
        raise ValueError(message)


p2 = NoExitParser(prog="x")
p2.add_argument("--n", type=int)
try:
    p2.parse_args(["--n", "1.5"])
except ValueError as e:
    print(type(e).__name__, e)
p3 = argparse.ArgumentParser(prog="y", exit_on_error=False)
p3.add_argument("--k", type=int)
try:
    p3.parse_args(["--k", "z"])
except argparse.ArgumentError as e:
    print(type(e).__name__, e)
