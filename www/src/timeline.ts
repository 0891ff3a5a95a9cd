// The Timeline panel: the simulated lanes of a run (host dispatch, TensorCore,
// SparseCore, transfers, ICI) drawn against a time axis in simulated
// microseconds, with a legend, the names of events wide enough to read, zoom
// (wheel or buttons), pan (drag) and a download as Perfetto JSON (the
// runtime's own exporter, as `tpu run --trace` uses). All of it is simulated
// time, and labelled so. A run of several ranks has five lanes per rank, all
// on the rank's chip; they are drawn as a group under a header naming the
// rank and its chip's coordinates in the slice (from the Report's layout).
// The Sharding panel brings a collective's simulated time into view here
// (`focusTimeline`): the view zooms to it, a band marks it across the lanes,
// and its events on its members' ICI lanes are outlined.
import type { Report, TimelineLane } from "tpu-playground/report";
import { el, svg as svgEl, us } from "./dom";

const ROW = 24;
/** Event labels drawn at most, so that a 10,000-kernel run stays quick. */
const MAX_LABELS = 200;

/** What each lane shows, for the legend. */
const LANE_MEANING: Record<string, string> = {
  "host dispatch": "the host launching each kernel (the launch overhead)",
  TensorCore: "kernels running on the MXUs and VPU",
  SparseCore: "gathers and scatters on a SparseCore",
  "HBM ↔ host transfers": "values read back to the host at a sync",
  ICI: "collectives between chips",
  "this machine's GPU (measured)":
    "the kernels as this machine's GPU ran them, from timestamps around each (measured wall time on the GPU's own clock, from its first kernel: not simulated)",
};

function laneClass(name: string): string {
  return `lane-${name.split(/\W/)[0].toLowerCase()}`;
}

/** Each rendered timeline's way to bring a span of simulated time into view. */
const focusers = new WeakMap<HTMLElement, (startUs: number, durationUs: number, ranks: number[]) => void>();

/**
 * Zooms the timeline drawn in `target` to `durationUs` from `startUs`, marks
 * that span across the lanes, outlines the events there on the ICI lanes of
 * `ranks`, and scrolls the first of them into view. False if nothing is drawn.
 */
export function focusTimeline(target: HTMLElement, startUs: number, durationUs: number, ranks: number[]): boolean {
  const focus = focusers.get(target);
  if (!focus) return false;
  focus(startUs, durationUs, ranks);
  return true;
}

/** Round tick spacing: 1, 2 or 5 times a power of ten, about `count` ticks. */
function tickStep(width: number, count: number): number {
  const raw = width / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

export function renderTimeline(target: HTMLElement, report: Report, trace: (r: Report) => Promise<object>) {
  const timeline = report.timeline;
  if (!timeline || !report.device) {
    target.replaceChildren(el("p", {}, "No timeline: the run launched no kernels."));
    return;
  }
  // The measured lane (native runs only) may outlast the simulated chip.
  const end = timeline.lanes.reduce(
    (m, l) => l.events.reduce((n, e) => Math.max(n, e.start_us + e.duration_us), m),
    timeline.total_us,
  );
  const total = Math.max(end, 1e-9);
  const lanes = timeline.lanes;
  const layout = report.device.layout;
  // One row per lane, and a header row before each rank's group of lanes.
  const rows: (TimelineLane | string)[] = [];
  lanes.forEach((lane, i) => {
    if (lane.rank !== null && lane.rank !== lanes[i - 1]?.rank) {
      const xyz = lane.chip !== null ? layout.chips[lane.chip] : undefined;
      rows.push(`rank ${lane.rank} · chip ${xyz ? `(${xyz.join(",")})` : (lane.chip ?? "")}`);
    }
    rows.push(lane);
  });
  /** Each lane with the row it is drawn in. */
  const placed = rows.flatMap((row, at) => (typeof row === "string" ? [] : [{ lane: row, at }]));
  const height = rows.length * ROW;
  // Lane names beside an SVG whose x axis is simulated microseconds: zooming
  // and panning change its viewBox only; the axis and labels are redrawn.
  const names = el(
    "div",
    { className: "lanes" },
    ...rows.map((row) =>
      typeof row === "string"
        ? el("div", { className: "lane-group" }, row)
        : el("div", {}, row.chip === null || row.rank !== null ? row.name : `chip ${row.chip} · ${row.name}`),
    ),
    el("div", { className: "axis-unit" }, "simulated time"),
  );
  const svg = svgEl("svg", { class: "timeline", preserveAspectRatio: "none", height, role: "img", "aria-label": "simulated timeline" });
  /** The ICI lanes' event rectangles, which a focus outlines. */
  const ici: { rank: number | null; start: number; duration: number; rect: SVGRectElement }[] = [];
  placed.forEach(({ lane, at }) => {
    for (const e of lane.events) {
      const rect = svgEl("rect", {
        x: e.start_us,
        y: at * ROW + 4,
        width: Math.max(e.duration_us, 0),
        height: ROW - 8,
        class: laneClass(lane.name),
      });
      if (lane.name === "ICI") ici.push({ rank: lane.rank, start: e.start_us, duration: e.duration_us, rect });
      const title = svgEl("title");
      title.textContent = `${e.name}: ${us(e.duration_us)} at ${us(e.start_us)} (simulated)`;
      rect.append(title);
      svg.append(rect);
    }
  });
  const band = svgEl("rect", { class: "focus-band", y: 0, height, visibility: "hidden" });
  svg.append(band);
  const labels = el("div", { className: "event-labels" });
  const axis = el("div", { className: "axis", role: "presentation" });
  const plot = el("div", { className: "plot" }, svg, labels, axis);
  let view = { start: 0, width: total };
  const range = el("span", { className: "hint" });
  const drawAxis = () => {
    const step = tickStep(view.width, 6);
    const ticks: HTMLElement[] = [];
    for (let t = Math.ceil(view.start / step) * step; t <= view.start + view.width + 1e-12; t += step) {
      const tick = el("span", { className: "tick" }, us(t));
      tick.style.left = `${((t - view.start) / view.width) * 100}%`;
      ticks.push(tick);
    }
    axis.replaceChildren(...ticks);
    // An event's name is written on it when it is at least 6% of the view wide.
    const shown: HTMLElement[] = [];
    placed.forEach(({ lane, at }) => {
      for (const e of lane.events) {
        if (shown.length >= MAX_LABELS) return;
        const left = (e.start_us - view.start) / view.width;
        const width = e.duration_us / view.width;
        if (width < 0.06 || left + width < 0 || left > 1) continue;
        const label = el("span", { className: "event-label" }, e.name);
        label.style.left = `${Math.max(left, 0) * 100}%`;
        label.style.width = `${(Math.min(left + width, 1) - Math.max(left, 0)) * 100}%`;
        label.style.top = `${at * ROW + 4}px`;
        shown.push(label);
      }
    });
    labels.replaceChildren(...shown);
  };
  const show = () => {
    view.width = Math.min(Math.max(view.width, total / 1e6), total);
    view.start = Math.min(Math.max(view.start, 0), total - view.width);
    svg.setAttribute("viewBox", `${view.start} 0 ${view.width} ${height}`);
    range.textContent = `showing ${us(view.start)} to ${us(view.start + view.width)}`;
    drawAxis();
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
  focusers.set(target, (startUs, durationUs, ranks) => {
    // The span fills a fifth of the view, so what runs around it shows too.
    const width = Math.max(durationUs * 5, total / 1e5);
    view = { start: startUs + durationUs / 2 - width / 2, width };
    band.setAttribute("x", String(startUs));
    band.setAttribute("width", String(Math.max(durationUs, width / 200)));
    band.setAttribute("visibility", "visible");
    const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
    let first: SVGRectElement | null = null;
    for (const e of ici) {
      const on = e.rank !== null && ranks.includes(e.rank) && near(e.start, startUs) && near(e.duration, durationUs);
      e.rect.classList.toggle("focused", on);
      if (on) first ??= e.rect;
    }
    show();
    first?.scrollIntoView({ block: "nearest" });
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
  const legend = el(
    "ul",
    { className: "legend" },
    ...lanes
      .filter((lane, i) => lanes.findIndex((l) => l.name === lane.name) === i)
      .map((lane) =>
        el(
          "li",
          {},
          el("span", { className: `swatch ${laneClass(lane.name)}` }),
          el("b", {}, lane.name),
          `: ${LANE_MEANING[lane.name] ?? "simulated work"} (${lane.events.length} event${lane.events.length === 1 ? "" : "s"})`,
        ),
      ),
  );
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
    el("div", { className: "timeline-view" }, names, plot),
    legend,
  );
  show();
}
