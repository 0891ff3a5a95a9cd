// The Report as the wasm runtime returns it. Its shape is generated from the
// Rust types (`generated/report.ts`, written by the tpu-runtime test in
// crates/tpu-runtime/src/report/typescript.rs, which fails when the two
// differ); this file adds only what the worker adds.
import type { Report as RunReport } from "./generated/report.js";

export type * from "./generated/report.js";

export type Report = RunReport & {
  /** Wall time of the run in this browser, measured by the worker (ms). */
  measured_ms?: number;
  // Until the runtime's generated types carry it (branch page-runrt): the
  // run summary, as its contract names it.
  summary?: {
    simulated_us: number;
    chip_busy_us: number;
    chip_busy_fraction: number;
    bound: "dispatch" | "compute" | "memory" | "idle";
    explanation: string;
    fallbacks: { op: string; reason: string; count: number; lines: number[] }[];
    syncs: { reason: string; count: number; lines: number[] }[];
  } | null;
};
