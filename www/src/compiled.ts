// The Compiled panel: each function or module given to torch.compile, as the
// Report's `compiled` records it. Per function: where torch.compile was
// called, its calls (and those run eagerly past the recompile limit), its
// fullgraph and dynamic settings and notes. Per compile (the first, then each
// recompile with Dynamo's reason): its guards, dynamic dimensions, the calls
// it served, its graph breaks with their lines, and its graphs, forward then
// backward: ops, kernels and host steps, input and output types, the
// StableHLO module, and the kernels its first call launched (the Report's
// `kernels` at the graph's `kernel_indices`); everything is read off the
// record as it is. It is loaded on demand (main.ts imports it
// dynamically), so the page's main chunk does not carry it.
import type { CompiledFunction, CompileRecord, DType, GraphRecord, KernelRecord, PaddingRecord, Report, TensorType } from "tpu-playground/report";
import { el, us } from "./dom";

/** What the panel links to elsewhere on the page. */
export interface CompiledLinks {
  /** Puts the editor's cursor on `line` and scrolls it into view. */
  line(line: number): void;
}

/** Kernel names a graph lists before saying how many more it launched. */
const KERNELS_SHOWN = 24;

const DTYPES: Record<DType, string> = {
  float32: "f32",
  float64: "f64",
  bfloat16: "bf16",
  float16: "f16",
  uint8: "u8",
  int32: "i32",
  int64: "i64",
  bool: "bool",
};

/** A graph's parameter or result as JAX writes it: `f32[16, 8]`. */
function typeText(t: TensorType): string {
  return `${DTYPES[t.dtype] ?? t.dtype}[${t.shape.join(", ")}]`;
}

const plural = (n: number, noun: string, nouns = `${noun}s`) => `${n} ${n === 1 ? noun : nouns}`;

/** A line number that puts the editor on that line when clicked. */
function lineLink(line: number, links: CompiledLinks): HTMLElement {
  const a = el("a", { href: "#", className: "line-link", title: `Show line ${line} in the editor` }, `line ${line}`);
  a.dataset.line = String(line);
  a.addEventListener("click", (e) => {
    e.preventDefault();
    links.line(line);
  });
  return a;
}

/** The kernels the graph's first call launched, in launch order. */
function graphKernels(report: Report, graph: GraphRecord): KernelRecord[] {
  return graph.kernel_indices.map((i) => report.kernels[i]).filter((k) => k !== undefined);
}

/** A button that copies `text`, saying whether it could. */
function copyButton(text: string, what: string): HTMLElement {
  const button = el("button", { type: "button", className: "secondary copy", title: `Copy ${what}` }, "copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "copied";
    } catch {
      button.textContent = "could not copy";
    }
    setTimeout(() => (button.textContent = "copy"), 1500);
  });
  return button;
}

function renderGraph(report: Report, graph: GraphRecord, title: string): HTMLElement {
  const kernels = graphKernels(report, graph);
  const types = (ts: TensorType[]) => (ts.length ? ts.map(typeText).join(", ") : "none");
  const names = kernels.slice(0, KERNELS_SHOWN).map((k) => el("code", {}, k.name));
  const more = kernels.length > KERNELS_SHOWN ? [` and ${kernels.length - KERNELS_SHOWN} more (the Kernels panel lists every launch)`] : [];
  const kernelList = kernels.length
    ? el("p", { className: "graph-kernels" }, "launched: ", ...names.flatMap((n, i) => (i ? [" ", n] : [n])), ...more)
    : el("p", { className: "graph-kernels hint" }, "launched no kernels of its own");
  const module = graph.stablehlo
    ? el(
        "details",
        { className: "stablehlo" },
        el("summary", {}, "StableHLO module"),
        el("p", {}, copyButton(graph.stablehlo, "the StableHLO module")),
        el("pre", { className: "stablehlo" }, graph.stablehlo),
      )
    : el("p", { className: "lowering-error" }, `Does not lower to StableHLO: ${graph.lowering_error ?? "no module in the Report"}`);
  return el(
    "div",
    { className: "graph" },
    el(
      "p",
      { className: "graph-head" },
      el("b", {}, title),
      ` · ${plural(graph.ops.length, "op")} · ${plural(graph.kernels, "kernel")} · ${plural(graph.host_steps, "host step")}`
        + (report.device ? ` · ${us(graph.simulated_us)} on a simulated ${report.device.chip_name}` : ""),
    ),
    el("p", { className: "graph-types" }, el("code", {}, `(${types(graph.inputs)}) -> (${types(graph.outputs)})`)),
    kernelList,
    module,
  );
}

/** The first line of Dynamo's reason (the rest is its explanation and hint). */
const firstLine = (text: string) => text.split("\n")[0];

/** How a dynamic compile's calls ran: padded to its bounds, or at their own sizes and why. */
function renderPadding(padding: PaddingRecord): HTMLElement {
  const waste = padding.padded_elements > 0 ? 1 - padding.exact_elements / padding.padded_elements : 0;
  const bounds = padding.bounds.map(([name, bound]) => `${name} ≤ ${bound}`).join(", ");
  const facts = [
    padding.padded_calls
      ? `${plural(padding.padded_calls, "call")} padded to ${bounds} (${plural(padding.plans, "padded plan")}, ${Math.round(waste * 100)}% of the padded elements are padding)`
      : "no call padded",
    ...(padding.exact_calls ? [`${plural(padding.exact_calls, "call")} at their own sizes`] : []),
  ];
  return el(
    "div",
    { className: "padding" },
    el("p", { className: "padding-facts" }, "bounded dynamic shapes: ", facts.join(" · ")),
    ...(padding.notes.length ? [el("ul", { className: "padding-notes" }, ...padding.notes.map((n) => el("li", {}, n)))] : []),
  );
}

function renderCompile(report: Report, record: CompileRecord, index: number, links: CompiledLinks): HTMLElement {
  const head = el(
    "h4",
    {},
    `compile #${index}: ${index === 0 ? "first compile" : "recompile"}`,
    ...(record.line !== null ? [", at the call on ", lineLink(record.line, links)] : []),
  );
  const facts = [
    `served ${plural(record.calls, "call")}`,
    record.dynamic_dims.length ? `dynamic: ${record.dynamic_dims.join(", ")}` : "static shapes",
    ...(record.backward.length || record.backward_calls ? [`${plural(record.backward_calls, "backward pass", "backward passes")} through it`] : []),
  ];
  const guards = el(
    "details",
    { className: "guards", open: record.guards.length <= 6 },
    el("summary", {}, plural(record.guards.length, "guard")),
    el("ul", {}, ...record.guards.map((g) => el("li", {}, el("code", {}, g)))),
  );
  const breaks = record.breaks.length
    ? el(
        "ul",
        { className: "breaks" },
        ...record.breaks.map((b) => {
          const item = el("li", { title: b.reason }, el("span", { className: "break-reason" }, firstLine(b.reason)));
          if (b.line !== null) item.append(", ", lineLink(b.line, links));
          return item;
        }),
      )
    : el("p", { className: "hint" }, "no graph breaks");
  const graphs = [
    ...record.graphs.map((g, i) => renderGraph(report, g, record.graphs.length > 1 ? `graph ${i + 1} of ${record.graphs.length}` : "graph")),
    ...record.backward.map((g, i) => renderGraph(report, g, record.backward.length > 1 ? `backward graph ${i + 1}` : "backward graph")),
  ];
  const section = el(
    "section",
    { className: "compile" },
    head,
    ...(record.reason !== null ? [el("p", { className: "recompile-reason" }, "because ", el("code", {}, record.reason))] : []),
    el("p", { className: "compile-facts" }, facts.join(" · ")),
    guards,
    ...(record.padding ? [renderPadding(record.padding)] : []),
    el("p", { className: "breaks-head" }, `${plural(record.breaks.length, "graph break")}${record.breaks.length ? ":" : ""}`),
    ...(record.breaks.length ? [breaks] : []),
    ...graphs,
  );
  section.dataset.compile = String(index);
  return section;
}

function renderFunction(report: Report, f: CompiledFunction, links: CompiledLinks): HTMLElement {
  const settings = `fullgraph=${f.fullgraph ? "True" : "False"}, dynamic=${f.dynamic === null ? "None" : f.dynamic ? "True" : "False"}`;
  const section = el(
    "section",
    { className: "compiled-function" },
    el(
      "h3",
      {},
      el("code", { className: "function-name" }, f.name),
      ...(f.line !== null ? [" · torch.compile at ", lineLink(f.line, links)] : []),
    ),
    el(
      "p",
      { className: "function-facts" },
      `${plural(f.calls, "call")}, ${f.eager_calls} run eagerly · ${plural(f.compiles.length, "compile")} · ${settings}`,
    ),
    ...f.notes.map((n) => el("p", { className: "compiled-note" }, n)),
    ...f.compiles.map((c, i) => renderCompile(report, c, i, links)),
  );
  section.dataset.name = f.name;
  return section;
}

export function renderCompiled(target: HTMLElement, report: Report, links: CompiledLinks) {
  if (!report.compiled.length) {
    target.replaceChildren(
      el("p", {}, "This run compiled nothing. Run a program that calls torch.compile, such as the torch.compile example, to see its graphs here."),
    );
    return;
  }
  target.replaceChildren(...report.compiled.map((f) => renderFunction(report, f, links)));
}
