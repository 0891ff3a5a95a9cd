// Messages between the page and the runtime's worker.
import type { ChipPreset, EagerMode, Report, Timeline } from "./report.js";

// The chip presets (`ChipPreset`, `Figure`) are generated from the device
// model's types with the Report's (see report.ts).
export type { ChipPreset, Figure } from "./report.js";

export type ToWorker =
  | { type: "run"; id: number; source: string; mode: EagerMode }
  | { type: "device"; chip: string; slice: string }
  | { type: "trace"; id: number; timeline: Timeline; chipName: string };

export type FromWorker =
  | { type: "ready"; backend: string; fallbackReason: string | null; chips: ChipPreset[] }
  | { type: "device"; chip: string; slice: string; error: string | null }
  | { type: "failed"; message: string }
  | { type: "report"; id: number; report: Report }
  | { type: "error"; id: number; message: string }
  | { type: "trace"; id: number; trace: object };
