// The Torus panel: the run's slice drawn chip by chip (a 3-D slice as its
// layers side by side), and for each collective the bytes every link carried
// (thicker and darker is more), animated step by step from the simulation's
// schedule: the collectives the ranks of a torch.distributed program called
// (with each rank's line, or what made them, such as a DDP bucket), then those
// the program simulated (torch_tpu.simulate_collective). All of it is
// simulated. The chips' coordinates, the links (with their wraparound) and
// each link's bytes come in the Report; this file only places and draws them.
// The Sharding panel opens one of the ranks' collectives here (`playCollective`).
import type { CollectiveStep, LinkTraffic, Report, Simulation, SliceLayout } from "tpu-playground/report";
import { svg as svgEl } from "./dom";

const MAX_CHIPS = 1024;

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
    const title = svgEl("title");
    title.textContent = `chip ${c} (${xyz.join(", ")})`;
    chip.append(title);
    svg.append(chip);
  });
  return svg;
}

function us(v: number): string {
  return v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`;
}

/** One collective the panel can show: what it is, and what to draw. */
interface Shown {
  label: string;
  /** What the caption says of it besides its simulation. */
  about: string;
  layout: SliceLayout;
  traffic: LinkTraffic[] | null;
  simulation: Simulation | null;
}

/** The collectives between the ranks of a run, as the Report lists them. */
function worldCollectives(report: Report, layout: SliceLayout): Shown[] {
  return (report.world?.collectives ?? []).map((c, i) => {
    const lines = [...new Set(c.arrivals.flatMap((a) => (a.line === null ? [] : [a.line])))];
    const where = lines.length ? ` (line${lines.length > 1 ? "s" : ""} ${lines.join(", ")})` : "";
    const op = c.reduce_op ? ` ${c.reduce_op}` : "";
    const waits = c.arrivals
      .map((a) => `rank ${a.rank} ${a.arrived ? `from line ${a.line ?? "?"}${a.wait_us > 0 ? `, waited ${us(a.wait_us)}` : ""}` : "never arrived"}`)
      .join("; ");
    return {
      label: `#${i + 1} ${c.name}${op} of ${c.bytes} B, ranks ${c.ranks.join(",")}${where}`,
      about:
        `${c.name}${op} of ${c.dtype} [${c.shape.join(", ")}] (${c.bytes} B) in group ${c.group}${c.seq !== null ? `, collective #${c.seq}` : ""}` +
        `${c.cause ? `, made by ${c.cause}` : ""}${c.complete ? "" : ", never completed"}: ${waits}. ` +
        `${us(c.simulated_us)} simulated${c.start_us !== null ? ` from ${us(c.start_us)}` : ""}.`,
      layout,
      traffic: c.traffic.length === layout.links.length ? c.traffic : null,
      simulation: c.simulation,
    };
  });
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
  const entries: Shown[] = [
    ...(report.device ? worldCollectives(report, report.device.layout) : []),
    ...records.map((r) => ({
      label: `${r.simulation.kind} of ${r.simulation.bytes} B over axes ${r.simulation.axes.join(",")}${r.line !== null ? ` (line ${r.line})` : ""}`,
      about: "",
      layout: r.layout,
      traffic: r.traffic,
      simulation: r.simulation,
    })),
  ];
  const note = document.createElement("p");
  note.className = "summary";
  if (!entries.length) {
    note.textContent = `The run's slice: ${slice} (${chips} chip${chips > 1 ? "s" : ""}). No collectives were simulated; torch_tpu.simulate_collective(...) or torch.distributed with several ranks draws its traffic here.`;
    target.replaceChildren(note, drawing(layout, null, 0, null));
    return;
  }
  const select = document.createElement("select");
  select.setAttribute("aria-label", "collective");
  select.append(...entries.map((entry, i) => new Option(entry.label, String(i))));
  const play = document.createElement("button");
  play.type = "button";
  play.className = "secondary play";
  play.textContent = "Play steps";
  const stage = document.createElement("div");
  const steps = (): CollectiveStep[] => entries[Number(select.value)].simulation?.steps ?? [];
  const show = (step: number | null) => {
    const entry = entries[Number(select.value)];
    const s = entry.simulation;
    const active = step === null || !s ? null : new Set(s.steps[step].axes.map((a) => a.axis));
    const simulated = s
      ? `${s.kind}: ${us(s.simulated_us)} simulated (${s.latency_bound ? "latency-bound" : "bandwidth-bound"}), busiest link ${(s.max_link_bytes / 2 ** 20).toFixed(2)} MiB, ${s.steps.length} steps${s.formula_us !== null ? `; the scaling book's formula: ${us(s.formula_us)}` : ""}. Links are drawn by the bytes they carried.`
      : "No link traffic was simulated for it.";
    note.textContent =
      step === null || !s
        ? `${entry.about ? `${entry.about} ` : ""}${simulated}`
        : `step ${step + 1} of ${s.steps.length}: starts at ${us(s.steps[step].start_us)}, lasts ${us(s.steps[step].duration_us)}, on axes ${[...active!].join(", ")} (simulated)`;
    stage.replaceChildren(drawing(entry.layout, entry.traffic, s?.max_link_bytes ?? 0, active));
  };
  let timer: number | undefined;
  play.addEventListener("click", () => {
    window.clearInterval(timer);
    const count = steps().length;
    let i = 0;
    timer = window.setInterval(() => {
      if (i >= count) {
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
    play.disabled = steps().length === 0;
  });
  play.disabled = steps().length === 0;
  target.replaceChildren(select, " ", play, note, stage);
  show(null);
}

/**
 * Shows collective `index` of the drawn list (the ranks' own collectives come
 * first, in `world.collectives` order) and plays its steps, as picking it and
 * pressing Play would. The Sharding panel links here. False if there is none.
 */
export function playCollective(target: HTMLElement, index: number): boolean {
  const select = target.querySelector<HTMLSelectElement>("select[aria-label=collective]");
  if (!select || index < 0 || index >= select.options.length) return false;
  select.value = String(index);
  select.dispatchEvent(new Event("change"));
  const play = target.querySelector<HTMLButtonElement>("button.play");
  if (play && !play.disabled) play.click();
  return true;
}
