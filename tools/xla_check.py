#!/usr/bin/env python3
"""Checks StableHLO modules with real XLA (jaxlib, CPU), many in one process.

usage: xla_check.py DIR [DIR ...]
       xla_check.py --mutations DIR

Every `NAME.mlir` under each DIR (written by `tpu run --emit-stablehlo DIR`)
is parsed, verified, refused unless it is pure StableHLO (serialised as a
portable artifact, which refuses `chlo`, `mhlo` and other dialects), compiled
and run by XLA on `NAME.inputs.json`; its outputs must agree with
`NAME.outputs.json` (what this project's runtime computed) by the conformance
corpus's rule: |a - e| <= max(1e-4, 1e-3 * |e|), NaN where NaN, integers and
booleans exactly. Prints one line per module and exits 1 if any failed.

`--mutations DIR` proves the check can fail: for each module it changes one
`broadcast_dimensions` or contracting dimension and requires XLA to refuse the
module or its outputs to disagree; it exits 1 if a mutant passes.

The logic is `../shared/tools/run_stablehlo.py`'s (the same private jaxlib
entry points, so jax and jaxlib are pinned at 0.10.2), batched, with x64
enabled so that int64 and float64 values keep their type, and with f64 inputs.
"""
import json
import math
import os
import re
import sys

import jax

jax.config.update("jax_enable_x64", True)
import jax.extend  # noqa: E402,F401
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax._src.interpreters import mlir  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from jax._src.lib.mlir import ir  # noqa: E402
from jaxlib.mlir.dialects import stablehlo  # noqa: E402

DTYPES = {"f32": np.float32, "f64": np.float64, "bf16": ml_dtypes.bfloat16, "i64": np.int64,
          "i32": np.int32, "i1": np.bool_}


def compile_module(text, backend, device):
    with mlir.make_ir_context():
        module = ir.Module.parse(text)
        if not module.operation.verify():
            raise ValueError("module does not verify")
        stablehlo.serialize_portable_artifact_str(str(module), stablehlo.get_current_version())
        return backend.compile_and_load(module, xc.DeviceList((device,)), xc.CompileOptions())


def run(text, inputs, backend, device):
    exe = compile_module(text, backend, device)
    args = [jax.device_put(np.asarray(a["data"], DTYPES[a["dtype"]]).reshape(a["shape"]), device)
            for a in inputs]
    return [np.asarray(o) for o in exe.execute(args)]


def disagreement(outputs, expected):
    """None when XLA's outputs agree with ours, else what differs."""
    if len(outputs) != len(expected):
        return f"{len(outputs)} outputs, expected {len(expected)}"
    for i, (o, e) in enumerate(zip(outputs, expected)):
        if list(o.shape) != list(e["shape"]):
            return f"output {i}: shape {list(o.shape)}, expected {e['shape']}"
        got = o.astype(np.float64).ravel().tolist() if o.dtype != np.bool_ else o.ravel().tolist()
        want = e["data"]
        exact = e["dtype"] in ("i64", "i32", "i1")
        for j, (g, w) in enumerate(zip(got, want)):
            if exact:
                if int(g) != int(w):
                    return f"output {i}[{j}]: {g}, expected {w}"
                continue
            if math.isnan(w):
                if not math.isnan(g):
                    return f"output {i}[{j}]: {g}, expected nan"
                continue
            if math.isinf(w):
                if g != w:
                    return f"output {i}[{j}]: {g}, expected {w}"
                continue
            if not abs(g - w) <= max(1e-4, 1e-3 * abs(w)):
                return f"output {i}[{j}]: {g}, expected {w}"
    return None


def modules(dirs):
    for d in dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith(".mlir"):
                yield os.path.join(d, name[: -len(".mlir")])


def load(base):
    with open(base + ".mlir") as f:
        text = f.read()
    with open(base + ".inputs.json") as f:
        inputs = json.load(f)
    with open(base + ".outputs.json") as f:
        expected = json.load(f)
    return text, inputs, expected


def check(dirs, backend, device):
    failed = 0
    count = 0
    for base in modules(dirs):
        count += 1
        text, inputs, expected = load(base)
        try:
            outputs = run(text, inputs, backend, device)
        except Exception as e:  # parse, verify, dialect and compile errors
            print(f"REFUSED  {base}.mlir: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
            failed += 1
            continue
        why = disagreement(outputs, expected)
        if why:
            print(f"DIFFERS  {base}.mlir: {why}")
            failed += 1
        else:
            print(f"ok       {base}.mlir")
    print(f"{count - failed} of {count} StableHLO modules compiled by XLA and agreed with the runtime")
    if count == 0:
        print("no modules found", file=sys.stderr)
        return 1
    return 1 if failed else 0


def mutants(text):
    """Each variant of `text` with one broadcast or contracting dimension changed."""
    for m in re.finditer(r"broadcast_dimensions = array<i64: ([0-9, ]+)>", text):
        dims = [int(x) for x in m.group(1).split(",")]
        for i in range(len(dims)):
            changed = list(dims)
            changed[i] = dims[i] - 1 if dims[i] > 0 else dims[i] + 1
            yield "broadcast_dimensions", text[: m.start(1)] + ", ".join(map(str, changed)) + text[m.end(1):]
    for m in re.finditer(r"(lhs|rhs)_contracting_dimensions = \[(\d+)\]", text):
        d = int(m.group(2))
        changed = d - 1 if d > 0 else d + 1
        yield m.group(1) + "_contracting_dimensions", text[: m.start(2)] + str(changed) + text[m.end(2):]


def check_mutations(dirs, backend, device):
    tried = 0
    survived = 0
    for base in modules(dirs):
        text, inputs, expected = load(base)
        for what, mutant in mutants(text):
            tried += 1
            try:
                outputs = run(mutant, inputs, backend, device)
            except Exception:
                continue  # refused: the check caught it
            if disagreement(outputs, expected) is None:
                survived += 1
                print(f"SURVIVED {base}.mlir: a changed {what} still agreed")
    print(f"{tried - survived} of {tried} mutants refused or disagreed")
    if tried == 0:
        print("no mutants: no module has a broadcast or a contraction", file=sys.stderr)
        return 1
    return 1 if survived else 0


def main(argv):
    backend = jax.extend.backend.get_backend("cpu")
    device = backend.devices()[0]
    if argv and argv[0] == "--mutations":
        return check_mutations(argv[1:], backend, device)
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    return check(argv, backend, device)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
