// The page: a CodeMirror editor, Run (and Ctrl/Cmd+Enter) and Stop (Escape),
// and panels that render the Report the runtime returns. The runtime is the
// npm package's client (web/src/index.ts): a Web Worker that Stop terminates
// and replaces. The page computes nothing itself; everything it shows comes
// from the Report.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { python } from "@codemirror/lang-python";
import { createPlayground, StoppedError, type Playground } from "../../web/src/index";
import type { ChipPreset } from "../../web/src/protocol";
import type { EagerMode, Report } from "../../web/src/report";
import {
  MAX_ROWS,
  type ModeResult,
  renderChip,
  renderChipSpecs,
  renderKernels,
  renderModes,
  renderTimeline,
} from "./panels";
import { renderTorus } from "./torus";
import { EXAMPLES } from "./examples";
import { loadDraft, saveDraft, shareUrl, sharedProgram } from "./share";

const runButton = document.querySelector<HTMLButtonElement>("#run")!;
const stopButton = document.querySelector<HTMLButtonElement>("#stop")!;
const modeSelect = document.querySelector<HTMLSelectElement>("#mode")!;
const compareButton = document.querySelector<HTMLButtonElement>("#compare")!;
const status = document.querySelector<HTMLElement>("#status")!;
const output = document.querySelector<HTMLElement>("#output")!;
const opsBody = document.querySelector<HTMLTableSectionElement>("#ops tbody")!;
const backendBadge = document.querySelector<HTMLElement>("#backend")!;

let playground: Playground | null = null;
/** Whether a run (or a comparison of modes) is in flight. */
let running = false;

const editor = new EditorView({
  doc: loadDraft() ?? EXAMPLES[0].source,
  parent: document.querySelector<HTMLElement>("#editor")!,
  extensions: [
    Prec.highest(
      keymap.of([
        { key: "Mod-Enter", run: () => { void run(); return true; } },
        { key: "Escape", run: () => { if (!running) return false; void stop(); return true; } },
      ]),
    ),
    basicSetup,
    python(),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) saveDraft(update.state.doc.toString());
    }),
  ],
});

function setProgram(source: string) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: source } });
}

const examples = document.querySelector<HTMLSelectElement>("#examples")!;
examples.append(
  ...EXAMPLES.map((e) => {
    const option = document.createElement("option");
    option.value = e.id;
    option.textContent = e.title;
    return option;
  }),
);
examples.addEventListener("change", () => {
  const example = EXAMPLES.find((e) => e.id === examples.value);
  if (example) setProgram(example.source);
  examples.value = "";
});

const shareButton = document.querySelector<HTMLButtonElement>("#share")!;
shareButton.addEventListener("click", async () => {
  const url = await shareUrl(editor.state.doc.toString());
  history.replaceState(null, "", url);
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = "link copied";
  } catch {
    status.textContent = "link in the address bar";
  }
});

void sharedProgram().then((shared) => {
  if (shared !== null) setProgram(shared);
});

const themeButton = document.querySelector<HTMLButtonElement>("#theme")!;
const THEMES = ["system", "light", "dark"] as const;
function applyTheme(theme: (typeof THEMES)[number]) {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  themeButton.textContent = `theme: ${theme}`;
  try {
    localStorage.setItem("tpu-playground:theme", theme);
  } catch {
    // The choice lasts for this visit only.
  }
}
themeButton.addEventListener("click", () => {
  const now = (document.documentElement.dataset.theme ?? "system") as (typeof THEMES)[number];
  applyTheme(THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
});
applyTheme(((): (typeof THEMES)[number] => {
  try {
    const saved = localStorage.getItem("tpu-playground:theme");
    return (THEMES as readonly string[]).includes(saved ?? "") ? (saved as (typeof THEMES)[number]) : "system";
  } catch {
    return "system";
  }
})());

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
    ...report.ops.slice(0, MAX_ROWS).map((op, i) => {
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
  renderKernels(document.querySelector<HTMLElement>("#panel-kernels")!, report);
  renderTimeline(document.querySelector<HTMLElement>("#panel-timeline")!, report, (r) => {
    if (!playground) return Promise.reject(new Error("the runtime is restarting"));
    return playground.chromeTrace(r);
  });
  renderChip(document.querySelector<HTMLElement>("#chip-run")!, report);
  renderTorus(document.querySelector<HTMLElement>("#panel-torus")!, report);
  const outcome = report.diagnostics.length ? report.diagnostics[0].kind : "ok";
  const c = report.cache;
  const cache = `cache ${c.hits} hits, ${c.persisted_hits} persisted, ${c.misses} misses`;
  status.textContent = `${outcome} · ${report.ops.length} ops · ${report.kernels.length} kernels · ${cache} · ${elapsedMs.toFixed(0)} ms measured in this browser`;
}


function busy(on: boolean) {
  running = on;
  runButton.disabled = on || !playground;
  compareButton.disabled = on || !playground;
  stopButton.disabled = !on;
}

/** Runs `source` in `mode`; null if it was stopped or the runtime failed. */
async function execute(source: string, mode: EagerMode): Promise<Report | null> {
  try {
    return await playground!.run(source, { mode });
  } catch (e) {
    if (e instanceof StoppedError) {
      status.textContent = "stopped";
    } else {
      output.textContent = `The playground failed: ${e}`;
      status.textContent = "failed";
    }
    return null;
  }
}

async function run() {
  if (!playground || running) return;
  busy(true);
  status.textContent = "running…";
  const report = await execute(editor.state.doc.toString(), modeSelect.value as EagerMode);
  busy(false);
  if (report) renderReport(report, report.measured_ms ?? 0);
}

/** The Modes panel: the program in each eager mode, one after another. */
async function compareModes() {
  if (!playground || running) return;
  busy(true);
  const source = editor.state.doc.toString();
  const results: ModeResult[] = [];
  for (const mode of ["debug", "strict", "fused"] as const) {
    status.textContent = `running in ${mode} mode…`;
    const report = await execute(source, mode);
    if (!report) {
      busy(false);
      return;
    }
    results.push({ mode, report, elapsedMs: report.measured_ms ?? 0 });
  }
  busy(false);
  renderModes(document.querySelector<HTMLElement>("#modes-table")!, results);
  status.textContent = "ok · compared the three modes";
}

/** Ends the run in flight: the runtime's worker is replaced by a fresh one. */
async function stop() {
  if (!playground || !running) return;
  const p = playground;
  playground = null;
  busy(false);
  output.textContent = "Stopped.";
  status.textContent = "stopped";
  await p.stop();
  playground = p;
  busy(false);
}

runButton.addEventListener("click", () => void run());
compareButton.addEventListener("click", () => void compareModes());
stopButton.addEventListener("click", () => void stop());

const chipSelect = document.querySelector<HTMLSelectElement>("#chip-select")!;
const sliceInput = document.querySelector<HTMLInputElement>("#slice-input")!;
const chipMessage = document.querySelector<HTMLElement>("#chip-message")!;
let presets: ChipPreset[] = [];

function showChips(chips: ChipPreset[]) {
  presets = chips;
  chipSelect.append(
    ...chips.map((c) => {
      const o = document.createElement("option");
      o.value = c.id;
      o.textContent = c.name;
      return o;
    }),
  );
  chipSelect.value = "v5e";
  renderSpecs();
}

function renderSpecs() {
  const chip = presets.find((c) => c.id === chipSelect.value);
  if (chip) renderChipSpecs(document.querySelector<HTMLElement>("#chip-specs")!, chip);
}

chipSelect.addEventListener("change", renderSpecs);
document.querySelector<HTMLButtonElement>("#chip-apply")!.addEventListener("click", async () => {
  if (!playground) return;
  const [chip, slice] = [chipSelect.value, sliceInput.value.trim()];
  try {
    await playground.setDevice(chip, slice);
    chipMessage.textContent = `next runs: ${chip}, slice ${slice}`;
  } catch (e) {
    chipMessage.textContent = e instanceof Error ? e.message : String(e);
  }
});

async function start() {
  try {
    const p = await createPlayground({
      createWorker: () =>
        new Worker(new URL("../../web/src/worker.ts", import.meta.url), { type: "module" }),
    });
    const reason = p.fallbackReason;
    backendBadge.textContent = p.backend === "wgpu" ? "WebGPU (wgpu)" : "CPU reference";
    backendBadge.title = reason ? `WebGPU unavailable: ${reason}` : "tpu tensors run as WGSL compute shaders";
    showChips(p.chips);
    playground = p;
    busy(false);
    status.textContent = "ready";
  } catch (e) {
    status.textContent = `could not start: ${e}`;
  }
}

void start();

// Offline once loaded: the service worker keeps what the page fetched.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("./sw.js").catch(() => {
    // Without it the page still works online.
  });
}

for (const tab of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
      const on = other === tab;
      other.setAttribute("aria-selected", String(on));
      document.querySelector<HTMLElement>(`#panel-${other.dataset.panel}`)!.hidden = !on;
    }
  });
}
