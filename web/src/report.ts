// The Report as the wasm runtime returns it: the TypeScript mirror of
// `tpu_runtime::Report` (crates/tpu-runtime/src/report.rs). Keep the two in step.

export interface SourceSpan {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

export interface Diagnostic {
  kind: string;
  message: string;
  span: SourceSpan | null;
  traceback: string;
}

export interface OpRecord {
  name: string;
  op: { kind: string; [field: string]: unknown };
  input_shapes: number[][];
  output_shape: number[];
  device: string;
  backend: "reference" | "wgpu";
  kernel: string;
  kernel_language: string;
  line: number | null;
  /** Why a tpu op ran on the host reference instead (no accelerator kernel yet). */
  fallback: string | null;
}

export type EagerMode = "debug" | "strict" | "fused";

export interface KernelRecord {
  name: string;
  /** Indices into `Report.ops` of the ops this kernel computed. */
  ops: number[];
  backend: "reference" | "wgpu";
  kernel_language: string;
  /** The compilation cache key (null for host fallbacks). */
  fingerprint: string | null;
  cache_hit: boolean | null;
  /** Whether the hit was an entry persisted by an earlier session. */
  cache_persisted: boolean;
  /** For fused kernels: the generated source. */
  source: string | null;
  /** For a first launch in this session: ms to compile and run it once (wall time). */
  compile_ms: number | null;
  /** What the kernel does, for the device model. */
  work: Work;
  /** What the chosen TPU would take for it (simulated, not measured). */
  cost: Cost | null;
}

export interface Work {
  /** [batch, m, k, n] of a matmul in the kernel. */
  matmul: [number, number, number, number] | null;
  vector_flops: number;
  hbm_bytes: number;
  sparse: boolean;
}

export interface Cost {
  unit: "mxu" | "vpu" | "sparse_core";
  /** Simulated microseconds, launch overhead included. */
  simulated_us: number;
  compute_us: number;
  memory_us: number;
  bound: "compute" | "memory" | "launch";
  launch_us: number;
  mxu_utilization: number | null;
  hints: string[];
}

export interface DeviceSummary {
  chip: string;
  chip_name: string;
  slice: string;
  /** When the simulated timeline ends, microseconds. */
  simulated_us: number;
}

export interface TimelineEvent {
  name: string;
  start_us: number;
  duration_us: number;
}

export interface TimelineLane {
  chip: number | null;
  name: string;
  events: TimelineEvent[];
}

/** Simulated time, lane by lane. */
export interface Timeline {
  lanes: TimelineLane[];
  total_us: number;
}

export interface SyncRecord {
  reason: string;
  line: number | null;
  /** Kernels launched when the host had its value. */
  after_kernels: number;
  /** Bytes the host read. */
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  persisted_hits: number;
  loaded: number;
  corrupt: number;
  compile_ms: number;
}

export interface NonFinite {
  op: number;
  name: string;
  line: number | null;
  value: "nan" | "inf";
}

export interface Report {
  stdout: string;
  diagnostics: Diagnostic[];
  ops: OpRecord[];
  backend: "reference" | "wgpu" | null;
  backend_device: string;
  mode: EagerMode;
  kernels: KernelRecord[];
  syncs: SyncRecord[];
  cache: CacheStats;
  first_nonfinite: NonFinite | null;
  /** The simulated TPU the run was costed on. */
  device: DeviceSummary | null;
  /** What that TPU would do with the run's kernels (simulated). */
  timeline: Timeline | null;
  /** Collectives the program simulated, with their schedules. */
  collectives: CollectiveRecord[];
  /** Wall time of the run in this browser, measured by the worker (ms). */
  measured_ms?: number;
}

export interface AxisTraffic {
  axis: number;
  forward_bytes: number;
  backward_bytes: number;
  busy_links: number;
}

export interface CollectiveStep {
  start_us: number;
  duration_us: number;
  axes: AxisTraffic[];
}

export interface Simulation {
  kind: "all-gather" | "reduce-scatter" | "all-reduce" | "all-to-all" | "send-recv";
  axes: number[];
  bytes: number;
  group_chips: number;
  groups: number;
  /** Simulated duration (not measured). */
  simulated_us: number;
  latency_bound: boolean;
  max_link_bytes: number;
  total_link_bytes: number;
  steps: CollectiveStep[];
  formula_us: number | null;
  work: number;
  /** Bytes per directed link, indexed (chip * axes + axis) * 2 + direction. */
  link_bytes: number[];
}

export interface CollectiveRecord {
  line: number | null;
  after_kernels: number;
  slice: string;
  dims: number[];
  wrap: boolean[];
  simulation: Simulation;
}
