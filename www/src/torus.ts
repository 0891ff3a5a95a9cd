// The Torus panel: the run's slice drawn chip by chip (a 3-D slice as its
// layers side by side), and for each collective the bytes every link carried
// (thicker and darker is more), animated step by step from the simulation's
// schedule: the collectives the ranks of a torch.distributed program called
// (with each rank's line, or what made them, such as a DDP bucket), then those
// the program simulated (torch_tpu.simulate_collective). All of it is
// simulated. The chips' coordinates, the links (with their wraparound) and
// each link's bytes come in the Report; this file only places and draws them.
// The Sharding panel opens one of the ranks' collectives here (`playCollective`).
import type { CollectiveStep, CommArrival, LinkTraffic, Report, Simulation, SliceLayout } from "tpu-playground/report";
import { bytesText, svg as svgEl, us } from "./dom";

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
  ranks: Map<number, number>,
): SVGElement {
  const dims = layout.dims;
  const layers = dims.length === 3 ? dims[0] : 1;
  const cols = dims[dims.length - 1];
  const rows = dims.length === 1 ? 1 : dims[dims.length === 3 ? 1 : 0];
  const width = 30 + layers * (cols * 46 + 46);
  const height = 36 + rows * 46;
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
    const rank = ranks.get(c);
    const title = svgEl("title");
    title.textContent = `chip ${c} (${xyz.join(", ")})${rank !== undefined ? `: rank ${rank}` : ""}`;
    chip.append(title);
    svg.append(chip);
    // Each chip is labelled with its coordinates, and the rank it runs.
    const coordinates = svgEl("text", { x, y: y + 17, class: "chip-label" });
    coordinates.textContent = xyz.join(",");
    svg.append(coordinates);
    if (rank !== undefined) {
      const r = svgEl("text", { x, y: y + 3, class: "chip-rank" });
      r.textContent = `r${rank}`;
      svg.append(r);
    }
  });
  return svg;
}

/** One collective the panel can show: what it is, and what to draw. */
interface Shown {
  label: string;
  /** What the caption says of it besides its simulation. */
  about: string;
  layout: SliceLayout;
  traffic: LinkTraffic[] | null;
  simulation: Simulation | null;
  /** The function the program called, where it is not the simulated kind
   * (a broadcast is simulated as an all-gather's traffic). */
  called?: string;
}

/** Ranks `0,2` and their lines `16` (or `16, 18`), as a label says them. */
function ranksAt(arrivals: CommArrival[]): string {
  const lines = [...new Set(arrivals.flatMap((a) => (a.line === null ? [] : [a.line])))];
  const ranks = arrivals.map((a) => a.rank).join(",");
  return `rank${arrivals.length > 1 ? "s" : ""} ${ranks}${lines.length ? `, line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}` : ""}`;
}

/** The collectives between the ranks of a run, as the Report lists them:
 * what each rank called, and whether it ran. One that never ran (a member
 * never came, or the members called different collectives) says so and
 * draws no traffic: the Report has none for it. */
function worldCollectives(report: Report, layout: SliceLayout): Shown[] {
  return (report.world?.collectives ?? []).map((c, i) => {
    const op = c.reduce_op ? ` ${c.reduce_op}` : "";
    const came = c.arrivals.filter((a) => a.arrived);
    const absent = c.arrivals.filter((a) => !a.arrived);
    let label: string;
    if (c.complete) {
      label = `#${i + 1} ${c.name}${op} of ${bytesText(c.bytes)}, ${ranksAt(c.arrivals)}`;
    } else {
      // Group the members by the call each made (the first word of it).
      const calls = new Map<string, CommArrival[]>();
      for (const a of came) {
        const name = a.called?.split(" ")[0] ?? c.name;
        calls.set(name, [...(calls.get(name) ?? []), a]);
      }
      const called = [...calls].map(([name, who]) => `${name} (${ranksAt(who)})`).join(" against ");
      const missing = absent.length ? `${called ? "; " : ""}${absent.length > 1 ? "ranks" : "rank"} ${absent.map((a) => a.rank).join(",")} never called it` : "";
      label = `#${i + 1} never ran: ${called}${missing}`;
    }
    const waits = c.arrivals
      .map((a) =>
        a.arrived
          ? `rank ${a.rank} called ${a.called ?? c.name} at line ${a.line ?? "?"}${a.wait_us > 0 ? `, waited ${us(a.wait_us)}` : ""}`
          : `rank ${a.rank} never called it`,
      )
      .join("; ");
    const ran = c.complete
      ? `${us(c.simulated_us)} simulated${c.start_us !== null ? ` from ${us(c.start_us)}` : ""}.`
      : `It never ran${c.mismatch ? `: ${c.mismatch}` : ""}, so no link carried anything.`;
    return {
      label,
      about:
        (c.complete || c.seq === null
          ? `${c.name}${op} of ${c.dtype} [${c.shape.join(", ")}] (${bytesText(c.bytes)}) in group ${c.group}${c.seq !== null ? `, collective #${c.seq}` : ""}`
          : `Collective #${c.seq} of group ${c.group}`) +
        `${c.cause ? `, made by ${c.cause}` : ""}: ${waits}. ${ran}`,
      layout,
      traffic: c.traffic.length === layout.links.length ? c.traffic : null,
      simulation: c.simulation,
      called: c.name,
    };
  });
}

/** Whether `all_reduce` (as called) and `all-reduce` (as simulated) name the same collective. */
const sameName = (called: string, kind: string) =>
  called.replace(/_into_tensor$|_tensor$/, "").replace(/_/g, "-") === kind || called === "send/recv";

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
  // Which rank runs on which chip (the ranks' world runs on the device's layout).
  const ranks = new Map((report.world?.ranks ?? []).map((r) => [r.chip, r.rank] as [number, number]));
  const entries: Shown[] = [
    ...(report.device ? worldCollectives(report, report.device.layout) : []),
    ...records.map((r) => ({
      label: `${r.simulation.kind} of ${bytesText(r.simulation.bytes)} over axes ${r.simulation.axes.join(",")}${r.line !== null ? ` (line ${r.line})` : ""}`,
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
    target.replaceChildren(note, drawing(layout, null, 0, null, ranks));
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
    const kind = entry.called && !sameName(entry.called, s?.kind ?? "") ? `${entry.called}, simulated as the ${s?.kind} it moves as many bytes as` : s?.kind;
    const simulated = s
      ? `${kind}: ${us(s.simulated_us)} simulated (${s.latency_bound ? "latency-bound" : "bandwidth-bound"}), busiest link ${bytesText(s.max_link_bytes)}, ${s.steps.length} steps${s.formula_us !== null ? `; the scaling book's formula: ${us(s.formula_us)}` : ""}. Links are drawn by the bytes they carried.`
      : "";
    note.textContent =
      step === null || !s
        ? `${entry.about ? `${entry.about} ` : ""}${simulated}`
        : `step ${step + 1} of ${s.steps.length}: starts at ${us(s.steps[step].start_us)}, lasts ${us(s.steps[step].duration_us)}, on axes ${[...active!].join(", ")} (simulated)`;
    stage.replaceChildren(drawing(entry.layout, entry.traffic, s?.max_link_bytes ?? 0, active, ranks));
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
