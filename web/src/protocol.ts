// Messages between the page and the runtime's worker.
import type { ChipPreset, EagerMode, Report, Timeline } from "./report.js";

// The chip presets (`ChipPreset`, `Figure`) are generated from the device
// model's types with the Report's (see report.ts).
export type { ChipPreset, Figure } from "./report.js";

/** Which backend runs `tpu` tensors: WebGPU when there is one, or as chosen. */
export type BackendChoice = "auto" | "wgpu" | "reference";

export type ToWorker =
  /** `threads`: how many threads the CPU reference's large matrix products
   * may use (the worker and its helpers); default: the machine's cores, up to 4. */
  | { type: "start"; backend: BackendChoice; threads?: number }
  | {
      type: "run";
      id: number;
      source: string;
      mode: EagerMode;
      timeoutMs: number | null;
      nproc: number | null;
      argv?: string[];
    }
  | { type: "device"; chip: string; slice: string }
  | { type: "trace"; id: number; timeline: Timeline; chipName: string }
  | { type: "files"; id: number; request: FilesRequest };

/** What the client asks of the program's files. */
export type FilesRequest =
  | { op: "list" }
  | { op: "read"; path: string }
  | { op: "write"; path: string; bytes: Uint8Array }
  | { op: "remove"; path: string };

/** One of the program's files: its absolute path and size in bytes. */
export interface FileInfo {
  path: string;
  size: number;
}

export type FromWorker =
  | {
      type: "ready";
      backend: string;
      backendLabel: string;
      software: boolean;
      /** Threads the CPU reference's large matrix products use (1 on WebGPU). */
      threads: number;
      fallbackReason: string | null;
      chips: ChipPreset[];
    }
  | { type: "device"; chip: string; slice: string; error: string | null }
  | { type: "failed"; message: string }
  /** The precompiled kernel library's progress (WebGPU), while idle. */
  | { type: "library"; compiled: number; remaining: number }
  /** Text the program printed, as it printed it (before its Report). */
  | { type: "output"; id: number; text: string }
  /** The line the program is running, at most every ~100 ms. */
  | { type: "progress"; id: number; line: number; elapsedMs: number }
  | { type: "report"; id: number; report: Report }
  | { type: "error"; id: number; message: string }
  | { type: "trace"; id: number; trace: object }
  /** The answer to a `files` request: a list, bytes (null: no such file),
   * a path written, whether a file was removed; or why it failed. */
  | { type: "files"; id: number; result: FileInfo[] | Uint8Array | string | boolean | null; error: string | null };
