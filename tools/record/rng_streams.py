"""Writes tests/rng/pytorch_streams.json: values real PyTorch's CPU generator produced.

    python tools/record/rng_streams.py

Run with a real torch (`pip install torch`); the test suite only reads the JSON
(crates/tpu-runtime/tests/rng_streams.rs), so the test command needs no torch.
"""
import json
import pathlib
import torch

OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "rng" / "pytorch_streams.json"

cases = []


def case(name, seed, steps):
    torch.manual_seed(seed)
    outputs = []
    for kind, args in steps:
        if kind == "rand":
            outputs.append(torch.rand(args).tolist())
        elif kind == "randn":
            outputs.append(torch.randn(args).tolist())
        elif kind == "randint":
            low, high, n = args
            outputs.append(torch.randint(low, high, (n,)).tolist())
        elif kind == "randperm":
            outputs.append(torch.randperm(args).tolist())
        elif kind == "uniform_":
            n, a, b = args
            outputs.append(torch.empty(n).uniform_(a, b).tolist())
        elif kind == "normal_":
            n, mean, std = args
            outputs.append(torch.empty(n).normal_(mean, std).tolist())
    cases.append({"name": name, "seed": seed, "steps": [[k, a] for k, a in steps], "outputs": outputs})


for seed in [0, 1, 42, 123, 2**40 + 7]:
    case(f"rand seed {seed}", seed, [("rand", 5), ("rand", 20), ("rand", 1)])
    case(f"randn small and cached seed {seed}", seed, [("randn", 5), ("randn", 3), ("randn", 1)])
    case(f"randn vectorised seed {seed}", seed, [("randn", 16), ("randn", 20), ("randn", 37)])
    case(f"randint seed {seed}", seed, [("randint", [0, 10, 8]), ("randint", [-5, 5, 20]), ("randint", [0, 2**33, 4])])
    case(f"randperm seed {seed}", seed, [("randperm", 8), ("randperm", 100)])
    case(f"uniform_ and normal_ seed {seed}", seed, [("uniform_", [6, -2.0, 2.0]), ("normal_", [6, 1.0, 0.5]), ("normal_", [40, -1.0, 2.0])])

with open(OUT, "w") as f:
    json.dump({"torch_version": torch.__version__, "cases": cases}, f, indent=1)
