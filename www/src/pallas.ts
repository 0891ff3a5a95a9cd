// The Kernels panel's Pallas section: each `pallas_call` of the run with its
// grid (which axes run at once and which in order), its operands' blocks
// and index maps, the VMEM its blocks take double-buffered against the
// chip's, how its dot products fill the MXU, the block operations traced
// from the kernel, and the WGSL shader it became. All of it is the Report's
// `pallas` record; nothing is derived here.
import type { PallasOperand, PallasRecord, Report } from "tpu-playground/report";
import { bytesText, el, table } from "./dom";


function gridText(call: PallasRecord): string {
  const axes = call.grid.map((n, i) => `${"ijk"[i] ?? `g${i}`}=${n}${call.parallel[i] ? "" : " (in order)"}`);
  return axes.length ? `grid (${axes.join(", ")})` : "no grid (one block)";
}

function operandRow(o: PallasOperand): HTMLElement {
  const block = o.block.map((b) => (b === null ? "None" : String(b))).join(", ");
  return el(
    "tr",
    {},
    el("td", {}, o.role),
    el("td", {}, `(${o.shape.join(", ")}) ${o.dtype}`),
    el("td", {}, `(${block})`),
    el("td", {}, el("code", {}, o.index_map)),
    el("td", {}, bytesText(o.block_bytes)),
    el("td", {}, String(o.copies)),
  );
}

function callView(call: PallasRecord, report: Report): HTMLElement {
  const kernel = call.kernel !== null ? report.kernels[call.kernel] : undefined;
  const fits = call.mxu.map((f) =>
    el(
      "li",
      {},
      `dot${f.line !== null ? ` (line ${f.line})` : ""}: [${f.dims[0]}, ${f.dims[1]}] @ [${f.dims[1]}, ${f.dims[2]}] fills ${Math.round(f.utilization * 100)}% of the ${f.mxu_width}-wide MXU`,
      f.hints.length ? el("div", { className: "hint" }, f.hints.join("; ")) : "",
    ),
  );
  return el(
    "div",
    { className: "pallas-call" },
    el(
      "h4",
      {},
      `${call.name}${call.line !== null ? ` (line ${call.line})` : ""}: ${gridText(call)}`,
      kernel ? ` · kernel #${(call.kernel ?? 0) + 1} ${kernel.kernel_language}` : "",
    ),
    table(
      "pallas-operands",
      ["ref", "array", "block", "index map", "block bytes", "copies"],
      call.operands.map(operandRow),
    ),
    el(
      "p",
      { className: "pallas-vmem" },
      `VMEM: ${bytesText(call.vmem_bytes)} double-buffered, of the ${call.chip}'s ${bytesText(call.vmem_capacity)}`,
    ),
    fits.length ? el("ul", { className: "pallas-mxu" }, ...fits) : el("p", {}, "no dot products (VPU only)"),
    el("details", {}, el("summary", {}, "traced block operations"), el("pre", { className: "source" }, call.body)),
    call.source
      ? el("details", { className: "pallas-wgsl" }, el("summary", {}, "generated WGSL"), el("pre", { className: "source" }, call.source))
      : el("p", {}, "run by the CPU reference (no WGSL)"),
  );
}

/** The Pallas section, or nothing when the run made no `pallas_call`. */
export function renderPallas(report: Report): HTMLElement | "" {
  if (!report.pallas.length) {
    return "";
  }
  return el(
    "section",
    { className: "pallas" },
    el("h3", {}, `Pallas kernels (${report.pallas.length} calls)`),
    ...report.pallas.map((call) => callView(call, report)),
  );
}
