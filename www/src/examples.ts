// The examples menu. Each example is a Python file beside this one; those with
// an `.expected` file (the ones that use only `torch` and print no tpu tensor,
// whose repr names its device) are checked against what real PyTorch printed
// by the project's corpus test (crates/tpu-cli/tests/corpus.rs). The
// distributed examples carry the chip, slice and ranks they are meant for,
// which opening them applies; those whose first line is `# nproc: N` also
// have an `.expected` file, recorded by real PyTorch on N gloo ranks
// (shared/conformance/oracle_dist.py) and checked the same way.
import hello from "./examples/hello.py?raw";
import mlp from "./examples/mlp.py?raw";
import attention from "./examples/attention.py?raw";
import fusion from "./examples/fusion.py?raw";
import mxu from "./examples/mxu.py?raw";
import cnn from "./examples/cnn.py?raw";
import compile from "./examples/compile.py?raw";
import pallas from "./examples/pallas.py?raw";
import collective from "./examples/collective.py?raw";
import ddp from "./examples/ddp.py?raw";
import deadlock from "./examples/deadlock.py?raw";
import fsdp2 from "./examples/fsdp2.py?raw";
import tp from "./examples/tp.py?raw";
import mesh2d from "./examples/mesh2d.py?raw";

/** The simulated TPU and number of ranks an example is meant for. */
export interface ExampleSettings {
  chip: string;
  slice: string;
  ranks: string;
}

export interface Example {
  id: string;
  title: string;
  source: string;
  /** Applied when the example is opened; without them the page's stay. */
  settings?: ExampleSettings;
}

export const EXAMPLES: Example[] = [
  { id: "hello", title: "Hello, tensor", source: hello },
  { id: "mlp", title: "MLP training", source: mlp },
  { id: "attention", title: "Attention block", source: attention },
  { id: "fusion", title: "Fusion: Strict against Fused", source: fusion },
  { id: "mxu", title: "MXU alignment: head dimension 64 or 128", source: mxu },
  { id: "cnn", title: "A small CNN: convolutions on the MXU", source: cnn },
  { id: "compile", title: "torch.compile: graphs, a recompile, a graph break", source: compile },
  { id: "pallas", title: "Pallas kernels: a blocked matmul and RMSNorm", source: pallas },
  { id: "collective", title: "Collectives on a v5e 4x4 slice", source: collective },
  {
    id: "ddp",
    title: "DDP training on a v5e 2x2 (4 ranks)",
    source: ddp,
    settings: { chip: "v5e", slice: "2x2", ranks: "4" },
  },
  {
    id: "deadlock",
    title: "Deadlock: mismatched collectives (4 ranks)",
    source: deadlock,
    settings: { chip: "v5e", slice: "2x2", ranks: "4" },
  },
  {
    id: "fsdp2",
    title: "FSDP2 training on a v5e 2x2 (4 ranks)",
    source: fsdp2,
    settings: { chip: "v5e", slice: "2x2", ranks: "4" },
  },
  {
    id: "tp",
    title: "Tensor parallelism with DTensor on a 1x4 mesh (4 ranks)",
    source: tp,
    settings: { chip: "v5e", slice: "1x4", ranks: "4" },
  },
  {
    id: "mesh2d",
    title: "A 2-D mesh: DTensor on dp x tp (4 ranks)",
    source: mesh2d,
    settings: { chip: "v5e", slice: "2x2", ranks: "4" },
  },
];
