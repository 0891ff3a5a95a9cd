// The page: a CodeMirror editor, a Run button (and Ctrl/Cmd+Enter), and panes that
// render the Report returned by the wasm runtime. The page computes nothing itself;
// everything it shows comes from the Report.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { python } from "@codemirror/lang-python";
import init, { Playground } from "../pkg/tpu_wasm.js";
import { loadEntries, saveEntries } from "./cache";
import type { Report } from "./report";

const HELLO = `import torch
x = torch.ones(2, 3, device="tpu")
y = (x * 2 + 1) @ torch.ones(3, 2, device="tpu")
print(y)
print(y.sum().item())
`;

const runButton = document.querySelector<HTMLButtonElement>("#run")!;
const status = document.querySelector<HTMLElement>("#status")!;
const output = document.querySelector<HTMLElement>("#output")!;
const opsBody = document.querySelector<HTMLTableSectionElement>("#ops tbody")!;
const backendBadge = document.querySelector<HTMLElement>("#backend")!;

let playground: Playground | null = null;
let running = false;

const editor = new EditorView({
  doc: HELLO,
  parent: document.querySelector<HTMLElement>("#editor")!,
  extensions: [
    Prec.highest(
      keymap.of([
        { key: "Mod-Enter", run: () => { void run(); return true; } },
      ]),
    ),
    basicSetup,
    python(),
  ],
});

function jumpTo(line: number, column: number) {
  const doc = editor.state.doc;
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const pos = Math.min(l.from + Math.max(column - 1, 0), l.to);
  editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  editor.focus();
}

function renderReport(report: Report, elapsedMs: number) {
  output.replaceChildren(document.createTextNode(report.stdout));
  for (const d of report.diagnostics) {
    const block = document.createElement("span");
    block.className = "error";
    block.textContent = d.traceback + "\n";
    output.append(block);
    if (d.span) {
      const { line, column } = d.span;
      const link = document.createElement("a");
      link.href = "#";
      link.className = "error-location";
      link.textContent = `↪ line ${line}, column ${column}`;
      link.addEventListener("click", (e) => { e.preventDefault(); jumpTo(line, column); });
      output.append(link, "\n");
    }
  }
  opsBody.replaceChildren(
    ...report.ops.map((op, i) => {
      const row = document.createElement("tr");
      const cells = [
        String(i + 1),
        op.line?.toString() ?? "",
        op.name,
        `[${op.output_shape.join(", ")}]`,
        op.device,
        op.fallback ? `${op.backend} (fallback)` : op.backend,
        `${op.kernel} (${op.kernel_language})`,
      ];
      row.replaceChildren(...cells.map((text) => {
        const td = document.createElement("td");
        td.textContent = text;
        return td;
      }));
      if (op.fallback) row.title = op.fallback;
      return row;
    }),
  );
  const outcome = report.diagnostics.length ? report.diagnostics[0].kind : "ok";
  const c = report.cache;
  const cache = `cache ${c.hits} hits, ${c.persisted_hits} persisted, ${c.misses} misses`;
  status.textContent = `${outcome} · ${report.ops.length} ops · ${report.kernels.length} kernels · ${cache} · ${elapsedMs.toFixed(0)} ms measured in this browser`;
}

async function run() {
  if (!playground || running) return;
  running = true;
  runButton.disabled = true;
  status.textContent = "running…";
  const started = performance.now();
  try {
    const report = (await playground.run(editor.state.doc.toString())) as Report;
    renderReport(report, performance.now() - started);
    await saveEntries(playground.takeCacheEntries() as unknown[]);
  } catch (e) {
    output.textContent = `The playground failed: ${e}`;
    status.textContent = "failed";
  } finally {
    running = false;
    runButton.disabled = false;
  }
}

runButton.addEventListener("click", () => void run());

async function start() {
  try {
    await init();
    playground = await Playground.create("auto");
    playground.loadCache(await loadEntries());
    const reason = playground.fallbackReason;
    backendBadge.textContent = playground.backend === "wgpu" ? "WebGPU (wgpu)" : "CPU reference";
    backendBadge.title = reason ? `WebGPU unavailable: ${reason}` : "tpu tensors run as WGSL compute shaders";
    runButton.disabled = false;
    status.textContent = "ready";
  } catch (e) {
    status.textContent = `could not start: ${e}`;
  }
}

void start();
