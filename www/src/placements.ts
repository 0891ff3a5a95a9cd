// A DTensor's placements as the Sharding panel writes them: PyTorch's own
// reprs, as the Report carries them (`(Shard(dim=0), Replicate())`), and the
// scaling book's named-axis notation (https://jax-ml.github.io/scaling-book/sharding/):
// the tensor's dims are the letters I, J, K, ..., a dim sharded over mesh
// dimensions carries them as a subscript in mesh order (`I_dp`, `I_{dp,tp}`:
// split over dp first, then each piece over tp), and mesh dimensions holding
// partial sums are written as the book writes unreduced axes, `{U_tp}`. Mesh
// dimensions without names are called mesh0, mesh1, ... This is notation
// only: the shards themselves (shapes, offsets) come from the Report.
import type { MeshReport } from "tpu-playground/report";

/** One placement, read from its PyTorch repr. */
export type Placement =
  | { kind: "shard"; dim: number }
  | { kind: "replicate" }
  | { kind: "partial"; op: string }
  | { kind: "other"; text: string };

/** Reads `Shard(dim=0)`, `Replicate()`, `Partial(sum)` (and `_StridedShard(dim=0, ...)`
 * as a shard of its dim); a negative dim counts from the end, as PyTorch's does. */
export function parsePlacement(text: string, ndim: number): Placement {
  const shard = /Shard\(dim=(-?\d+)/.exec(text);
  if (shard) {
    const dim = Number(shard[1]);
    return { kind: "shard", dim: dim < 0 ? dim + ndim : dim };
  }
  if (text === "Replicate()") return { kind: "replicate" };
  const partial = /^Partial\((\w+)\)$/.exec(text);
  if (partial) return { kind: "partial", op: partial[1] };
  return { kind: "other", text };
}

/** A mesh dimension's name: the program's, else `mesh<i>`. */
export function meshDimName(mesh: MeshReport, i: number): string {
  return mesh.dim_names?.[i] ?? `mesh${i}`;
}

/** PyTorch's notation: the placements tuple as `DTensor.placements` prints it. */
export function pytorchNotation(placements: string[]): string {
  return placements.length === 1 ? `(${placements[0]},)` : `(${placements.join(", ")})`;
}

const LETTERS = "IJKLMNOPQRSTUVWXYZ";

/** The letter the scaling book would give a tensor's dim `d`. */
export function dimLetter(d: number): string {
  return d < LETTERS.length ? LETTERS[d] : `D${d}`;
}

/** The scaling book's notation, as text (`w[I_dp, J] {U_tp}`) and as HTML
 * with real subscripts. */
export function bookNotation(
  name: string,
  ndim: number,
  placements: string[],
  mesh: MeshReport,
): { text: string; node: HTMLElement } {
  const parsed = placements.map((p) => parsePlacement(p, ndim));
  const axes = (dims: number[]) => dims.map((i) => meshDimName(mesh, i));
  const node = document.createElement("span");
  node.className = "notation-book";
  let text = `${name}[`;
  node.append(`${name}[`);
  const sub = (names: string[]) => {
    const s = document.createElement("sub");
    s.textContent = names.join(",");
    return s;
  };
  const subscriptText = (names: string[]) => (names.length === 1 ? `_${names[0]}` : `_{${names.join(",")}}`);
  for (let d = 0; d < ndim; d++) {
    if (d > 0) {
      text += ", ";
      node.append(", ");
    }
    const over = axes(parsed.flatMap((p, i) => (p.kind === "shard" && p.dim === d ? [i] : [])));
    text += dimLetter(d) + (over.length ? subscriptText(over) : "");
    node.append(dimLetter(d), ...(over.length ? [sub(over)] : []));
  }
  text += "]";
  node.append("]");
  const unreduced = axes(parsed.flatMap((p, i) => (p.kind === "partial" ? [i] : [])));
  if (unreduced.length) {
    text += ` {U${subscriptText(unreduced)}}`;
    node.append(" {U", sub(unreduced), "}");
  }
  const unknown = parsed.filter((p) => p.kind === "other");
  if (unknown.length) {
    // A placement the book has no notation for is named as PyTorch names it.
    const rest = ` (and ${unknown.map((p) => (p as { text: string }).text).join(", ")})`;
    text += rest;
    node.append(rest);
  }
  return { text, node };
}
