// The Sharding panel's memory view: what each rank's chip held at each phase
// of an FSDP run (the Report's `world.memory`), by kind as PyTorch's
// FSDPMemTracker counts it: the rank's parameter shards, gradients, optimiser
// state, the whole parameters an all-gather made that FSDP holds at that
// moment, and every other live buffer. A stacked bar per phase for one rank,
// each rank's peak, and the points as a table. The bytes are the runtime's
// own (the tensors each rank holds), not a simulation; only their order in
// the run is shown, not simulated time.
import type { MemoryPoint, Report } from "tpu-playground/report";
import { bytesText, el, paginated, svg, table } from "./dom";

/** The kinds, in stacking order, with their labels and CSS classes. */
const KINDS = [
  ["parameters", "parameter shards"],
  ["gradients", "gradients"],
  ["optimizer_state", "optimiser state"],
  ["gathered_parameters", "gathered parameters"],
  ["other", "other (activations, temporaries)"],
] as const;

type Kind = (typeof KINDS)[number][0];

export function total(p: MemoryPoint): number {
  return KINDS.reduce((sum, [k]) => sum + p[k], 0);
}

function where(p: MemoryPoint): string {
  return `step ${p.step} · ${p.phase}${p.module ? ` of ${p.module}` : ""} · line ${p.line}`;
}

/** One rank's points as stacked bars, a bar per phase, steps marked. */
function chart(points: MemoryPoint[]): SVGSVGElement {
  const height = 160;
  const bar = Math.max(3, Math.min(16, Math.floor(720 / Math.max(1, points.length))));
  // Room after the last bar for its step's label.
  const width = bar * points.length + 60 + 40;
  const top = Math.max(1, ...points.map(total));
  const root = svg("svg", { class: "memory-chart", viewBox: `0 0 ${width} ${height + 20}`, width, height: height + 20, role: "img" });
  root.setAttribute("aria-label", `memory per phase, up to ${bytesText(top)}`);
  root.append(Object.assign(svg("text", { x: 0, y: 10, class: "axis" }), { textContent: bytesText(top) }));
  let step = -1;
  // A step's label is written where it starts, unless the last one written
  // is too close (narrow bars): overlapping labels would show the last step's
  // number over the others'.
  let labelEnd = -Infinity;
  points.forEach((p, i) => {
    const x = 56 + i * bar;
    if (p.step !== step) {
      step = p.step;
      root.append(svg("line", { x1: x - 1, x2: x - 1, y1: 0, y2: height, class: "step" }));
      const text = labelEnd === -Infinity ? `step ${step}` : String(step);
      if (x >= labelEnd) {
        root.append(Object.assign(svg("text", { x, y: height + 14, class: "axis" }), { textContent: text }));
        labelEnd = x + text.length * 6 + 4;
      }
    }
    const group = svg("g", { class: "memory-bar" });
    group.append(Object.assign(svg("title", {}), { textContent: `${where(p)}\n${KINDS.map(([k, label]) => `${label}: ${bytesText(p[k])}`).join("\n")}\ntotal: ${bytesText(total(p))}` }));
    let y = height;
    for (const [k] of KINDS) {
      const h = (p[k] / top) * height;
      if (h <= 0) continue;
      y -= h;
      group.append(svg("rect", { x, y, width: Math.max(1, bar - 1), height: h, class: `kind-${k}` }));
    }
    root.append(group);
  });
  return root;
}

function legend(): HTMLElement {
  return el(
    "p",
    { className: "memory-legend" },
    ...KINDS.map(([k, label]) => el("span", {}, el("span", { className: `swatch kind-${k}` }), ` ${label} `)),
  );
}

/** Each rank's highest total, where it happened, and each kind's own peak. */
function peaks(points: MemoryPoint[], ranks: number[]): HTMLElement {
  const rows = ranks.map((rank) => {
    const mine = points.filter((p) => p.rank === rank);
    const peak = mine.reduce((best, p) => (total(p) > total(best) ? p : best), mine[0]);
    const most = (k: Kind) => Math.max(...mine.map((p) => p[k]));
    return el(
      "tr",
      {},
      el("td", {}, String(rank)),
      el("td", {}, bytesText(total(peak))),
      el("td", {}, where(peak)),
      ...KINDS.map(([k]) => el("td", {}, bytesText(most(k)))),
    );
  });
  return table("memory-peaks", ["rank", "peak", "at", ...KINDS.map(([, label]) => `most ${label}`)], rows);
}

/** The memory view, or null when the run noted no memory (no FSDP). */
export function renderMemory(report: Report): HTMLElement | null {
  const points = report.world?.memory ?? [];
  if (!points.length) return null;
  const ranks = [...new Set(points.map((p) => p.rank))].sort((a, b) => a - b);
  const select = el("select", {}, ...ranks.map((r) => new Option(`rank ${r}`, String(r))));
  select.setAttribute("aria-label", "memory of rank");
  const stage = el("div", { className: "memory-rank" });
  const show = () => {
    const mine = points.filter((p) => p.rank === Number(select.value));
    const rows = paginated(
      mine,
      (p) =>
        el(
          "tr",
          {},
          el("td", {}, String(p.step)),
          el("td", {}, p.phase),
          el("td", {}, p.module ?? ""),
          el("td", {}, String(p.line)),
          ...KINDS.map(([k]) => el("td", {}, bytesText(p[k]))),
          el("td", {}, bytesText(total(p))),
        ),
      (trs) => table("memory-points", ["step", "phase", "module", "line", ...KINDS.map(([, label]) => label), "total"], trs),
      "phases",
    );
    stage.replaceChildren(chart(mine), legend(), rows);
  };
  select.addEventListener("change", show);
  show();
  const dropped = report.world?.memory_dropped ?? 0;
  return el(
    "section",
    { className: "memory" },
    el("h3", {}, "Memory per chip over the run"),
    el(
      "p",
      {},
      "What each rank's chip held at each phase of FSDP (before the root's forward, after each group's all-gather and forward, at backward start and end, after each reduce-scatter, after each optimiser step), by kind as PyTorch's FSDPMemTracker counts it. Bytes of the tensors the rank holds (each storage once), not a simulation; gathered parameters count while FSDP holds them, as PyTorch frees them at reshard.",
    ),
    peaks(points, ranks),
    el("p", {}, select),
    stage,
    ...(dropped ? [el("p", {}, `${dropped} later phases were not kept (the first 1000 per rank are).`)] : []),
  );
}
