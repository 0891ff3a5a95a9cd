# A script with a main() behind the `if __name__ == "__main__":` guard that ends
# with an uncaught sys.exit(main()) returning 0, as many training scripts do:
# the output before the exit is recorded and the exit status is 0.
import os
import sys


def train(epochs):
    loss = 1.0
    for epoch in range(epochs):
        loss *= 0.5
        print(f"epoch {epoch}: loss {loss:.4f}")
    return loss


def main():
    print("__name__ is", __name__)
    print("__file__ ends with", os.path.basename(__file__))
    final = train(3)
    print("final", final)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
    print("never printed")
