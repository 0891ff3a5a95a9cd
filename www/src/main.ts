// The page: a CodeMirror editor, Run (and Ctrl/Cmd+Enter) and Stop, and panes
// that render the Report returned by the runtime. The runtime lives in a Web
// Worker (worker.ts); Stop terminates it and starts a fresh one. The page
// computes nothing itself; everything it shows comes from the Report.
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { python } from "@codemirror/lang-python";
import type { ChipPreset, FromWorker, ToWorker } from "./protocol";
import type { EagerMode, Report } from "./report";
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

let worker: Worker | null = null;
let ready = false;
/** The run in flight: its id and how to finish it. */
let current: { id: number; resolve: (m: FromWorker) => void } | null = null;
let nextId = 1;

const editor = new EditorView({
  doc: loadDraft() ?? EXAMPLES[0].source,
  parent: document.querySelector<HTMLElement>("#editor")!,
  extensions: [
    Prec.highest(
      keymap.of([
        { key: "Mod-Enter", run: () => { void run(); return true; } },
        { key: "Escape", run: () => { if (!current) return false; stop(); return true; } },
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
  renderTimeline(document.querySelector<HTMLElement>("#panel-timeline")!, report);
  renderChip(document.querySelector<HTMLElement>("#chip-run")!, report);
  renderTorus(document.querySelector<HTMLElement>("#panel-torus")!, report);
  const outcome = report.diagnostics.length ? report.diagnostics[0].kind : "ok";
  const c = report.cache;
  const cache = `cache ${c.hits} hits, ${c.persisted_hits} persisted, ${c.misses} misses`;
  status.textContent = `${outcome} · ${report.ops.length} ops · ${report.kernels.length} kernels · ${cache} · ${elapsedMs.toFixed(0)} ms measured in this browser`;
}

/** Runs `source` in `mode` in the worker; resolves when it answers or is stopped. */
async function execute(source: string, mode: EagerMode): Promise<FromWorker> {
  const id = nextId++;
  const done = new Promise<FromWorker>((resolve) => {
    current = { id, resolve };
  });
  const message: ToWorker = { type: "run", id, source, mode };
  worker!.postMessage(message);
  const answer = await done;
  current = null;
  return answer;
}

function busy(on: boolean) {
  runButton.disabled = on || !ready;
  compareButton.disabled = on || !ready;
  stopButton.disabled = !on;
}

async function run() {
  if (!worker || !ready || current) return;
  busy(true);
  status.textContent = "running…";
  const answer = await execute(editor.state.doc.toString(), modeSelect.value as EagerMode);
  busy(false);
  if (answer.type === "report") {
    renderReport(answer.report, answer.elapsedMs);
  } else if (answer.type === "error") {
    output.textContent = `The playground failed: ${answer.message}`;
    status.textContent = "failed";
  } else if (answer.type === "failed") {
    status.textContent = "stopped";
  }
}

/** The Modes panel: the program in each eager mode, one after another. */
async function compareModes() {
  if (!worker || !ready || current) return;
  busy(true);
  const source = editor.state.doc.toString();
  const results: ModeResult[] = [];
  for (const mode of ["debug", "strict", "fused"] as const) {
    status.textContent = `running in ${mode} mode…`;
    const answer = await execute(source, mode);
    if (answer.type !== "report") {
      status.textContent = answer.type === "failed" ? "stopped" : "failed";
      busy(false);
      return;
    }
    results.push({ mode, report: answer.report, elapsedMs: answer.elapsedMs });
  }
  busy(false);
  renderModes(document.querySelector<HTMLElement>("#modes-table")!, results);
  status.textContent = "ok · compared the three modes";
}

/** Ends the run in flight: the worker is terminated and a fresh one started. */
function stop() {
  if (!current) return;
  const finish = current.resolve;
  current = null;
  startWorker();
  output.textContent = "Stopped.";
  finish({ type: "failed", message: "stopped" });
}

runButton.addEventListener("click", () => void run());
compareButton.addEventListener("click", () => void compareModes());
stopButton.addEventListener("click", stop);

let device = { chip: "v5e", slice: "1" };
let presets: ChipPreset[] = [];
const chipSelect = document.querySelector<HTMLSelectElement>("#chip-select")!;
const sliceInput = document.querySelector<HTMLInputElement>("#slice-input")!;
const chipMessage = document.querySelector<HTMLElement>("#chip-message")!;

function showChips(chips: ChipPreset[]) {
  presets = chips;
  if (chipSelect.options.length === 0) {
    chipSelect.append(
      ...chips.map((c) => {
        const o = document.createElement("option");
        o.value = c.id;
        o.textContent = c.name;
        return o;
      }),
    );
    chipSelect.value = device.chip;
  }
  renderSpecs();
}

function renderSpecs() {
  const chip = presets.find((c) => c.id === chipSelect.value);
  if (chip) renderChipSpecs(document.querySelector<HTMLElement>("#chip-specs")!, chip);
}

chipSelect.addEventListener("change", renderSpecs);
document.querySelector<HTMLButtonElement>("#chip-apply")!.addEventListener("click", () => {
  worker?.postMessage({ type: "device", chip: chipSelect.value, slice: sliceInput.value.trim() } satisfies ToWorker);
});

function startWorker() {
  worker?.terminate();
  ready = false;
  busy(false);
  const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  worker = w;
  w.onmessage = (event: MessageEvent<FromWorker>) => {
    if (w !== worker) return;
    const message = event.data;
    switch (message.type) {
      case "ready": {
        ready = true;
        const reason = message.fallbackReason;
        backendBadge.textContent = message.backend === "wgpu" ? "WebGPU (wgpu)" : "CPU reference";
        backendBadge.title = reason ? `WebGPU unavailable: ${reason}` : "tpu tensors run as WGSL compute shaders";
        busy(current !== null);
        if (!current && status.textContent !== "stopped") status.textContent = "ready";
        showChips(message.chips);
        // A fresh worker (after Stop) takes the chosen device again.
        if (device.chip !== "v5e" || device.slice !== "1") w.postMessage({ type: "device", ...device } satisfies ToWorker);
        break;
      }
      case "device":
        chipMessage.textContent = message.error
          ? message.error.replace(/^Error: /, "")
          : `next runs: ${message.chip}, slice ${message.slice}`;
        if (!message.error) device = { chip: message.chip, slice: message.slice };
        break;
      case "failed":
        status.textContent = `could not start: ${message.message}`;
        break;
      case "report":
      case "error":
        if (current && current.id === message.id) current.resolve(message);
        break;
    }
  };
}

startWorker();

for (const tab of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
      const on = other === tab;
      other.setAttribute("aria-selected", String(on));
      document.querySelector<HTMLElement>(`#panel-${other.dataset.panel}`)!.hidden = !on;
    }
  });
}
