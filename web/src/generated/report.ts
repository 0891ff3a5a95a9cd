// Generated (hence its length) from the Rust types by `crates/tpu-runtime/src/report/typescript.rs`; do not edit, regenerate with `UPDATE_EXPECT=1 cargo test -p tpu-runtime typescript`.

export type Report = { 
/**
 * What the program printed.
 */
stdout: string, 
/**
 * What it wrote to stderr (`logging`'s default handler, warnings,
 * `print(file=sys.stderr)`), less the traceback of the error that ended
 * it, which is its diagnostic.
 */
stderr: string, 
/**
 * Errors that ended the run (at most one today), as Python-style tracebacks.
 */
diagnostics: Array<Diagnostic>, 
/**
 * Every op dispatched, in program order.
 */
ops: Array<OpRecord>, 
/**
 * The backend that ran `tpu` tensors.
 */
backend: BackendKind | null, 
/**
 * The adapter or CPU that backend ran on.
 */
backend_device: string, 
/**
 * That backend as a person is shown it: `CPU reference`, `WebGPU
 * (SwiftShader, software)`, `WebGPU (<adapter name>)`.
 */
backend_label: string, 
/**
 * Whether `tpu` tensors were computed by the CPU (a software adapter or
 * the reference backend): measured times then say little about a GPU.
 */
backend_software: boolean, 
/**
 * Float32 matrix products the reference backend shared with helper
 * threads (in the browser: Web Workers, each computing a share of the
 * product's rows or batch entries); 0 natively, where the reference
 * has threads of its own, and on WebGPU.
 */
helped_products: number, 
/**
 * The eager mode at the end of the run (`torch_tpu.set_eager_mode` may
 * change it while the program runs).
 */
mode: EagerMode, 
/**
 * The modes the run's kernels were launched in, in order, each from the
 * first kernel launched in it: one span unless the program called
 * `torch_tpu.set_eager_mode`. Empty for a world of ranks.
 */
modes: Array<ModeSpan>, 
/**
 * Every kernel launched on the `tpu` backend, in order: one per op in
 * Debug and Strict, one per fusion group in Fused.
 */
kernels: Array<KernelRecord>, 
/**
 * Where the host waited for the device, and why.
 */
syncs: Array<SyncRecord>, 
/**
 * How many times the run gave the device's queue work: on wgpu one per
 * read (a batch of every kernel recorded since the last), plus one
 * whenever the kernels' parameter arena fills; none on the reference
 * backend, which has no queue. For a world of ranks, the world's.
 */
submissions: number, 
/**
 * What this run did with the compilation cache (its hits and misses,
 * not those of earlier runs in the same session).
 */
cache: CacheStats, 
/**
 * Debug mode: the first op whose result held a NaN or an infinity.
 */
first_nonfinite: NonFinite | null, 
/**
 * The simulated TPU the run was costed on.
 */
device: DeviceSummary | null, 
/**
 * What that TPU would do with the run's kernels, lane by lane (simulated).
 */
timeline: Timeline | null, 
/**
 * Collectives the program simulated (`torch_tpu.simulate_collective`),
 * with their link-by-link schedules.
 */
collectives: Array<CollectiveRecord>, 
/**
 * The run at a glance: how busy the simulated chip was, what bounds the
 * run and why, host fallbacks and syncs grouped (`report/summary.rs`).
 */
summary: RunSummary | null, 
/**
 * A run of several ranks (`--nproc-per-node`): each rank's chip and
 * outcome, every collective between them, and the deadlock if the run
 * ended in one. `ops`, `kernels` and `syncs` then hold every rank's,
 * each tagged with its rank.
 */
world: WorldReport | null, 
/**
 * The functions and modules given to `torch.compile`: their compiles,
 * guards, recompiles, graph breaks, graphs and StableHLO.
 */
compiled: Array<CompiledFunction>, 
/**
 * Every `pallas_call` the program made: grid, blocks, VMEM, MXU fit,
 * the generated source.
 */
pallas: Array<PallasRecord>, };

export type ChipPreset = { 
/**
 * The preset's name, as `--chip` takes it: `v5e`, `tpu7x`, ...
 */
id: string, name: string, 
/**
 * Peak dense bf16 FLOP/s per chip.
 */
bf16_flops: Figure, 
/**
 * HBM capacity, bytes.
 */
hbm_bytes: Figure, 
/**
 * HBM bandwidth, bytes per second.
 */
hbm_bandwidth: Figure, 
/**
 * ICI bandwidth of one link in one direction, bytes per second.
 */
ici_link_bandwidth: Figure, 
/**
 * ICI ports per chip.
 */
ici_ports: number, 
/**
 * Latency of one ICI hop, seconds.
 */
ici_hop_latency: Figure, topology: Topology, 
/**
 * The MXU's width (128 or 256): matmul dimensions are padded to it.
 */
mxu_width: number, 
/**
 * MXUs per TensorCore.
 */
mxus_per_core: number, tensor_cores: number, sparse_cores: number, 
/**
 * VMEM per TensorCore, bytes.
 */
vmem_bytes: Figure, 
/**
 * Host overhead of one kernel launch, seconds.
 */
launch_overhead: Figure, 
/**
 * Host to chip bandwidth (PCIe), bytes per second.
 */
host_bandwidth: Figure, 
/**
 * Figures changed from the preset (`mxu_width=256`): a custom chip.
 */
overrides: Array<string>, };

/**
 * What crossed the links of one axis in one step.
 */
export type AxisTraffic = { axis: number, 
/**
 * Bytes on the busiest link in the increasing and decreasing direction.
 */
forward_bytes: number, backward_bytes: number, 
/**
 * Directed links that carried data.
 */
busy_links: number, };

export type BackendKind = "reference" | "wgpu";

export type BinaryOp = "add" | "sub" | "mul" | "div" | "pow" | "maximum" | "minimum" | "floordiv" | "remainder";

/**
 * One block operation. Elementwise operands have the result's shape or are
 * scalars (shape `[]`); the tracer inserts `Broadcast` and `Cast` so that
 * backends never broadcast or promote.
 */
export type BlockOp = { "kind": "load", r: number, window: Array<Window>, } | { "kind": "store", r: number, window: Array<Window>, value: number, } | { "kind": "const", value: number | string, } | { "kind": "program_id", axis: number, } | { "kind": "binary", op: BinaryOp, a: number, b: number, } | { "kind": "unary", op: UnaryOp, a: number, } | { "kind": "compare", op: CompareOp, a: number, b: number, } | { "kind": "where", cond: number, a: number, b: number, } | { "kind": "reduce", op: ReduceOp, a: number, axes: Array<number>, keepdims: boolean, } | { "kind": "dot", a: number, b: number, } | { "kind": "cast", a: number, } | { "kind": "broadcast", a: number, } | { "kind": "reshape", a: number, } | { "kind": "transpose", a: number, } | { "kind": "when", cond: number, body: Array<Inst>, };

/**
 * One operand of the kernel: an array in HBM, seen by the kernel as blocks.
 */
export type BlockRef = { 
/**
 * The whole array's shape.
 */
shape: Array<number>, dtype: DType, 
/**
 * The block's shape, one entry per array dimension (1 where squeezed).
 */
block: Array<number>, 
/**
 * Dimensions given as `None` in the block shape: size 1, left out of the
 * ref the kernel sees.
 */
squeezed: Array<boolean>, 
/**
 * The block index along each array dimension.
 */
index_map: Array<Index>, };

/**
 * Hits and misses of the compilation cache (every kernel of every mode). In
 * a Report, the counters (hits, misses, persisted hits, compile time) are
 * the run's own; `entries`, `loaded` and `corrupt` describe the cache.
 */
export type CacheStats = { 
/**
 * Launches of a kernel compiled earlier in this session.
 */
hits: number, 
/**
 * First launches of a kernel no session had compiled.
 */
misses: number, 
/**
 * Kernels compiled in this session.
 */
entries: number, 
/**
 * First launches of a kernel an earlier session persisted.
 */
persisted_hits: number, 
/**
 * Entries loaded from the persisted cache.
 */
loaded: number, 
/**
 * Persisted entries that could not be read or did not match their
 * fingerprint (ignored; their kernels are rebuilt).
 */
corrupt: number, 
/**
 * Milliseconds spent in first launches (compiling a kernel, then running
 * it once), measured on this machine; 0 where no clock was given to the
 * runtime.
 */
compile_ms: number, 
/**
 * Of the first launches, those whose kernel the backend's precompiled
 * library had compiled already (wgpu; `Backend::start_precompiling`).
 */
precompiled: number, };

export type CollectiveKind = "all-gather" | "reduce-scatter" | "all-reduce" | "all-to-all" | "send-recv";

/**
 * A collective the program simulated, where it happened in the run.
 */
export type CollectiveRecord = { line: number | null, 
/**
 * Kernels launched before it.
 */
after_kernels: number, 
/**
 * The slice it ran on (`4x4`), its chips and links.
 */
slice: string, layout: SliceLayout, simulation: Simulation, 
/**
 * What each of `layout.links` carried, in that order.
 */
traffic: Array<LinkTraffic>, };

/**
 * One step of the schedule: its transfers start at `start_us`. Steps of
 * different parts may overlap in time.
 */
export type CollectiveStep = { start_us: number, duration_us: number, axes: Array<AxisTraffic>, };

/**
 * One member's part in a collective.
 */
export type CommArrival = { rank: number, 
/**
 * Its source line; none if it never called it.
 */
line: number | null, arrived: boolean, 
/**
 * What it called, with the group, sequence number, shape, dtype and
 * reduction (`all_reduce (default group, collective #2, shape [4],
 * float32, SUM)`): in a mismatch the members' calls differ. None for a
 * message, and for a member that never called it.
 */
called: string | null, 
/**
 * When it arrived on the simulated timeline, and how long it waited
 * there for the last member.
 */
arrival_us: number | null, wait_us: number, };

/**
 * Elementwise comparisons; their result is a bool tensor.
 */
export type CompareOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge";

/**
 * One compile of a function: the guards its graphs are valid under.
 */
export type CompileRecord = { 
/**
 * What a call must match to reuse this compile, one guard per line.
 */
guards: Array<string>, 
/**
 * Why it was compiled again (none for the first compile): the first
 * guard of the previous compile that the call failed, in Dynamo's words.
 */
reason: string | null, 
/**
 * Dimensions compiled as dynamic (`x.size(0)`), by automatic dynamic
 * shapes or `dynamic=True`.
 */
dynamic_dims: Array<string>, line: number | null, 
/**
 * Calls this compile served.
 */
calls: number, graphs: Array<GraphRecord>, breaks: Array<GraphBreak>, 
/**
 * The compiled backward: the first backward through this compile's
 * graphs, captured and planned as one graph (AOTAutograd's
 * `CompiledFunctionBackward`).
 */
backward: Array<GraphRecord>, 
/**
 * Backward passes through this compile's graphs.
 */
backward_calls: number, 
/**
 * How a dynamic compile's calls ran: padded to a bound, or at their
 * own sizes and why.
 */
padding: PaddingRecord | null, };

/**
 * A function or module given to `torch.compile`.
 */
export type CompiledFunction = { name: string, 
/**
 * Where `torch.compile` was called.
 */
line: number | null, fullgraph: boolean, 
/**
 * `dynamic=` as given (`None`: automatic dynamic shapes).
 */
dynamic: boolean | null, calls: number, 
/**
 * Calls run eagerly, past `torch._dynamo.config.cache_size_limit`.
 */
eager_calls: number, compiles: Array<CompileRecord>, 
/**
 * What else happened to it (the cache size limit reached).
 */
notes: Array<string>, };

/**
 * A convolution as a TPU's MXU runs it: at each of the `taps` kernel
 * positions (per group), every one of `positions` output positions (batch
 * times output pixels) is a row that contracts `in_channels` into
 * `out_channels`. XLA pads the channels to the MXU's width at every tap, so
 * a layer of 8 input channels uses 1/16 of a 128-wide array however large
 * its kernel.
 */
export type Conv = { groups: number, taps: number, positions: number, in_channels: number, out_channels: number, };

/**
 * A kernel's simulated cost.
 */
export type Cost = { unit: CostUnit, 
/**
 * Simulated microseconds, launch overhead included.
 */
simulated_us: number, compute_us: number, memory_us: number, bound: CostBound, 
/**
 * The host's launch overhead, included in `simulated_us`.
 */
launch_us: number, 
/**
 * For a matmul: the fraction of the MXU's work that is not padding.
 */
mxu_utilization: number | null, 
/**
 * For a matmul: its floating-point operations, `2 * batch * m * k * n`.
 */
matmul_flops: number | null, 
/**
 * Alignment advice ("a contraction dimension of 64 fills half of a
 * 128-wide MXU").
 */
hints: Array<string>, };

/**
 * What bounds a kernel's simulated time.
 */
export type CostBound = "compute" | "memory" | "launch";

/**
 * Which unit of the chip runs a kernel.
 */
export type CostUnit = "mxu" | "vpu" | "sparse_core";

export type DType = "float32" | "float64" | "bfloat16" | "float16" | "uint8" | "int32" | "int64" | "bool";

/**
 * Why no rank could go on.
 */
export type DeadlockReport = { 
/**
 * The whole diagnosis, one line per rank.
 */
message: string, ranks: Array<RankWait>, };

/**
 * The simulated TPU of a run.
 */
export type DeviceSummary = { 
/**
 * The preset's id (`v5e`) and name (`TPU v5e`).
 */
chip: string, chip_name: string, 
/**
 * The slice's shape (`1`, `4x4`).
 */
slice: string, 
/**
 * Its chips and links, for drawing it.
 */
layout: SliceLayout, 
/**
 * When the simulated timeline ends, microseconds.
 */
simulated_us: number, 
/**
 * Kernels that ran on the MXUs (those with a matmul).
 */
matmul_kernels: number, 
/**
 * Their floating-point operations, summed.
 */
matmul_flops: number, 
/**
 * Their mean MXU utilisation (none without matmuls).
 */
mean_mxu_utilization: number | null, 
/**
 * Each alignment hint once, with the number of kernels it was given
 * for, in the order they first appeared.
 */
hints: Array<HintCount>, };

export type Diagnostic = { 
/**
 * The Python exception type, e.g. `RuntimeError` or `SyntaxError`.
 */
kind: string, message: string, 
/**
 * Where the error was raised (the innermost frame).
 */
span: SourceSpan | null, 
/**
 * The full text as CPython would print it, ending with `Kind: message`.
 */
traceback: string, };

/**
 * A collective of a group, or a message between two ranks.
 */
export type DistCollective = { 
/**
 * The function as the program called it: `all_reduce`, `send/recv`.
 */
name: string, 
/**
 * 0 for the default group, then `new_group`'s in creation order.
 */
group: number, 
/**
 * The members' ranks in group order (sender first for a message).
 */
ranks: Array<number>, 
/**
 * The collective's sequence number in its group (none for messages).
 */
seq: number | null, dtype: string, shape: Array<number>, bytes: number, reduce_op: string | null, 
/**
 * What made it, when the program did not call it itself (`DDP bucket 0`).
 */
cause: string | null, 
/**
 * Whether it ran: every member arrived and they agreed (false in a
 * deadlocked run).
 */
complete: boolean, 
/**
 * Why it never ran though every member arrived: what the ranks
 * disagreed on.
 */
mismatch: string | null, arrivals: Array<CommArrival>, 
/**
 * When it started on the simulated timeline (its last member's
 * arrival), and how long it took there (simulated, not measured).
 */
start_us: number | null, simulated_us: number, 
/**
 * The link-by-link schedule on the ranks' chips.
 */
simulation: Simulation | null, 
/**
 * What each of the slice layout's links carried, in that order.
 */
traffic: Array<LinkTraffic>, };

/**
 * TorchTPU's three eager modes.
 */
export type EagerMode = "debug" | "strict" | "fused";

/**
 * Host fallbacks of one op for one reason.
 */
export type FallbackGroup = { 
/**
 * The aten-style name, e.g. `aten::ne`.
 */
op: string, reason: string, count: number, 
/**
 * The source lines that dispatched them, ascending, each once.
 */
lines: Array<number>, };

/**
 * A figure and where it comes from.
 */
export type Figure = { value: number, source: string, 
/**
 * Sources disagree, or only third parties report it.
 */
uncertain: boolean, };

/**
 * Where Dynamo would have broken the graph, and why.
 */
export type GraphBreak = { 
/**
 * Dynamo's reason (`Tensor.item`, `print`, `data-dependent branching`).
 */
reason: string, line: number | null, };

/**
 * One captured graph of a compile (a compile with `k` breaks has `k + 1`).
 */
export type GraphRecord = { 
/**
 * Indices into the Report's `ops` of this graph's ops (first call).
 */
ops: Array<number>, 
/**
 * Kernels launched to run it on its first call.
 */
kernels: number, 
/**
 * Those kernels, as indices into the Report's `kernels`.
 */
kernel_indices: Array<number>, 
/**
 * What those kernels take on the chosen TPU (simulated, not measured).
 */
simulated_us: number, 
/**
 * Reads the runtime made inside the graph (a host fallback's operands,
 * an index), which a TPU compiler would have kept on the device.
 */
host_steps: number, inputs: Array<TensorType>, outputs: Array<TensorType>, 
/**
 * The graph as a StableHLO module (MLIR text), when it lowers.
 */
stablehlo: string | null, 
/**
 * Why it does not lower, when it does not.
 */
lowering_error: string | null, };

/**
 * An alignment hint and how many kernels it was given for.
 */
export type HintCount = { hint: string, kernels: number, };

/**
 * One ICI link: it joins chip `from` to its next neighbour `to` along
 * `axis`. A wraparound link closes a ring, from the last chip of the axis
 * back to the first.
 */
export type IciLink = { from: number, to: number, axis: number, wraparound: boolean, };

/**
 * A block index computed from the grid indices (an `index_map`'s result).
 */
export type Index = { "kind": "const", value: number, } | { "kind": "program_id", axis: number, } | { "kind": "binary", op: BinaryOp, a: Index, b: Index, };

/**
 * A block operation and the value it defines (`out`, unused by `Store` and
 * `When`), with that value's shape and dtype.
 */
export type Inst = { out: number, shape: Array<number>, dtype: DType, op: BlockOp, 
/**
 * The kernel's source line that made it.
 */
line: number | null, };

/**
 * A Python number carried by an op, kept exact when it is an integer
 * (`torch.arange` counts in int64 from integer bounds).
 */
export type IntOrFloat = number | number;

/**
 * One kernel launch.
 */
export type KernelRecord = { 
/**
 * The rank that made it (0 in a run of one rank).
 */
rank: number, name: string, 
/**
 * Indices into `Report::ops` of the ops this kernel computed.
 */
ops: Array<number>, backend: BackendKind, kernel_language: string, 
/**
 * The compilation cache key (see `cache.rs`).
 */
fingerprint: string | null, 
/**
 * Whether the cache already held this kernel (from this session or a
 * persisted one).
 */
cache_hit: boolean | null, 
/**
 * Whether the hit was an entry persisted by an earlier session.
 */
cache_persisted: boolean, 
/**
 * For the first launch in this session (a miss or a persisted hit):
 * milliseconds to compile and run it once (wall time on this machine).
 */
compile_ms: number | null, 
/**
 * For fused kernels: the generated source.
 */
source: string | null, 
/**
 * What the kernel does, for the device model.
 */
work: Work, 
/**
 * What the chosen TPU would take for it (simulated, not measured).
 */
cost: Cost | null, 
/**
 * What it took on this machine's GPU (measured, not simulated), where
 * the backend measures kernels and its times were back when the Report
 * was made.
 */
measured: MeasuredTime | null, };

/**
 * What one link carried over a whole collective, in each direction.
 */
export type LinkTraffic = { 
/**
 * Towards the link's `to` chip.
 */
forward_bytes: number, backward_bytes: number, };

/**
 * A kernel's time on this machine's GPU, from timestamps around it: its
 * start on the device's clock (only differences between starts mean
 * anything) and its duration, in microseconds.
 */
export type MeasuredTime = { start_us: number, duration_us: number, };

/**
 * What one rank's chip held at a phase of an FSDP run, in bytes by kind.
 * Every tensor is counted once, by its storage, and only `tpu` tensors count.
 */
export type MemoryPoint = { rank: number, 
/**
 * The phase: `after all-gather (forward)`, `after forward`,
 * `backward start`, `after reduce-scatter`, `after optimizer step`.
 */
phase: string, 
/**
 * The FSDP module (`0 (Linear)`), none for a whole-model phase.
 */
module: string | null, 
/**
 * The user's line running at that moment.
 */
line: number, 
/**
 * Optimiser steps taken before this point (0 during the first step).
 */
step: number, 
/**
 * The rank's shards of the parameters.
 */
parameters: number, 
/**
 * Gradients: the sharded ones, and whole ones backward made that the
 * reduce-scatter has not yet consumed.
 */
gradients: number, optimizer_state: number, 
/**
 * Whole parameters an all-gather made that FSDP holds at this moment
 * (freed by resharding, as PyTorch frees their storage).
 */
gathered_parameters: number, 
/**
 * Every other live buffer on the chip: activations saved for backward
 * and temporaries (queued values in Fused mode included).
 */
other: number, };

/**
 * A DeviceMesh: every rank makes the same ones, so rank 0's are reported.
 */
export type MeshReport = { shape: Array<number>, 
/**
 * `mesh_dim_names`, when the program gave them.
 */
dim_names: Array<string> | null, 
/**
 * The mesh's ranks in row-major order.
 */
ranks: Array<number>, 
/**
 * For each mesh dimension, the slice axis (`x`, `y`, `z`) along which
 * every one of its groups lies, so its collectives use that axis's
 * links; none where a group's chips differ in more than one axis.
 */
torus_axes: Array<string | null>, };

/**
 * A stretch of a run's kernels launched in one eager mode.
 */
export type ModeSpan = { mode: EagerMode, 
/**
 * The index of its first kernel in the Report's `kernels`.
 */
first_kernel: number, };

/**
 * How one `jnp.dot` of the kernel's blocks fills the MXU.
 */
export type MxuFit = { line: number | null, 
/**
 * `[m, k, n]` of the block product.
 */
dims: [number, number, number], mxu_width: number, 
/**
 * The fraction of the MXU's passes that is real work.
 */
utilization: number, 
/**
 * What to change, if anything ("a contraction dimension of 64 fills
 * half of a 128-wide MXU ...").
 */
hints: Array<string>, };

/**
 * The first non-finite result Debug mode saw.
 */
export type NonFinite = { 
/**
 * The op's index in `Report::ops`.
 */
op: number, name: string, line: number | null, 
/**
 * `nan` or `inf`.
 */
value: string, 
/**
 * What the page shows: `aten::div on line 5 produced nan: the first
 * non-finite value in this run (Debug mode checks every op's result).`
 */
message: string, };

/**
 * One computation on device tensors. Scalars from Python (`x * 2`) are carried
 * in the op, as PyTorch treats them as wrapped numbers rather than tensors.
 */
export type Op = { "kind": "fill", value: number, } | { "kind": "binary", op: BinaryOp, } | { "kind": "binary_scalar", op: BinaryOp, scalar: number, scalar_on_left: boolean, } | { "kind": "unary", op: UnaryOp, } | { "kind": "compare", op: CompareOp, } | { "kind": "compare_scalar", op: CompareOp, scalar: number, } | { "kind": "cast", to: DType, } | { "kind": "mat_mul", transpose_a: boolean, transpose_b: boolean, } | { "kind": "sum_all" } | { "kind": "strided", offset: number, strides: Array<number>, } | { "kind": "gather" } | { "kind": "scatter", accumulate: boolean, } | { "kind": "where" } | { "kind": "pad", before: Array<number>, after: Array<number>, value: number, } | { "kind": "concat", axis: number, parts: number, } | { "kind": "unfold_backward", axis: number, size: number, step: number, } | { "kind": "reduce", op: ReduceOp, axis: number, } | { "kind": "cumsum", axis: number, reverse: boolean, } | { "kind": "arange", start: IntOrFloat, step: IntOrFloat, } | { "kind": "linspace", start: number, end: number, } | { "kind": "eye" } | { "kind": "nonzero" } | { "kind": "random", draw: RandomDraw, } | { "kind": "pallas", kernel: PallasKernel, };

export type OpRecord = { 
/**
 * The rank that made it (0 in a run of one rank).
 */
rank: number, 
/**
 * The aten-style name, e.g. `aten::mm`.
 */
name: string, 
/**
 * The op with its constants, as `tpu-ir` defines it.
 */
op: Op, input_shapes: Array<Array<number>>, output_shape: Array<number>, 
/**
 * `tpu:0` or `cpu`.
 */
device: string, backend: BackendKind, kernel: string, 
/**
 * `WGSL` for shaders, `Rust` for the reference loops.
 */
kernel_language: string, 
/**
 * The source line that dispatched the op, when known.
 */
line: number | null, 
/**
 * Why a `tpu` op ran on the host reference instead of the accelerator
 * backend (no kernel for it yet), if it did.
 */
fallback: string | null, 
/**
 * For a convolution's matmul: the convolution (see `Runtime::set_conv`).
 */
conv?: Conv, };

/**
 * Bounded dynamic shapes: a dynamic compile's graph run padded to a bound
 * for each dynamic size, so that every size under the bound reuses one set
 * of kernels (the compilation cache keys on shapes).
 */
export type PaddingRecord = { 
/**
 * Each dynamic size (`x.size(1)`) with the bound it is padded to, as
 * last set.
 */
bounds: Array<[string, number]>, 
/**
 * Calls run padded.
 */
padded_calls: number, 
/**
 * Calls run at their own sizes (the first call of a size needs another
 * capture to fit the graph's sizes to the dynamic ones; see `notes`).
 */
exact_calls: number, 
/**
 * Padded plans made: one when the sizes were first fitted, one more
 * each time a size passed its bound or the fit stopped holding.
 */
plans: number, 
/**
 * Elements the padded runs' values held, and of those the elements
 * the exact sizes needed: the waste is `1 - exact / padded`.
 */
padded_elements: number, exact_elements: number, 
/**
 * Why calls ran unpadded, each reason once.
 */
notes: Array<string>, };

export type PallasKernel = { 
/**
 * The kernel function's name.
 */
name: string, grid: Array<number>, 
/**
 * The inputs, then the outputs.
 */
refs: Array<BlockRef>, inputs: number, body: Array<Inst>, 
/**
 * How many values the body defines (ids `0..values`).
 */
values: number, };

/**
 * One operand of a `pallas_call`, as the Report shows it.
 */
export type PallasOperand = { 
/**
 * `in` or `out`.
 */
role: string, shape: Array<number>, dtype: DType, 
/**
 * The block shape, `None` for a squeezed dimension.
 */
block: Array<number | null>, 
/**
 * The index map as Python: `lambda i, j: (i, j)`.
 */
index_map: string, 
/**
 * One block's bytes.
 */
block_bytes: number, 
/**
 * Blocks copied between HBM and VMEM over the grid (a block is copied
 * only when its index changes from one grid point to the next).
 */
copies: number, };

/**
 * A `pallas_call` as run: what the Kernels panel shows.
 */
export type PallasRecord = { 
/**
 * The rank that made it (0 in a run of one rank).
 */
rank: number, 
/**
 * The kernel function's name.
 */
name: string, 
/**
 * The `pallas_call`'s line.
 */
line: number | null, grid: Array<number>, 
/**
 * Per grid axis, whether its points are independent (each writes its
 * own output blocks): the generated shader runs them at once, the
 * others in order.
 */
parallel: Array<boolean>, operands: Array<PallasOperand>, 
/**
 * VMEM the blocks take, double-buffered, and the chip's VMEM.
 */
vmem_bytes: number, vmem_capacity: number, 
/**
 * The chip it was checked against.
 */
chip: string, mxu: Array<MxuFit>, 
/**
 * Index into `Report::ops` of its op, and into `Report::kernels` of the
 * kernel that ran it (set at the end of the run).
 */
op: number, kernel: number | null, 
/**
 * The block operations traced, as text (one per line).
 */
body: string, 
/**
 * The kernel's generated source (WGSL), when the accelerator backend
 * generates one.
 */
source: string | null, };

/**
 * What an `Op::Random` drew, with its parameters.
 */
export type RandomDraw = { "distribution": "uniform", low: number, high: number, } | { "distribution": "normal", mean: number, std: number, } | { "distribution": "randint", low: number, high: number, } | { "distribution": "randperm" };

/**
 * One rank: its chip and what its program did.
 */
export type RankReport = { rank: number, 
/**
 * Its chip: an index into the slice layout's chips.
 */
chip: number, 
/**
 * What the rank printed, without prefixes.
 */
stdout: string, 
/**
 * The error that ended this rank, if one did.
 */
diagnostics: Array<Diagnostic>, 
/**
 * Ops it dispatched and kernels it launched.
 */
ops: number, kernels: number, 
/**
 * When its chip's part of the simulated timeline ends, microseconds.
 */
simulated_us: number, 
/**
 * Simulated microseconds it spent waiting for other ranks at collectives.
 */
wait_us: number, };

/**
 * What one rank was doing when the run stopped.
 */
export type RankWait = { rank: number, 
/**
 * The line of the call it waits in, or where it finished.
 */
line: number | null, 
/**
 * `waits in all_reduce (default group, collective #2, shape [4], float32, SUM)`
 * or `finished`.
 */
state: string, 
/**
 * Why its collective cannot complete when the members disagree.
 */
mismatch: string | null, };

/**
 * Reductions along one axis.
 */
export type ReduceOp = "sum" | "prod" | "max" | "min" | "argmax" | "argmin";

/**
 * What bounds a run.
 */
export type RunBound = "dispatch" | "compute" | "memory" | "idle";

/**
 * The run at a glance (simulated time: the device model's, not measured).
 */
export type RunSummary = { 
/**
 * When the simulated timeline ends, microseconds.
 */
simulated_us: number, 
/**
 * Microseconds the chip spent running kernels (launch overhead, which
 * the host pays, not included); with several ranks, the mean over
 * their chips.
 */
chip_busy_us: number, 
/**
 * `chip_busy_us` over `simulated_us`, 0 to 1.
 */
chip_busy_fraction: number, 
/**
 * What bounds the run (see `classify`).
 */
bound: RunBound, 
/**
 * One plain sentence saying so, with what would help.
 */
explanation: string, 
/**
 * `tpu` ops that ran on the host reference, grouped by op and reason.
 */
fallbacks: Array<FallbackGroup>, 
/**
 * Where the host waited for the device, grouped by reason.
 */
syncs: Array<SyncGroup>, };

/**
 * A DTensor one rank holds at the end of its run.
 */
export type ShardedTensor = { rank: number, 
/**
 * The program's variable, or a module's parameter path (`model.0.weight`).
 */
name: string, 
/**
 * The user's line that made it.
 */
line: number, 
/**
 * An index into the meshes.
 */
mesh: number, 
/**
 * One per mesh dimension, as PyTorch prints them (`Shard(dim=0)`).
 */
placements: Array<string>, 
/**
 * The global shape, and this rank's block of it.
 */
shape: Array<number>, local_shape: Array<number>, offsets: Array<number>, dtype: string, local_bytes: number, };

export type Simulation = { kind: CollectiveKind, axes: Array<number>, bytes: number, 
/**
 * Chips in each group, and how many groups ran at once.
 */
group_chips: number, groups: number, 
/**
 * Simulated duration (not measured time).
 */
simulated_us: number, 
/**
 * Whether hop latency, not bandwidth, set most of the duration.
 */
latency_bound: boolean, 
/**
 * Bytes on the busiest directed link over the whole collective.
 */
max_link_bytes: number, 
/**
 * Bytes summed over every directed link.
 */
total_link_bytes: number, steps: Array<CollectiveStep>, 
/**
 * The scaling book's estimate where its formula applies.
 */
formula_us: number | null, 
/**
 * Link updates the simulation performed (its cost, for the scale test).
 */
work: number, 
/**
 * Bytes each directed link carried, indexed `Slice::link_slot(chip,
 * axis) * 2 + direction` (0: towards the next chip, 1: back; 0 where
 * there is no link). `link_traffic` lists them link by link.
 */
link_bytes: Array<number>, };

/**
 * A slice as it is drawn: its axes, each chip's coordinates (chip `c` is
 * `chips[c]`) and every link.
 */
export type SliceLayout = { 
/**
 * Axis lengths (`[4, 4]`).
 */
dims: Array<number>, 
/**
 * Per axis, whether it has wraparound links.
 */
wrap: Array<boolean>, chips: Array<Array<number>>, 
/**
 * In the order of `Slice::links`.
 */
links: Array<IciLink>, };

/**
 * A 1-based line and column range in the user's source.
 */
export type SourceSpan = { line: number, column: number, end_line: number, end_column: number, };

/**
 * Syncs for one reason.
 */
export type SyncGroup = { reason: string, count: number, 
/**
 * The source lines where the host waited, ascending, each once.
 */
lines: Array<number>, };

/**
 * A materialisation point: the host waited for a device value.
 */
export type SyncRecord = { 
/**
 * The rank that made it (0 in a run of one rank).
 */
rank: number, 
/**
 * `item()`, `print`, `tolist()`, `.cpu()`, `control flow`, `torch_tpu.sync()`, ...
 */
reason: string, line: number | null, 
/**
 * Kernels of its rank launched when the host had its value (those it waited for).
 */
after_kernels: number, 
/**
 * Bytes the host read.
 */
bytes: number, };

/**
 * The type of a graph's parameter or result, as the Report shows it.
 */
export type TensorType = { shape: Array<number>, dtype: DType, };

/**
 * Simulated time, lane by lane.
 */
export type Timeline = { lanes: Array<TimelineLane>, 
/**
 * When the last event ends (simulated microseconds).
 */
total_us: number, };

export type TimelineEvent = { name: string, start_us: number, duration_us: number, };

export type TimelineLane = { 
/**
 * The chip the lane belongs to (none for the host of a single-chip run;
 * in a world timeline a rank's host lane has its rank's chip).
 */
chip: number | null, 
/**
 * The rank whose lane it is, in a world timeline (see `world`).
 */
rank: number | null, name: string, events: Array<TimelineEvent>, 
/**
 * Whether its times were measured on this machine rather than
 * simulated (the kernels as this machine's GPU ran them).
 */
measured: boolean, };

/**
 * How a generation's chips connect.
 */
export type Topology = { "kind": "torus", dims: number, max_axis: [number, number, number], max_chips: number, wrap: Wrap, } | { "kind": "unmodelled", name: string, };

/**
 * Elementwise functions of one tensor.
 */
export type UnaryOp = "neg" | "abs" | "relu" | "exp" | "log" | "sqrt" | "tanh" | "sigmoid" | "sin" | "cos" | "tan" | "atan" | "erf" | "floor" | "ceil" | "round" | "sign";

/**
 * A static window of a ref along one of its (unsqueezed) dimensions: `start`
 * and `size`, or one index that drops the dimension (`x_ref[0]`).
 */
export type Window = { start: number, size: number, drop: boolean, };

/**
 * What a kernel does, as the cost model needs it.
 */
export type Work = { 
/**
 * `(batch, m, k, n)` of a matmul in the kernel.
 */
matmul: [number, number, number, number] | null, 
/**
 * Floating-point operations besides the matmul's.
 */
vector_flops: number, 
/**
 * Bytes read from and written to HBM.
 */
hbm_bytes: number, 
/**
 * A gather or scatter (SparseCore work where the chip has them).
 */
sparse: boolean, 
/**
 * For a convolution's matmul: the convolution, which the MXU runs tap
 * by tap (see `Conv`), costed as such instead of as `matmul`.
 */
conv?: Conv, };

/**
 * What is particular to a run of several ranks.
 */
export type WorldReport = { nproc: number, ranks: Array<RankReport>, 
/**
 * Every collective and message, in the order their first member
 * started them.
 */
collectives: Array<DistCollective>, 
/**
 * Set when the run stopped because no rank could proceed.
 */
deadlock: DeadlockReport | null, 
/**
 * The DeviceMeshes the program made (rank 0's; every rank makes the
 * same), and the DTensors each rank held when it ended.
 */
meshes: Array<MeshReport>, dtensors: Array<ShardedTensor>, 
/**
 * What each rank's chip held at each phase of an FSDP run, rank by
 * rank in the order they happened; `memory_dropped` points past each
 * rank's first `MAX_MEMORY_POINTS` were not kept.
 */
memory: Array<MemoryPoint>, memory_dropped: number, };

/**
 * Which axes of a slice have wraparound links (and so are rings).
 */
export type Wrap = { "rule": "each_axis", "multiple": number } | { "rule": "whole_cubes", "multiple": number };
