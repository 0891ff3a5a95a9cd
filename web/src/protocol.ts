// Messages between the page and the runtime's worker.
import type { EagerMode, Report, Timeline } from "./report.js";

/** A chip preset as the device model describes it. */
export interface Figure {
  value: number;
  source: string;
  uncertain: boolean;
}

export interface ChipPreset {
  id: string;
  name: string;
  bf16_flops: Figure;
  hbm_bytes: Figure;
  hbm_bandwidth: Figure;
  ici_link_bandwidth: Figure;
  ici_ports: number;
  ici_hop_latency: Figure;
  mxu_width: number;
  mxus_per_core: number;
  tensor_cores: number;
  sparse_cores: number;
  vmem_bytes: Figure;
  launch_overhead: Figure;
  host_bandwidth: Figure;
  topology: { kind: "torus"; dims: number; max_axis: number[]; max_chips: number } | { kind: "unmodelled"; name: string };
}

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
