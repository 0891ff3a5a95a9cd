// The Sharding panel: the run's DeviceMeshes on the slice (each mesh dimension
// with the torus axis it lies along), a DTensor picked by name and line drawn
// as its global shape cut into the blocks the ranks hold (in the style of
// JAX's `jax.debug.visualize_array_sharding`: each block labelled with its
// holders and their chips' torus coordinates), its placements in PyTorch's
// and the scaling book's notation, the bytes each chip holds of it, and the
// collectives between the ranks with their lines and causes, each linked to
// the Torus and Timeline panels, and for FSDP runs the memory each chip held
// phase by phase (memory.ts). The blocks are the Report's own offsets and
// local shapes (one entry per rank per tensor); this file only lays them out.
// It is loaded on demand (main.ts imports it dynamically), so the page's main
// chunk does not carry it.
import type { DistCollective, MeshReport, Report, ShardedTensor } from "tpu-playground/report";
import { bytesText, el, paginated, table, us } from "./dom";
import { bookNotation, dimLetter, meshDimName, parsePlacement, pytorchNotation } from "./placements";
import { renderMemory } from "./memory";

/** What the collectives list links to, in the other panels. */
export interface ShardingLinks {
  /** Opens the Torus panel on `world.collectives[index]` and plays its steps. */
  torus(index: number): void;
  /** Opens the Timeline on the simulated time of that collective. */
  timeline(collective: DistCollective): void;
}

/** One DTensor of the program: every rank's entry for it. */
interface TensorGroup {
  key: string;
  name: string;
  line: number;
  mesh: MeshReport;
  meshIndex: number;
  /** Rank 0's (or the first rank's) global shape, placements and dtype. */
  first: ShardedTensor;
  shards: ShardedTensor[];
}

function groups(report: Report): TensorGroup[] {
  const world = report.world!;
  const byKey = new Map<string, TensorGroup>();
  for (const t of world.dtensors) {
    const key = `${t.name}@${t.line}#${t.mesh}`;
    let g = byKey.get(key);
    if (!g) {
      g = { key, name: t.name, line: t.line, mesh: world.meshes[t.mesh], meshIndex: t.mesh, first: t, shards: [] };
      byKey.set(key, g);
    }
    g.shards.push(t);
  }
  const all = [...byKey.values()];
  for (const g of all) {
    g.shards.sort((a, b) => a.rank - b.rank);
    g.first = g.shards[0];
  }
  return all.sort((a, b) => a.line - b.line || a.name.localeCompare(b.name));
}

const shape = (dims: number[]) => `(${dims.join(", ")}${dims.length === 1 ? "," : ""})`;


/** Where a rank sits: its chip's torus coordinates, from the Report's layout. */
function chipOf(report: Report, rank: number): string {
  const chip = report.world?.ranks.find((r) => r.rank === rank)?.chip;
  const xyz = chip !== undefined ? report.device?.layout.chips[chip] : undefined;
  return xyz ? `(${xyz.join(",")})` : "?";
}

/** A rank's coordinate in the mesh (ranks are laid out row-major). */
function meshCoordinate(mesh: MeshReport, rank: number): number[] | null {
  let i = mesh.ranks.indexOf(rank);
  if (i < 0) return null;
  const coord: number[] = [];
  for (let d = mesh.shape.length - 1; d >= 0; d--) {
    coord.unshift(i % mesh.shape[d]);
    i = Math.floor(i / mesh.shape[d]);
  }
  return coord;
}

function holderLabel(report: Report, rank: number): string {
  return `rank ${rank} · chip ${chipOf(report, rank)}`;
}

/** A mesh: its dims with their names, sizes and torus axes, and its ranks in a grid. */
function renderMesh(report: Report, mesh: MeshReport, index: number): HTMLElement {
  const dims = mesh.shape.map((size, i) => {
    const axis = mesh.torus_axes[i];
    return `${meshDimName(mesh, i)} (${size}) ${axis ? `along torus axis ${axis}` : "across more than one torus axis"}`;
  });
  const cell = (rank: number) =>
    el("td", { className: "mesh-rank", title: `rank ${rank}, chip at torus coordinates ${chipOf(report, rank)}` }, holderLabel(report, rank));
  let grid: HTMLElement;
  if (mesh.shape.length <= 2) {
    const cols = mesh.shape.length === 2 ? mesh.shape[1] : mesh.shape[0] ?? 1;
    const rows = mesh.shape.length === 2 ? mesh.shape[0] : 1;
    const trs: HTMLElement[] = [];
    for (let r = 0; r < rows; r++) {
      const tds = mesh.ranks.slice(r * cols, (r + 1) * cols).map((rank) => {
        const td = cell(rank);
        td.dataset.rank = String(rank);
        return td;
      });
      trs.push(el("tr", {}, ...(mesh.shape.length === 2 ? [el("th", {}, `${meshDimName(mesh, 0)}=${r}`)] : []), ...tds));
    }
    const head =
      mesh.shape.length === 2
        ? [el("tr", {}, el("th", {}, ""), ...Array.from({ length: cols }, (_, c) => el("th", {}, `${meshDimName(mesh, 1)}=${c}`)))]
        : [];
    grid = el("table", { className: "mesh-grid" }, el("tbody", {}, ...head, ...trs));
  } else {
    grid = el("p", {}, `ranks ${mesh.ranks.join(", ")} (row-major)`);
  }
  const box = el(
    "div",
    { className: "mesh" },
    el("p", {}, el("b", {}, `mesh ${index}`), ` ${shape(mesh.shape)}: ${dims.join("; ")}`),
    grid,
  );
  box.dataset.mesh = String(index);
  return box;
}

/** The tensor dims the grid draws: rows and columns (or one row for 1-D). For
 * more than two dims: the sharded ones first, then the last ones. */
function drawnDims(g: TensorGroup): number[] {
  const n = g.first.shape.length;
  if (n <= 2) return [...Array(n).keys()];
  const sharded = [
    ...new Set(
      g.first.placements.flatMap((p) => {
        const parsed = parsePlacement(p, n);
        return parsed.kind === "shard" ? [parsed.dim] : [];
      }),
    ),
  ].sort((a, b) => a - b);
  const pick = sharded.slice(0, 2);
  for (let d = n - 1; pick.length < 2 && d >= 0; d--) if (!pick.includes(d)) pick.push(d);
  return pick.sort((a, b) => a - b);
}

interface Block {
  start: number[];
  end: number[];
  /** Holders grouped by their range in the dims not drawn (one group when those are whole). */
  holders: Map<string, number[]>;
}

/** The shard grid: the global tensor cut into the blocks the ranks hold. */
function renderGrid(report: Report, g: TensorGroup): HTMLElement {
  const dims = drawnDims(g);
  const globalShape = g.first.shape;
  const hidden = globalShape.map((_, d) => d).filter((d) => !dims.includes(d));
  const partial = g.first.placements.flatMap((p, i) => (parsePlacement(p, globalShape.length).kind === "partial" ? [i] : []));
  const empty: number[] = [];
  const blocks = new Map<string, Block>();
  for (const s of g.shards) {
    if (s.local_shape.some((n) => n === 0)) {
      empty.push(s.rank);
      continue;
    }
    const start = dims.map((d) => s.offsets[d]);
    const end = dims.map((d) => s.offsets[d] + s.local_shape[d]);
    const key = `${start}|${end}`;
    let b = blocks.get(key);
    if (!b) {
      b = { start, end, holders: new Map() };
      blocks.set(key, b);
    }
    const rest = hidden.map((d) => `${dimLetter(d)} ${s.offsets[d]}:${s.offsets[d] + s.local_shape[d]}`).join(", ");
    const whole = hidden.every((d) => s.local_shape[d] === globalShape[d]);
    const group = whole ? "" : rest;
    b.holders.set(group, [...(b.holders.get(group) ?? []), s.rank]);
  }
  // Cut points along each drawn dim: every block's edges.
  const cuts = dims.map((d, i) =>
    [...new Set([0, globalShape[d], ...[...blocks.values()].flatMap((b) => [b.start[i], b.end[i]])])].sort((a, b) => a - b),
  );
  const rowCuts = dims.length === 2 ? cuts[0] : [0, 1];
  const colCuts = dims.length === 2 ? cuts[1] : dims.length === 1 ? cuts[0] : [0, 1];
  const track = (c: number[]) =>
    c
      .slice(1)
      .map((v, i) => `minmax(min-content, ${Math.max(v - c[i], 1e-3)}fr)`)
      .join(" ");
  const grid = el("div", { className: "shard-grid", role: "img" });
  grid.setAttribute("aria-label", `${g.name} cut into ${blocks.size} blocks`);
  grid.style.gridTemplateColumns = track(colCuts);
  grid.style.gridTemplateRows = track(rowCuts);
  // A taller tensor is drawn taller, within bounds the labels fit in.
  const aspect = dims.length === 2 ? globalShape[dims[0]] / Math.max(globalShape[dims[1]], 1) : 0.2;
  grid.style.minHeight = `${Math.min(Math.max(aspect * 16, rowCuts.length * 3, 4), 18)}em`;
  const ordered = [...blocks.values()].sort((a, b) => (a.start[0] ?? 0) - (b.start[0] ?? 0) || (a.start[1] ?? 0) - (b.start[1] ?? 0));
  ordered.forEach((b, i) => {
    const rows = dims.length === 2 ? [b.start[0], b.end[0]] : [0, 1];
    const cols = dims.length === 2 ? [b.start[1], b.end[1]] : dims.length === 1 ? [b.start[0], b.end[0]] : [0, 1];
    const ranks = [...b.holders.values()].flat();
    const range = dims.length ? `[${dims.map((_, k) => `${b.start[k]}:${b.end[k]}`).join(", ")}]` : "the scalar";
    const lines = [...b.holders.entries()].flatMap(([rest, rs]) => [
      ...(rest ? [el("div", { className: "shard-rest" }, `${rest}:`)] : []),
      ...rs.map((r) => el("div", { className: "shard-holder" }, holderLabel(report, r))),
    ]);
    const block = el(
      "div",
      { className: `shard-block${partial.length ? " partial" : ""}` },
      el("div", { className: "shard-range" }, range),
      ...(partial.length ? [el("div", { className: "shard-partial" }, `partial sums over ${partial.map((p) => meshDimName(g.mesh, p)).join(", ")}`)] : []),
      ...lines,
    );
    block.style.gridRow = `${rowCuts.indexOf(rows[0]) + 1} / ${rowCuts.indexOf(rows[1]) + 1}`;
    block.style.gridColumn = `${colCuts.indexOf(cols[0]) + 1} / ${colCuts.indexOf(cols[1]) + 1}`;
    block.style.setProperty("--hue", String(Math.round((i * 360) / Math.max(ordered.length, 1) + 200) % 360));
    block.dataset.ranks = ranks.join(",");
    block.title = `${g.name}${range}: held by ${ranks.map((r) => holderLabel(report, r)).join("; ")}`;
    grid.append(block);
  });
  const drawn =
    dims.length === 2
      ? `rows: dim ${dims[0]} (${dimLetter(dims[0])}, ${globalShape[dims[0]]}); columns: dim ${dims[1]} (${dimLetter(dims[1])}, ${globalShape[dims[1]]})`
      : dims.length === 1
        ? `dim 0 (I, ${globalShape[0]}) from left to right`
        : "a scalar (0-D): one block";
  const notes = [drawn];
  if (hidden.length) {
    const whole = hidden.filter((d) => g.shards.every((s) => s.local_shape[d] === globalShape[d]));
    notes.push(
      `dims not drawn: ${hidden.map((d) => `${d} (${dimLetter(d)}, ${globalShape[d]})`).join(", ")}` +
        (whole.length === hidden.length ? ", whole in every block" : "; a block lists its holders by their range in them"),
    );
  }
  if (empty.length) notes.push(`ranks ${empty.join(", ")} hold an empty shard (torch.chunk left nothing for them)`);
  return el("div", {}, grid, el("p", { className: "hint" }, notes.join(". ") + "."));
}

/** One tensor: its notations, its grid, and the bytes each chip holds of it. */
function renderTensor(report: Report, g: TensorGroup): HTMLElement {
  const t = g.first;
  const book = bookNotation(g.name, t.shape.length, t.placements, g.mesh);
  const partial = t.placements.flatMap((p) => {
    const parsed = parsePlacement(p, t.shape.length);
    return parsed.kind === "partial" ? [parsed.op] : [];
  });
  const meaning = partial.length
    ? ` Partial: each holder has a partial value; the tensor is their ${[...new Set(partial)].join("/")} over the marked mesh dimensions (the book's "unreduced", {U}).`
    : "";
  const perChip = paginated(
    g.shards,
    (s) => {
      const coord = meshCoordinate(g.mesh, s.rank);
      return el(
        "tr",
        {},
        el("td", {}, String(s.rank)),
        el("td", {}, chipOf(report, s.rank)),
        el("td", {}, coord ? `(${coord.join(", ")})` : ""),
        el("td", {}, shape(s.local_shape)),
        el("td", {}, shape(s.offsets)),
        el("td", {}, bytesText(s.local_bytes)),
      );
    },
    (rows) => table("shard-bytes", ["rank", "chip", "mesh coordinate", "local shape", "offsets", "bytes on the chip"], rows),
    "ranks",
  );
  const missing = (report.world?.ranks ?? []).map((r) => r.rank).filter((r) => !g.shards.some((s) => s.rank === r));
  return el(
    "div",
    { className: "sharded-tensor" },
    el(
      "table",
      { className: "notations" },
      el(
        "tbody",
        {},
        el("tr", {}, el("th", {}, "PyTorch"), el("td", {}, el("code", { className: "notation-pytorch" }, pytorchNotation(t.placements)))),
        el("tr", {}, el("th", {}, "scaling book"), el("td", { title: book.text }, book.node)),
        el("tr", {}, el("th", {}, "global shape"), el("td", {}, `${shape(t.shape)} ${t.dtype}, on mesh ${g.meshIndex}`)),
      ),
    ),
    meaning ? el("p", { className: "hint" }, meaning.trim()) : "",
    renderGrid(report, g),
    el("h3", {}, "Bytes of it on each chip"),
    perChip,
    missing.length ? el("p", { className: "hint" }, `The Report has no entry for ranks ${missing.join(", ")} for this tensor.`) : "",
  );
}

/** The lines the members called a collective from. */
function linesOf(c: DistCollective): number[] {
  return [...new Set(c.arrivals.flatMap((a) => (a.line === null ? [] : [a.line])))].sort((a, b) => a - b);
}

/** Every collective between the ranks, with its line and cause, a page at a time. */
function renderCollectives(report: Report, links: ShardingLinks): HTMLElement {
  const all = (report.world?.collectives ?? []).map((c, index) => ({ c, index }));
  if (!all.length) return el("p", {}, "The ranks called no collectives.");
  const box = el("div");
  const lines = [...new Set(all.flatMap(({ c }) => linesOf(c)))].sort((a, b) => a - b);
  const filter = el("select", {}, new Option("every line", ""), ...lines.map((l) => new Option(`line ${l} (${all.filter(({ c }) => linesOf(c).includes(l)).length})`, String(l))));
  filter.setAttribute("aria-label", "collectives of which line");
  const button = (text: string, title: string, act: () => void) => {
    const b = el("button", { type: "button", className: "secondary", title }, text);
    b.addEventListener("click", act);
    return b;
  };
  const row = ({ c, index }: { c: DistCollective; index: number }) =>
    el(
      "tr",
      { className: "collective" },
      el("td", {}, String(index + 1)),
      el("td", { className: "collective-line" }, linesOf(c).join(", ")),
      el("td", { className: "collective-cause" }, c.cause ?? "called by the program"),
      el("td", { className: "collective-name" }, `${c.name}${c.reduce_op ? ` ${c.reduce_op}` : ""}, ${bytesText(c.bytes)}`),
      el("td", {}, c.ranks.join(",")),
      el("td", {}, `${us(c.simulated_us)}${c.start_us !== null ? ` at ${us(c.start_us)}` : ""}`),
      el(
        "td",
        { className: "collective-links" },
        button("torus", "Show it on the Torus panel, its link traffic played step by step", () => links.torus(index)),
        " ",
        button("timeline", "Show its simulated time on the Timeline", () => links.timeline(c)),
      ),
    );
  const show = () => {
    const line = filter.value === "" ? null : Number(filter.value);
    const shown = line === null ? all : all.filter(({ c }) => linesOf(c).includes(line));
    box.replaceChildren(
      paginated(
        shown,
        row,
        (rows) => table("sharding-collectives", ["#", "line", "cause", "collective, bytes", "ranks", "simulated", "show"], rows),
        "collectives",
      ),
    );
  };
  filter.addEventListener("change", show);
  show();
  return el("div", {}, el("p", {}, filter, ` ${all.length} collectives, in the order they started (simulated time).`), box);
}

export function renderSharding(target: HTMLElement, report: Report, links: ShardingLinks) {
  const world = report.world;
  if (!world || (!world.dtensors.length && !world.meshes.length && !world.collectives.length)) {
    target.replaceChildren(
      el("p", {}, "This run made no DeviceMesh or DTensor. Run a torch.distributed program with 2 ranks or more (the Chip panel's ranks, or one of the DTensor and FSDP2 examples) to see its sharding here."),
    );
    return;
  }
  const tensors = groups(report);
  const parts: (HTMLElement | string)[] = [
    el(
      "p",
      { className: "summary" },
      `${world.meshes.length} DeviceMesh${world.meshes.length === 1 ? "" : "es"}, ${tensors.length} DTensor${tensors.length === 1 ? "" : "s"} held when the run ended, ${world.collectives.length} collectives between ${world.nproc} ranks. Times are simulated.`,
    ),
    ...world.meshes.map((m, i) => renderMesh(report, m, i)),
  ];
  if (tensors.length) {
    const select = el("select", {}, ...tensors.map((g, i) => new Option(`${g.name} (line ${g.line}) ${shape(g.first.shape)} ${pytorchNotation(g.first.placements)}`, String(i))));
    select.setAttribute("aria-label", "tensor");
    const stage = el("div");
    const meshes = () => target.querySelectorAll<HTMLElement>(`.mesh[data-mesh="${tensors[Number(select.value)].meshIndex}"] .mesh-rank`);
    const show = () => {
      stage.replaceChildren(renderTensor(report, tensors[Number(select.value)]));
      // Hovering a block marks its holders in the mesh above.
      for (const block of stage.querySelectorAll<HTMLElement>(".shard-block")) {
        const ranks = (block.dataset.ranks ?? "").split(",");
        const mark = (on: boolean) => meshes().forEach((td) => td.classList.toggle("holds", on && ranks.includes(td.dataset.rank ?? "")));
        block.addEventListener("mouseenter", () => mark(true));
        block.addEventListener("mouseleave", () => mark(false));
      }
    };
    select.addEventListener("change", show);
    parts.push(el("h3", {}, "A tensor and its shards"), el("p", {}, select), stage);
    target.replaceChildren(...parts);
    show();
  } else {
    parts.push(el("p", {}, "No rank held a DTensor when the run ended."));
    target.replaceChildren(...parts);
  }
  target.append(el("h3", {}, "Collectives, with the line and what caused each"), renderCollectives(report, links));
  const memory = renderMemory(report);
  if (memory) target.append(memory);
}
