// The Report as the wasm runtime returns it. Its shape is generated from the
// Rust types (`generated/report.ts`, written by the tpu-runtime test in
// crates/tpu-runtime/src/report/typescript.rs, which fails when the two
// differ); this file adds only what the worker adds.
import type { Report as RunReport } from "./generated/report.js";

export type * from "./generated/report.js";

export type Report = RunReport & {
  /** Wall time of the run in this browser, measured by the worker (ms). */
  measured_ms?: number;
};
