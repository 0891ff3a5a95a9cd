// The Report's panels: Kernels (the op stream as launched kernels, with cache
// status, simulated cost and generated source, the Pallas calls (`pallas.ts`),
// and why each sync happened),
// Ops, Modes and Chip (the simulated TPU the run was costed on). A run of
// several ranks adds a rank column to Kernels and Ops. Long tables
// are shown a page at a time and always say how many rows they hide. Everything shown comes from the
// Report, totals included (the runtime adds them up); simulated time is
// labelled as such.
import type { ChipPreset, Figure } from "tpu-playground";
import type { EagerMode, KernelRecord, OpRecord, Report, SyncRecord } from "tpu-playground/report";
import { el, paginated, table, us } from "./dom";
import { renderPallas } from "./pallas";

function cacheText(k: KernelRecord): string {
  if (k.cache_hit === null) return "host fallback";
  if (!k.cache_hit) return "miss (compiled)";
  return k.cache_persisted ? "hit (persisted)" : "hit";
}

/** Whether the run had several ranks, whose rows then say which rank made them. */
function ranked(report: Report): boolean {
  return (report.world?.nproc ?? 1) > 1;
}

/** `15 kernels in fused mode`, or, where the program changed mode, how many in each. */
export function kernelCount(report: Report): string {
  const total = `${report.kernels.length} kernel${report.kernels.length === 1 ? "" : "s"}`;
  const spans = report.modes;
  if (spans.length <= 1) return `${total} in ${spans[0]?.mode ?? report.mode} mode`;
  const counts = spans.map((span, i) => {
    const end = spans[i + 1]?.first_kernel ?? report.kernels.length;
    return `${end - span.first_kernel} in ${span.mode}`;
  });
  return `${total} (${counts.join(", then ")}: the program changed mode)`;
}

/** The compilation cache's counts for the run's kernels, with the host
 * fallbacks that had no kernel to cache, so that they add up to the kernels. */
export function cacheCounts(report: Report): string {
  const c = report.cache;
  const fallbacks = report.kernels.filter((k) => k.cache_hit === null).length;
  const persisted = c.persisted_hits ? ` (${c.persisted_hits} kept from an earlier visit)` : "";
  return `compilation cache: ${c.hits} hits${persisted}, ${c.misses} misses${fallbacks ? `, ${fallbacks} host fallbacks (nothing to cache)` : ""}`;
}

/** A kernel's generated source, opened at its entry point: a fused kernel's
 * helper functions come first, and its body would be out of sight. */
function sourceBlock(source: string): HTMLElement {
  const pre = el("pre", { className: "source" }, source);
  const details = el("details", {}, el("summary", {}, "source"), pre);
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    const entry = source.split("\n").findIndex((line) => line.startsWith("@compute"));
    if (entry <= 0) return;
    const lineHeight = parseFloat(getComputedStyle(pre).lineHeight) || 15;
    pre.scrollTop = Math.max(0, entry - 1) * lineHeight;
  });
  return details;
}

export function renderKernels(target: HTMLElement, report: Report) {
  const several = ranked(report);
  // The Report holds a kernel's source once a run (its first launch); later
  // launches of it point there.
  const firstWithSource = new Map<string, number>();
  report.kernels.forEach((k, i) => {
    if (k.source && !firstWithSource.has(k.name)) firstWithSource.set(k.name, i);
  });
  const kernelRow = (k: KernelRecord, i: number) => {
    // A convolution's matmul says which convolution it is.
    const ops = k.ops.map((o) => {
      const op = report.ops[o];
      if (!op) return "?";
      const c = op.conv;
      return c ? `${op.name} (conv: ${c.taps} taps, ${c.in_channels}→${c.out_channels} channels${c.groups > 1 ? ` ×${c.groups} groups` : ""})` : op.name;
    });
    const cost = k.cost;
    // The source opens in a block that scrolls inside its cell; the table's
    // fixed layout keeps it from widening the table.
    const same = firstWithSource.get(k.name);
    const source = k.source
      ? sourceBlock(k.source)
      : same !== undefined
        ? el("div", { className: "hint same-source" }, `source: as kernel #${same + 1}`)
        : "";
    // Hints sit under the kernel's name, where the column is wide enough to read them.
    const hints = cost?.hints.length ? el("div", { className: "hint" }, cost.hints.join("; ")) : "";
    return el(
      "tr",
      {},
      el("td", {}, String(i + 1)),
      ...(several ? [el("td", {}, String(k.rank))] : []),
      el("td", {}, k.name, hints, source),
      el("td", {}, `${ops.length}: ${ops.join(" ")}`),
      el("td", {}, cacheText(k)),
      el(
        "td",
        {},
        cost ? `${us(cost.simulated_us)} (${cost.unit}, ${cost.bound}-bound)` : "",
        // Where this machine's GPU timed it (native runs): measured, not simulated.
        k.measured ? el("div", { className: "hint measured" }, `${us(k.measured.duration_us)} measured on this machine's GPU`) : "",
      ),
      el("td", {}, cost?.mxu_utilization != null ? `${Math.round(cost.mxu_utilization * 100)}%` : ""),
    );
  };
  target.replaceChildren(
    el("p", { className: "summary" }, `${kernelCount(report)} for ${report.ops.length} ops · ${cacheCounts(report)}${submissionsText(report)}`),
    paginated(
      report.kernels,
      kernelRow,
      (rows) =>
        several
          ? table("kernels ranked", ["#", "rank", "kernel", "ops", "cache", "simulated on TPU", "MXU use"], rows)
          : table("kernels", ["#", "kernel", "ops", "cache", "simulated on TPU", "MXU use"], rows),
      "kernels",
    ),
    renderPallas(report),
    el("h3", {}, "Syncs (materialisation points), in order"),
    report.syncs.length
      ? paginated(
          report.syncs,
          (s: SyncRecord) =>
            el(
              "li",
              {},
              `${several ? `rank ${s.rank}: ` : ""}${s.reason}${s.line !== null ? ` (line ${s.line})` : ""}: waited for ${s.after_kernels} kernels`,
            ),
          (rows) => el("ul", { className: "syncs" }, ...rows),
          "syncs",
        )
      : el("p", {}, "none"),
  );
}

/** How often the run gave the GPU's queue work: the kernels between two
 *  reads go together, so this is about the number of reads, not of kernels.
 *  Empty on the CPU reference, which has no queue. */
function submissionsText(report: Report): string {
  const n = report.submissions;
  if (!n) return "";
  return ` · ${n} queue submission${n === 1 ? "" : "s"} (the kernels between two reads go to the GPU together)`;
}

/** The Ops panel: every op dispatched, a page at a time. */
export function renderOps(target: HTMLElement, report: Report) {
  const several = ranked(report);
  const opRow = (op: OpRecord, i: number) => {
    const cells = [
      String(i + 1),
      ...(several ? [String(op.rank)] : []),
      op.line?.toString() ?? "",
      op.name,
      `[${op.output_shape.join(", ")}]`,
      op.device,
      op.fallback ? `${op.backend} (fallback)` : op.backend,
      `${op.kernel} (${op.kernel_language})`,
    ];
    const tr = el("tr", {}, ...cells.map((text) => el("td", {}, text)));
    if (op.fallback) tr.title = op.fallback;
    return tr;
  };
  target.replaceChildren(
    paginated(
      report.ops,
      opRow,
      (rows) =>
        table("ops", ["#", ...(several ? ["rank"] : []), "line", "op", "shape", "device", "backend", "kernel"], rows),
      "ops",
    ),
  );
}

export function renderChip(target: HTMLElement, report: Report) {
  const d = report.device;
  if (!d) {
    target.replaceChildren(el("p", {}, "No simulated device for this run."));
    return;
  }
  target.replaceChildren(
    el("p", { className: "summary" }, `${d.chip_name}, slice ${d.slice} (chip "${d.chip}"): the run takes ${us(d.simulated_us)} of simulated time.`),
    el(
      "p",
      {},
      d.matmul_kernels
        ? `${d.matmul_kernels} matmul kernels, ${(d.matmul_flops / 1e9).toFixed(3)} GFLOP; mean MXU use ${Math.round(
            100 * (d.mean_mxu_utilization ?? 0),
          )}%.`
        : "No matmuls ran on the MXUs.",
    ),
    ...(d.matmul_kernels
      ? [
          el("h3", {}, "Alignment hints"),
          d.hints.length
            ? el("ul", {}, ...d.hints.map(({ hint, kernels: n }) => el("li", {}, `${hint} (${n} kernel${n > 1 ? "s" : ""})`)))
            : el("p", {}, "Every matmul dimension fills the MXU."),
        ]
      : []),
  );
}

export interface ModeResult {
  mode: EagerMode;
  report: Report;
  elapsedMs: number;
}

/** The same program under each eager mode, side by side. */
export function renderModes(target: HTMLElement, results: ModeResult[], ranks: number, device: string) {
  const first = results[0]?.report.stdout;
  const rows = results.map(({ mode, report, elapsedMs }) => {
    const c = report.cache;
    return el(
      "tr",
      { className: `mode-${mode}` },
      el("td", {}, mode),
      el("td", {}, String(report.ops.length)),
      el("td", {}, String(report.kernels.length)),
      el("td", {}, `${c.hits} hits, ${c.misses} misses`),
      el("td", { className: "compile-ms" }, `${c.compile_ms.toFixed(0)} ms${c.precompiled ? `, ${c.precompiled} precompiled` : ""}`),
      el("td", {}, String(report.syncs.length)),
      el("td", {}, report.device ? us(report.device.simulated_us) : ""),
      el("td", {}, `${elapsedMs.toFixed(0)} ms`),
      el("td", {}, report.diagnostics.length ? report.diagnostics[0].kind : report.stdout === first ? "same" : "differs"),
    );
  });
  target.replaceChildren(
    el(
      "p",
      { className: "summary" },
      `The program as it was at ${new Date().toLocaleTimeString()}, run in Debug, Strict and Fused mode one after another${
        ranks > 1 ? ` as ${ranks} ranks` : ""
      } on ${device}, each after the runtime had started. Simulated time is the chosen TPU's; measured time is this browser's wall clock. First launches: the measured time of the launches that missed the compilation cache (compiling included; on WebGPU the precompiled library, compiled while the page was idle, spares most of it).`,
    ),
    el(
      "table",
      { className: "modes" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["mode", "ops dispatched", "kernels", "compilation cache", "first launches", "syncs", "simulated on TPU", "measured here", "output"].map(
            (h) => el("th", {}, h),
          ),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
  );
}

/** A preset's figures with their sources; uncertain ones are marked. */
export function renderChipSpecs(target: HTMLElement, chip: ChipPreset) {
  const figure = (label: string, f: Figure, unit: string, scale: number) =>
    el(
      "tr",
      {},
      el("td", {}, label),
      el("td", {}, `${(f.value / scale).toLocaleString("en-US", { maximumFractionDigits: 2 })} ${unit}${f.uncertain ? " *" : ""}`),
      el("td", { className: "hint" }, f.source),
    );
  const plain = (label: string, value: string) => el("tr", {}, el("td", {}, label), el("td", {}, value), el("td", {}, ""));
  const topology =
    chip.topology.kind === "torus"
      ? `${chip.topology.dims}-D torus, up to ${chip.topology.max_chips} chips`
      : `${chip.topology.name} (not simulated)`;
  target.replaceChildren(
    el(
      "table",
      { className: "specs" },
      el(
        "tbody",
        {},
        figure("peak bf16", chip.bf16_flops, "TFLOP/s", 1e12),
        figure("HBM", chip.hbm_bytes, "GB", 1e9),
        figure("HBM bandwidth", chip.hbm_bandwidth, "GB/s", 1e9),
        figure("ICI link, one way", chip.ici_link_bandwidth, "GB/s", 1e9),
        plain("ICI ports", String(chip.ici_ports)),
        figure("ICI hop latency", chip.ici_hop_latency, "µs", 1e-6),
        plain("MXU", `${chip.mxu_width}×${chip.mxu_width}, ${chip.mxus_per_core} per TensorCore`),
        plain("TensorCores / SparseCores", `${chip.tensor_cores} / ${chip.sparse_cores}`),
        figure("VMEM per TensorCore", chip.vmem_bytes, "MiB", 1024 * 1024),
        figure("launch overhead", chip.launch_overhead, "µs", 1e-6),
        figure("host link (PCIe)", chip.host_bandwidth, "GB/s", 1e9),
        plain("topology", topology),
      ),
    ),
    el("p", { className: "hint" }, "* uncertain: sources disagree, or only third parties report it."),
  );
}
