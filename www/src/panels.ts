// The Report's panels: Kernels (the op stream as launched kernels, with cache
// status, simulated cost and generated source, and why each sync happened),
// Timeline (the simulated lanes; download as Perfetto JSON) and Chip (the
// simulated TPU the run was costed on). Everything shown comes from the
// Report, totals included (the runtime adds them up); simulated time is
// labelled as such.
import type { ChipPreset, Figure } from "../../web/src/protocol";
import type { EagerMode, KernelRecord, Report } from "../../web/src/report";

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

function us(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} ms`;
  return `${value.toFixed(value < 10 ? 2 : 1)} µs`;
}

function cacheText(k: KernelRecord): string {
  if (k.cache_hit === null) return "host fallback";
  if (!k.cache_hit) return "miss (compiled)";
  return k.cache_persisted ? "hit (persisted)" : "hit";
}

/** The most rows a table shows; the rest are counted. */
export const MAX_ROWS = 300;

function more(total: number): (HTMLElement | string)[] {
  return total > MAX_ROWS ? [el("p", { className: "summary" }, `… and ${total - MAX_ROWS} more`)] : [];
}

export function renderKernels(target: HTMLElement, report: Report) {
  const rows = report.kernels.slice(0, MAX_ROWS).map((k, i) => {
    const ops = k.ops.map((o) => report.ops[o]?.name ?? "?");
    const cost = k.cost;
    const source = k.source
      ? el("details", {}, el("summary", {}, "source"), el("pre", { className: "source" }, k.source))
      : "";
    const hints = cost?.hints.length ? el("div", { className: "hint" }, cost.hints.join("; ")) : "";
    return el(
      "tr",
      {},
      el("td", {}, String(i + 1)),
      el("td", {}, k.name, source),
      el("td", {}, `${ops.length}: ${ops.join(" ")}`),
      el("td", {}, cacheText(k)),
      el("td", {}, cost ? `${us(cost.simulated_us)} (${cost.unit}, ${cost.bound}-bound)` : ""),
      el(
        "td",
        {},
        cost?.mxu_utilization != null ? `${Math.round(cost.mxu_utilization * 100)}%` : "",
        hints,
      ),
    );
  });
  const syncs = report.syncs.map((s) =>
    el("li", {}, `${s.reason}${s.line !== null ? ` (line ${s.line})` : ""}: waited for ${s.after_kernels} kernels`),
  );
  const c = report.cache;
  target.replaceChildren(
    el(
      "p",
      { className: "summary" },
      `${report.kernels.length} kernels in ${report.mode} mode for ${report.ops.length} ops · compilation cache: ${c.hits} hits, ${c.persisted_hits} persisted, ${c.misses} misses`,
    ),
    el(
      "table",
      { className: "kernels" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...["#", "kernel", "ops", "cache", "simulated on TPU", "MXU use"].map((h) => el("th", {}, h)),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
    ...more(report.kernels.length),
    el("h3", {}, "Syncs (materialisation points)"),
    syncs.length ? el("ul", { className: "syncs" }, ...syncs.slice(0, MAX_ROWS)) : el("p", {}, "none"),
    ...more(syncs.length),
  );
}

const SVG = "http://www.w3.org/2000/svg";

/** Renders the Timeline panel; `trace` makes the Perfetto JSON of a report
 * (the runtime's own exporter, as `tpu run --trace` uses). */
export function renderTimeline(target: HTMLElement, report: Report, trace: (r: Report) => Promise<object>) {
  const timeline = report.timeline;
  if (!timeline || !report.device) {
    target.replaceChildren(el("p", {}, "No timeline: the run launched no kernels."));
    return;
  }
  const total = Math.max(timeline.total_us, 1e-9);
  const lanes = timeline.lanes;
  const row = 24;
  const height = lanes.length * row;
  // Lane names beside an SVG whose x axis is simulated microseconds: zooming
  // and panning change its viewBox only.
  const labels = el(
    "div",
    { className: "lanes" },
    ...lanes.map((lane) => el("div", {}, lane.chip === null ? lane.name : `chip ${lane.chip} · ${lane.name}`)),
  );
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "timeline");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("height", String(height));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "simulated timeline");
  lanes.forEach((lane, i) => {
    for (const e of lane.events) {
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", String(e.start_us));
      rect.setAttribute("y", String(i * row + 4));
      rect.setAttribute("width", String(Math.max(e.duration_us, 0)));
      rect.setAttribute("height", String(row - 8));
      rect.setAttribute("class", `lane-${i}`);
      const title = document.createElementNS(SVG, "title");
      title.textContent = `${e.name}: ${us(e.duration_us)} at ${us(e.start_us)} (simulated)`;
      rect.append(title);
      svg.append(rect);
    }
  });
  let view = { start: 0, width: total };
  const range = el("span", { className: "hint" });
  const show = () => {
    view.width = Math.min(Math.max(view.width, total / 1e6), total);
    view.start = Math.min(Math.max(view.start, 0), total - view.width);
    svg.setAttribute("viewBox", `${view.start} 0 ${view.width} ${height}`);
    range.textContent = `showing ${us(view.start)} to ${us(view.start + view.width)}`;
  };
  /** Zooms by `factor` around the fraction `at` of the visible range. */
  const zoom = (factor: number, at = 0.5) => {
    const pivot = view.start + at * view.width;
    view = { start: pivot - at * view.width * factor, width: view.width * factor };
    show();
  };
  svg.addEventListener(
    "wheel",
    (event) => {
      event.preventDefault();
      const box = svg.getBoundingClientRect();
      zoom(event.deltaY > 0 ? 1.25 : 0.8, (event.clientX - box.left) / box.width);
    },
    { passive: false },
  );
  let drag: { x: number; start: number } | null = null;
  svg.addEventListener("pointerdown", (event) => {
    drag = { x: event.clientX, start: view.start };
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const box = svg.getBoundingClientRect();
    view.start = drag.start - ((event.clientX - drag.x) / box.width) * view.width;
    show();
  });
  svg.addEventListener("pointerup", () => {
    drag = null;
  });
  const button = (text: string, action: () => void) => {
    const b = el("button", { type: "button", className: "secondary" }, text);
    b.addEventListener("click", action);
    return b;
  };
  const download = button("Download Perfetto JSON", async () => {
    const blob = new Blob([JSON.stringify(await trace(report))], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: "tpu-playground-trace.json" });
    a.click();
    URL.revokeObjectURL(a.href);
  });
  show();
  target.replaceChildren(
    el(
      "p",
      { className: "summary" },
      `Simulated on a ${report.device.chip_name} (${report.device.slice}): ${us(total)} in all. Simulated time, not measured. Scroll to zoom, drag to pan.`,
    ),
    el(
      "p",
      { className: "timeline-tools" },
      button("Zoom in", () => zoom(0.5)),
      " ",
      button("Zoom out", () => zoom(2)),
      " ",
      button("Reset", () => zoom(total / view.width)),
      " ",
      download,
      " ",
      range,
    ),
    el("div", { className: "timeline-view" }, labels, svg),
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
    el("h3", {}, "Alignment hints"),
    d.hints.length
      ? el("ul", {}, ...d.hints.map(({ hint, kernels: n }) => el("li", {}, `${hint} (${n} kernel${n > 1 ? "s" : ""})`)))
      : el("p", {}, "Every matmul dimension fills the MXU."),
  );
}

export interface ModeResult {
  mode: EagerMode;
  report: Report;
  elapsedMs: number;
}

/** The same program under each eager mode, side by side. */
export function renderModes(target: HTMLElement, results: ModeResult[]) {
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
      "The program run in Debug, Strict and Fused mode, one after another. Simulated time is the chosen TPU's; measured time is this browser's wall clock.",
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
          ...["mode", "ops dispatched", "kernels", "compilation cache", "syncs", "simulated on TPU", "measured here", "output"].map(
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
