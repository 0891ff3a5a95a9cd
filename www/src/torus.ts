// The Torus panel: the run's slice drawn chip by chip (a 3-D slice as its
// layers side by side), and for each collective the program simulated, the
// bytes every link carried (thicker and darker is more), animated step by step
// from the simulation's schedule. All of it is simulated.
import type { CollectiveRecord, Report } from "../../web/src/report";

const SVG = "http://www.w3.org/2000/svg";
const MAX_CHIPS = 1024;

function svgEl(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Chip `c`'s coordinates, row-major (the last axis fastest). */
function coords(c: number, dims: number[]): number[] {
  const out = new Array(dims.length).fill(0);
  for (let a = dims.length - 1; a >= 0; a--) {
    out[a] = c % dims[a];
    c = Math.floor(c / dims[a]);
  }
  return out;
}

/** Where chip coordinates sit in the drawing: 2-D as a grid, 3-D as layers. */
function place(xyz: number[], dims: number[]): [number, number] {
  const gap = 46;
  const cols = dims[dims.length - 1];
  const row = dims.length === 1 ? 0 : xyz[dims.length === 3 ? 1 : 0];
  const col = xyz[dims.length - 1];
  const layer = dims.length === 3 ? xyz[0] : 0;
  const layerWidth = cols * gap + gap;
  return [30 + layer * layerWidth + col * gap, 30 + row * gap];
}

function drawing(record: CollectiveRecord | null, dims: number[], wrap: boolean[], active: Set<number> | null): SVGElement {
  const chips = dims.reduce((a, b) => a * b, 1);
  const layers = dims.length === 3 ? dims[0] : 1;
  const cols = dims[dims.length - 1];
  const rows = dims.length === 1 ? 1 : dims[dims.length === 3 ? 1 : 0];
  const width = 30 + layers * (cols * 46 + 46);
  const height = 30 + rows * 46;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "torus", role: "img" });
  svg.setAttribute("aria-label", `a ${dims.join("x")} slice`);
  const bytes = record?.simulation.link_bytes ?? [];
  const max = Math.max(1, ...bytes);
  for (let c = 0; c < chips; c++) {
    const xyz = coords(c, dims);
    const [x, y] = place(xyz, dims);
    for (let axis = 0; axis < dims.length; axis++) {
      const n = dims[axis];
      const last = xyz[axis] + 1 === n;
      if (n < 2 || (last && !wrap[axis])) continue;
      const next = [...xyz];
      next[axis] = (xyz[axis] + 1) % n;
      const [x2, y2] = place(next, dims);
      const k = (c * dims.length + axis) * 2;
      const load = (bytes[k] ?? 0) + (bytes[k + 1] ?? 0);
      const busy = active === null ? load > 0 : active.has(axis);
      const attrs = {
        class: busy ? "link busy" : "link",
        "stroke-width": (1 + (5 * load) / (2 * max)).toFixed(2),
      };
      if (last) {
        // A wraparound link: a short stub leaving the edge.
        const dx = Math.sign(x2 - x) * -10 || 0;
        const dy = Math.sign(y2 - y) * -10 || 0;
        svg.append(svgEl("line", { x1: x, y1: y, x2: x - dx, y2: y - dy, ...attrs, class: attrs.class + " wrap" }));
      } else {
        svg.append(svgEl("line", { x1: x, y1: y, x2, y2, ...attrs }));
      }
    }
    const chip = svgEl("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 3, class: "chip" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = `chip ${c} (${xyz.join(", ")})`;
    chip.append(title);
    svg.append(chip);
  }
  return svg;
}

function us(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`;
}

export function renderTorus(target: HTMLElement, report: Report) {
  const records = report.collectives;
  const slice = report.device?.slice ?? "1";
  const dims = records.length ? records[records.length - 1].dims : slice.split("x").map(Number);
  const wrap = records.length ? records[records.length - 1].wrap : dims.map(() => false);
  const chips = dims.reduce((a, b) => a * b, 1);
  if (chips > MAX_CHIPS) {
    target.replaceChildren(`A ${dims.join("x")} slice has ${chips} chips: too many to draw here (up to ${MAX_CHIPS}).`);
    return;
  }
  const note = document.createElement("p");
  note.className = "summary";
  if (!records.length) {
    note.textContent = `The run's slice: ${slice} (${chips} chip${chips > 1 ? "s" : ""}). No collectives were simulated; torch_tpu.simulate_collective(...) draws its traffic here.`;
    target.replaceChildren(note, drawing(null, dims, wrap, null));
    return;
  }
  const select = document.createElement("select");
  select.setAttribute("aria-label", "collective");
  records.forEach((r, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = `${r.simulation.kind} of ${r.simulation.bytes} B over axes ${r.simulation.axes.join(",")}${r.line !== null ? ` (line ${r.line})` : ""}`;
    select.append(o);
  });
  const play = document.createElement("button");
  play.type = "button";
  play.className = "secondary";
  play.textContent = "Play steps";
  const stage = document.createElement("div");
  const show = (step: number | null) => {
    const r = records[Number(select.value)];
    const s = r.simulation;
    const active = step === null ? null : new Set(s.steps[step].axes.map((a) => a.axis));
    const caption =
      step === null
        ? `${s.kind}: ${us(s.simulated_us)} simulated (${s.latency_bound ? "latency-bound" : "bandwidth-bound"}), busiest link ${(s.max_link_bytes / 2 ** 20).toFixed(2)} MiB, ${s.steps.length} steps${s.formula_us !== null ? `; the scaling book's formula: ${us(s.formula_us)}` : ""}. Links are drawn by the bytes they carried.`
        : `step ${step + 1} of ${s.steps.length}: starts at ${us(s.steps[step].start_us)}, lasts ${us(s.steps[step].duration_us)}, on axes ${[...active!].join(", ")} (simulated)`;
    note.textContent = caption;
    stage.replaceChildren(drawing(r, r.dims, r.wrap, active));
  };
  let timer: number | undefined;
  play.addEventListener("click", () => {
    window.clearInterval(timer);
    const steps = records[Number(select.value)].simulation.steps.length;
    let i = 0;
    timer = window.setInterval(() => {
      if (i >= steps) {
        window.clearInterval(timer);
        show(null);
        return;
      }
      show(i++);
    }, 300);
  });
  select.addEventListener("change", () => {
    window.clearInterval(timer);
    show(null);
  });
  target.replaceChildren(select, " ", play, note, stage);
  show(null);
}
