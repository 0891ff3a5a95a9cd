// Messages between the page and the runtime's worker.
import type { EagerMode, Report } from "./report";

export type ToWorker = { type: "run"; id: number; source: string; mode: EagerMode };

export type FromWorker =
  | { type: "ready"; backend: string; fallbackReason: string | null }
  | { type: "failed"; message: string }
  | { type: "report"; id: number; report: Report; elapsedMs: number }
  | { type: "error"; id: number; message: string };
