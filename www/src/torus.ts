// The Torus panel: the run's slice drawn chip by chip (a 3-D slice as its
// layers side by side), and for each collective the program simulated, the
// bytes every link carried (thicker and darker is more), animated step by step
// from the simulation's schedule. All of it is simulated. The chips'
// coordinates, the links (with their wraparound) and each link's bytes come
// in the Report; this file only places and draws them.
import type { LinkTraffic, Report, SliceLayout } from "../../web/src/report";

const SVG = "http://www.w3.org/2000/svg";
const MAX_CHIPS = 1024;

function svgEl(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
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

/** Draws `layout`; `traffic` (one per link) thickens the links by their
 * bytes, and `active` marks the axes of the step being played. */
function drawing(
  layout: SliceLayout,
  traffic: LinkTraffic[] | null,
  maxLinkBytes: number,
  active: Set<number> | null,
): SVGElement {
  const dims = layout.dims;
  const layers = dims.length === 3 ? dims[0] : 1;
  const cols = dims[dims.length - 1];
  const rows = dims.length === 1 ? 1 : dims[dims.length === 3 ? 1 : 0];
  const width = 30 + layers * (cols * 46 + 46);
  const height = 30 + rows * 46;
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, class: "torus", role: "img" });
  svg.setAttribute("aria-label", `a ${dims.join("x")} slice`);
  const max = Math.max(1, maxLinkBytes);
  const at = layout.chips.map((xyz) => place(xyz, dims));
  // Links first, so the chips are drawn over their ends.
  layout.links.forEach((link, i) => {
    const [x, y] = at[link.from];
    const [x2, y2] = at[link.to];
    const load = traffic ? traffic[i].forward_bytes + traffic[i].backward_bytes : 0;
    const busy = active === null ? load > 0 : active.has(link.axis);
    const attrs = {
      class: busy ? "link busy" : "link",
      "stroke-width": (1 + (5 * load) / (2 * max)).toFixed(2),
    };
    if (link.wraparound) {
      // A wraparound link: a short stub leaving the edge.
      const dx = Math.sign(x2 - x) * -10 || 0;
      const dy = Math.sign(y2 - y) * -10 || 0;
      svg.append(svgEl("line", { x1: x, y1: y, x2: x - dx, y2: y - dy, ...attrs, class: attrs.class + " wrap" }));
    } else {
      svg.append(svgEl("line", { x1: x, y1: y, x2, y2, ...attrs }));
    }
  });
  layout.chips.forEach((xyz, c) => {
    const [x, y] = at[c];
    const chip = svgEl("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 3, class: "chip" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = `chip ${c} (${xyz.join(", ")})`;
    chip.append(title);
    svg.append(chip);
  });
  return svg;
}

function us(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`;
}

export function renderTorus(target: HTMLElement, report: Report) {
  const records = report.collectives;
  const last = records.length ? records[records.length - 1] : null;
  const slice = last?.slice ?? report.device?.slice ?? "1";
  const layout = last?.layout ?? report.device?.layout ?? { dims: [1], wrap: [false], chips: [[0]], links: [] };
  const chips = layout.chips.length;
  if (chips > MAX_CHIPS) {
    target.replaceChildren(`A ${slice} slice has ${chips} chips: too many to draw here (up to ${MAX_CHIPS}).`);
    return;
  }
  const note = document.createElement("p");
  note.className = "summary";
  if (!records.length) {
    note.textContent = `The run's slice: ${slice} (${chips} chip${chips > 1 ? "s" : ""}). No collectives were simulated; torch_tpu.simulate_collective(...) draws its traffic here.`;
    target.replaceChildren(note, drawing(layout, null, 0, null));
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
    stage.replaceChildren(drawing(r.layout, r.traffic, s.max_link_bytes, active));
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
