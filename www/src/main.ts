// The page: a CodeMirror editor, Run (and Ctrl/Cmd+Enter) and Stop (Escape),
// and panels that render the Report the runtime returns. The runtime is the
// npm package's client (web/src/index.ts): a Web Worker that Stop terminates
// and replaces, and that the backend picker restarts on another backend.
// While a program runs, what it prints streams into the output pane and the
// line it is on is highlighted; the Report arrives at the end. The page
// computes nothing itself; everything it shows comes from the runtime.
import { createPlayground, StoppedError, type BackendChoice, type Playground } from "../../web/src/index";
import type { ChipPreset } from "../../web/src/protocol";
import type { DistCollective, EagerMode, Report } from "../../web/src/report";
import { type ModeResult, renderChip, renderChipSpecs, renderKernels, renderModes, renderOps } from "./panels";
import { renderSummary } from "./summary";
import { focusTimeline, renderTimeline } from "./timeline";
import { playCollective, renderTorus } from "./torus";
import { EXAMPLES, type Example } from "./examples";
import { createEditor, jumpTo, markProgram, replaceProgram, SHORTCUTS, showRunningLine, type Mark } from "./editor";
import { type Link, type LinkSettings, alreadyOpened, exampleUrl, loadDraft, openedLink, rememberOpened, saveDraft, shareUrl } from "./share";
import { OutputPane } from "./output";
import { remembered, remember } from "./settings";

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const runButton = $<HTMLButtonElement>("#run");
const stopButton = $<HTMLButtonElement>("#stop");
const modeSelect = $<HTMLSelectElement>("#mode");
const timeoutSelect = $<HTMLSelectElement>("#timeout");
const backendSelect = $<HTMLSelectElement>("#backend-select");
const ranksSelect = $<HTMLSelectElement>("#ranks-select");
const rankFilter = $<HTMLSelectElement>("#rank-filter");
const chipMessage = $<HTMLElement>("#chip-message");
const compareButton = $<HTMLButtonElement>("#compare");
const status = $<HTMLElement>("#status");
const progress = $<HTMLElement>("#progress");
const backendBadge = $<HTMLElement>("#backend");
const output = new OutputPane($<HTMLElement>("#output"));

let playground: Playground | null = null;
/** Whether a run (or a comparison of modes) is in flight. */
let running = false;
/** The simulated TPU the next runs are costed on (what share links carry);
 * an empty slice is one chip, or the smallest slice with a chip per rank. */
let device = { chip: "v5e", slice: "" };
const RANKS = ["1", "2", "4", "8"] as const;
/** The last finished run's Report, which the output's rank filter shows. */
let shown: Report | null = null;

// Settings kept between visits.
timeoutSelect.value = remembered("timeout", ["5000", "30000", "120000", "600000", "0"], "120000");
timeoutSelect.addEventListener("change", () => remember("timeout", timeoutSelect.value));
backendSelect.value = remembered("backend", ["auto", "wgpu", "reference"], "auto");
ranksSelect.value = remembered("ranks", RANKS, "1");

// The notice bar offers the way back after the program was replaced.
const notice = $<HTMLElement>("#notice");
function showNotice(text: string, action: string, act: () => void) {
  $("#notice-text").textContent = text;
  const button = $<HTMLButtonElement>("#notice-action");
  button.textContent = action;
  button.onclick = () => {
    act();
    notice.hidden = true;
  };
  notice.hidden = false;
}
$("#notice-close").addEventListener("click", () => {
  notice.hidden = true;
});

// The program: the link's (share link or example), else the saved draft,
// else the first example. A link never silently replaces a different draft.
const draft = loadDraft();
let link = await openedLink();
const linkedExample = (l: Link | null): Example | undefined =>
  l?.kind === "example" ? EXAMPLES.find((e) => e.id === l.id) : undefined;
const linkedSource = (l: Link | null) => (l?.kind === "code" ? l.source : linkedExample(l)?.source);
/** The device and ranks a link asks for: its own, else its example's. */
function linkedDevice(l: Link | null): LinkSettings {
  const example = linkedExample(l)?.settings;
  return { chip: l?.chip ?? example?.chip, slice: l?.slice ?? example?.slice, ranks: l?.ranks ?? example?.ranks };
}
const editor = createEditor($("#editor"), draft ?? linkedSource(link) ?? EXAMPLES[0].source, {
  run: () => void run(),
  stop: () => {
    if (!running) return false;
    void stop();
    return true;
  },
  changed: saveDraft,
});

/** Opens `link` over the editor's program, keeping that program one undo away. */
function openLink(link: Link | null) {
  const linked = linkedSource(link);
  if (!link || linked === undefined) return;
  if (link.mode && ["strict", "debug", "fused"].includes(link.mode)) modeSelect.value = link.mode;
  const ranks = linkedDevice(link).ranks;
  if (ranks) useRanks(ranks);
  const mine = editor.state.doc.toString();
  if (mine !== linked) {
    if (alreadyOpened(location.hash)) {
      // This link was opened before and the program edited since: keep the edits.
      showNotice("Your edited draft is kept.", "Open the link's program", () => replaceProgram(editor, linked));
    } else {
      replaceProgram(editor, linked);
      showNotice("Opened the link's program; your draft is one undo away.", "Restore your draft", () =>
        replaceProgram(editor, mine),
      );
    }
  }
  rememberOpened(location.hash);
}
openLink(link);
// A link pasted into the address bar of an open page changes only the hash.
window.addEventListener("hashchange", async () => {
  link = await openedLink();
  openLink(link);
  const wanted = linkedDevice(link);
  if (wanted.chip) await useDevice(wanted.chip, wanted.slice ?? "");
});

const examples = $<HTMLSelectElement>("#examples");
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
  examples.value = "";
  if (!example) return;
  const before = editor.state.doc.toString();
  if (before === example.source) return;
  replaceProgram(editor, example.source);
  if (example.settings) {
    useRanks(example.settings.ranks);
    void useDevice(example.settings.chip, example.settings.slice);
  } else {
    // A program that is not a torch.distributed one runs as one process,
    // whatever the last distributed example set.
    useRanks("1");
  }
  history.replaceState(null, "", exampleUrl(example.id));
  rememberOpened(location.hash);
  showNotice(`Loaded “${example.title}”; Ctrl+Z brings your program back.`, "Restore your program", () =>
    replaceProgram(editor, before),
  );
});

$("#share").addEventListener("click", async () => {
  const ranks = ranksSelect.value === "1" ? undefined : ranksSelect.value;
  const url = await shareUrl(editor.state.doc.toString(), { mode: modeSelect.value, ...device, ranks });
  history.replaceState(null, "", url);
  rememberOpened(location.hash);
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = "link copied";
  } catch {
    status.textContent = "link in the address bar";
  }
});

$("#copy-output").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(output.text());
    status.textContent = "output copied";
  } catch {
    status.textContent = "could not copy (no clipboard access)";
  }
});
$("#clear-output").addEventListener("click", () => output.clear());

const keysHelp = $<HTMLDialogElement>("#keys-help");
$("#keys-table tbody").append(
  ...SHORTCUTS.map(([keys, what]) => {
    const row = document.createElement("tr");
    const k = document.createElement("td");
    k.append(...keys.split(" / ").flatMap((key, i) => [i ? " / " : "", Object.assign(document.createElement("kbd"), { textContent: key })]));
    const w = document.createElement("td");
    w.textContent = what;
    row.append(k, w);
    return row;
  }),
);
$("#keys").addEventListener("click", () => keysHelp.showModal());

const themeButton = $<HTMLButtonElement>("#theme");
const THEMES = ["system", "light", "dark"] as const;
function applyTheme(theme: (typeof THEMES)[number]) {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  themeButton.textContent = `theme: ${theme}`;
  remember("theme", theme);
}
themeButton.addEventListener("click", () => {
  const now = (document.documentElement.dataset.theme ?? "system") as (typeof THEMES)[number];
  applyTheme(THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
});
applyTheme(remembered("theme", THEMES, "system"));

/** What the status line says of a finished run. */
function outcome(report: Report): string {
  if (report.diagnostics.length) return report.diagnostics[0].kind;
  const bad = report.first_nonfinite;
  if (bad) return `${bad.value} first in ${bad.name}${bad.line !== null ? ` at line ${bad.line}` : ""}`;
  return "ok";
}

/** The output pane's text for the finished run: every rank's, or one rank's. */
function showOutput(report: Report) {
  const rank = rankFilter.value === "" ? null : Number(rankFilter.value);
  output.finish(report, (line, column) => jumpTo(editor, line, column), rank);
}

/** The rank filter offers each rank of a run of several, and keeps its choice. */
function offerRanks(report: Report) {
  const ranks = report.world && report.world.nproc > 1 ? report.world.ranks : [];
  const keep = ranks.some((r) => String(r.rank) === rankFilter.value) ? rankFilter.value : "";
  rankFilter.replaceChildren(new Option("all ranks", ""), ...ranks.map((r) => new Option(`rank ${r.rank}`, String(r.rank))));
  rankFilter.value = keep;
  rankFilter.hidden = ranks.length === 0;
}
rankFilter.addEventListener("change", () => {
  if (shown) showOutput(shown);
});

// The Sharding panel (www/src/sharding.ts) is a chunk of its own, loaded on
// first use, so the page's main chunk does not grow with it.
let shardingModule: Promise<typeof import("./sharding")> | null = null;
/** The Report the Sharding panel shows, so a second request renders nothing. */
let shardingShown: Report | null = null;
const shardingLinks = {
  torus(index: number) {
    openPanel("torus");
    playCollective($("#torus-view"), index);
  },
  timeline(c: DistCollective) {
    openPanel("timeline");
    if (c.start_us !== null) focusTimeline($("#timeline-view"), c.start_us, c.simulated_us, c.ranks);
  },
};
async function renderShardingPanel(report: Report) {
  if (shardingShown === report) return;
  shardingShown = report;
  const view = $("#sharding-view");
  try {
    shardingModule ??= import("./sharding");
    const { renderSharding } = await shardingModule;
    // A later run may have finished while the module loaded.
    if (shardingShown === report) renderSharding(view, report, shardingLinks);
  } catch (e) {
    shardingModule = null;
    shardingShown = null;
    view.textContent = `The Sharding panel could not be loaded: ${e}`;
  }
}

// The Compiled panel (www/src/compiled.ts) is a chunk of its own as well,
// loaded the first time a run compiles something or the tab is opened.
let compiledModule: Promise<typeof import("./compiled")> | null = null;
/** The Report the Compiled panel shows, so a second request renders nothing. */
let compiledShown: Report | null = null;
const compiledLinks = { line: (line: number) => jumpTo(editor, line, 1) };
async function renderCompiledPanel(report: Report) {
  if (compiledShown === report) return;
  compiledShown = report;
  const view = $("#compiled-view");
  try {
    compiledModule ??= import("./compiled");
    const { renderCompiled } = await compiledModule;
    // A later run may have finished while the module loaded.
    if (compiledShown === report) renderCompiled(view, report, compiledLinks);
  } catch (e) {
    compiledModule = null;
    compiledShown = null;
    view.textContent = `The Compiled panel could not be loaded: ${e}`;
  }
}

function renderReport(report: Report) {
  shown = report;
  offerRanks(report);
  showOutput(report);
  const marks: Mark[] = report.diagnostics.flatMap((d) =>
    d.span
      ? [
          {
            line: d.span.line,
            column: d.span.column,
            endLine: d.span.end_line,
            endColumn: d.span.end_column,
            severity: "error" as const,
            message: `${d.kind}: ${d.message}`,
          },
        ]
      : [],
  );
  const bad = report.first_nonfinite;
  if (bad?.line != null) {
    marks.push({
      line: bad.line,
      severity: "warning",
      message: `Debug mode: ${bad.name} gave the run's first ${bad.value} here`,
    });
  }
  // A deadlock marks the line each rank waits on, saying what it waits in.
  for (const wait of report.world?.deadlock?.ranks ?? []) {
    if (wait.line === null) continue;
    marks.push({
      line: wait.line,
      severity: "error",
      message: `rank ${wait.rank} ${wait.state}${wait.mismatch ? `: ${wait.mismatch}` : ""}`,
    });
  }
  markProgram(editor, marks);
  renderSummary($("#summary-view"), report);
  renderKernels($("#kernels-view"), report);
  renderOps($("#ops-view"), report);
  renderTimeline($("#timeline-view"), report, (r) => {
    if (!playground) return Promise.reject(new Error("the runtime is restarting"));
    return playground.chromeTrace(r);
  });
  renderChip($("#chip-run"), report);
  renderTorus($("#torus-view"), report);
  // The Sharding panel's module is fetched the first time a run holds
  // DTensors or the tab is opened; after that it renders every run.
  if (shardingModule || (report.world?.dtensors.length ?? 0) > 0) void renderShardingPanel(report);
  if (compiledModule || report.compiled.length > 0) void renderCompiledPanel(report);
  const c = report.cache;
  const cache = `cache ${c.hits} hits, ${c.persisted_hits} persisted, ${c.misses} misses`;
  const measured = `${(report.measured_ms ?? 0).toFixed(0)} ms measured in this browser`;
  const ranks = report.world ? ` · ${report.world.nproc} rank${report.world.nproc === 1 ? "" : "s"}` : "";
  status.textContent = `${outcome(report)}${ranks} · ${report.ops.length} ops · ${report.kernels.length} kernels · ${cache} · ${measured}`;
  status.classList.toggle("bad", outcome(report) !== "ok");
  // The status line is short; its tooltip holds the first diagnostic whole
  // (a deadlock's lists every rank's wait).
  status.title = report.diagnostics[0]?.message ?? "";
}

function busy(on: boolean) {
  running = on;
  runButton.disabled = on || !playground;
  compareButton.disabled = on || !playground;
  backendSelect.disabled = on || !playground;
  stopButton.disabled = !on;
}

/** The elapsed-time counter and current line while a run is in flight. */
let ticking: ReturnType<typeof setInterval> | null = null;
let currentLine: number | null = null;
function track(on: boolean) {
  if (ticking) clearInterval(ticking);
  ticking = null;
  currentLine = null;
  showRunningLine(editor, null);
  progress.textContent = "";
  if (!on) return;
  const started = performance.now();
  const tick = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    progress.textContent = currentLine !== null ? `${seconds} s · line ${currentLine}` : `${seconds} s`;
  };
  tick();
  ticking = setInterval(tick, 100);
}

/** Runs `source` in `mode`, streaming its output; null if it was stopped or the runtime failed. */
async function execute(source: string, mode: EagerMode): Promise<Report | null> {
  const limit = Number(timeoutSelect.value);
  track(true);
  try {
    const ranks = Number(ranksSelect.value);
    return await playground!.run(source, {
      mode,
      timeoutMs: limit > 0 ? limit : null,
      nproc: ranks > 1 ? ranks : null,
      onOutput: (text) => output.append(text),
      onProgress: (line) => {
        if (line === currentLine) return;
        currentLine = line;
        showRunningLine(editor, line);
      },
    });
  } catch (e) {
    if (e instanceof StoppedError) {
      status.textContent = "stopped";
    } else {
      output.append(`\nThe playground failed: ${e}\n`);
      status.textContent = "failed";
    }
    return null;
  } finally {
    track(false);
  }
}

async function run() {
  if (!playground || running) return;
  busy(true);
  output.clear();
  rankFilter.hidden = true;
  rankFilter.value = "";
  markProgram(editor, []);
  status.classList.remove("bad");
  status.title = "";
  status.textContent = "running…";
  const report = await execute(editor.state.doc.toString(), modeSelect.value as EagerMode);
  busy(false);
  if (report) renderReport(report);
}

/** The Modes panel: the program in each eager mode, one after another. */
async function compareModes() {
  if (!playground || running) return;
  busy(true);
  const source = editor.state.doc.toString();
  const results: ModeResult[] = [];
  for (const mode of ["debug", "strict", "fused"] as const) {
    output.clear();
    status.textContent = `running in ${mode} mode…`;
    const report = await execute(source, mode);
    if (!report) {
      busy(false);
      return;
    }
    results.push({ mode, report, elapsedMs: report.measured_ms ?? 0 });
  }
  busy(false);
  renderModes($("#modes-table"), results);
  status.textContent = "ok · compared the three modes";
}

/** Ends the run in flight: the runtime's worker is replaced by a fresh one. */
async function stop() {
  if (!playground || !running) return;
  const p = playground;
  playground = null;
  busy(false);
  output.append("\n[stopped]\n");
  output.flush();
  status.textContent = "stopped";
  await p.stop();
  playground = p;
  busy(false);
}

runButton.addEventListener("click", () => void run());
compareButton.addEventListener("click", () => void compareModes());
stopButton.addEventListener("click", () => void stop());

const chipSelect = $<HTMLSelectElement>("#chip-select");
const sliceInput = $<HTMLInputElement>("#slice-input");
let presets: ChipPreset[] = [];

function showChips(chips: ChipPreset[]) {
  if (presets.length) return;
  presets = chips;
  chipSelect.append(
    ...chips.map((c) => {
      const o = document.createElement("option");
      o.value = c.id;
      o.textContent = c.name;
      return o;
    }),
  );
  chipSelect.value = device.chip;
  sliceInput.value = device.slice;
  renderSpecs();
}

function renderSpecs() {
  const chip = presets.find((c) => c.id === chipSelect.value);
  if (chip) renderChipSpecs($("#chip-specs"), chip);
}

async function useDevice(chip: string, slice: string) {
  if (!playground) return;
  try {
    await playground.setDevice(chip, slice);
    device = { chip, slice };
    if (presets.length) {
      chipSelect.value = chip;
      sliceInput.value = slice;
      renderSpecs();
    }
    showNextRuns();
  } catch (e) {
    chipMessage.textContent = e instanceof Error ? e.message : String(e);
  }
}

/** What the next runs run on, as the Chip panel says it. */
function showNextRuns() {
  const ranks = ranksSelect.value === "1" ? "" : `, ${ranksSelect.value} ranks`;
  chipMessage.textContent = `next runs: ${device.chip}, slice ${device.slice || "auto"}${ranks}`;
}

/** Chooses how many ranks the next runs have (kept between visits). */
function useRanks(ranks: string) {
  if (!(RANKS as readonly string[]).includes(ranks)) return;
  ranksSelect.value = ranks;
  remember("ranks", ranks);
  showNextRuns();
}
ranksSelect.addEventListener("change", () => useRanks(ranksSelect.value));

chipSelect.addEventListener("change", renderSpecs);
$("#chip-apply").addEventListener("click", () => void useDevice(chipSelect.value, sliceInput.value.trim()));

function showBackend(p: Playground) {
  backendBadge.textContent = p.backendLabel || (p.backend === "wgpu" ? "WebGPU" : "CPU reference");
  backendBadge.classList.toggle("software", p.software);
  const reason = p.fallbackReason;
  const describe = () => {
    const { compiled, remaining } = p.library;
    const done = remaining === 0 && compiled > 0;
    const library = done ? `; precompiled kernel library: ${compiled} kernels compiled while the page was idle` : "";
    backendBadge.title = reason
      ? `WebGPU unavailable: ${reason}`
      : p.backend === "wgpu"
        ? `tpu tensors run as WGSL compute shaders${p.software ? " on a software (CPU) implementation of WebGPU, so slowly" : ""}${library}`
        : "tpu tensors run on the CPU reference backend (Rust loops)";
    backendBadge.dataset.library = done ? "ready" : "none";
  };
  describe();
  // The badge changes once, when the library is done (the worker reports
  // after each kernel it compiles).
  p.onLibrary = ({ compiled, remaining }) => {
    if (remaining === 0 && compiled > 0) describe();
  };
}

backendSelect.addEventListener("change", async () => {
  if (!playground || running) return;
  const p = playground;
  const choice = backendSelect.value as BackendChoice;
  remember("backend", choice);
  playground = null;
  busy(false);
  status.textContent = "restarting the runtime…";
  backendBadge.textContent = "starting…";
  try {
    await p.setBackend(choice);
    playground = p;
    showBackend(p);
    status.textContent = "ready";
  } catch (e) {
    status.textContent = `could not start: ${e}`;
  }
  busy(false);
});

async function start() {
  try {
    const p = await createPlayground({
      backend: backendSelect.value as BackendChoice,
      createWorker: () => new Worker(new URL("../../web/src/worker.ts", import.meta.url), { type: "module" }),
    });
    playground = p;
    showBackend(p);
    const wanted = linkedDevice(link);
    if (wanted.chip) await useDevice(wanted.chip, wanted.slice ?? "");
    showChips(p.chips);
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
  // The Sharding and Compiled panels' chunks are fetched once the worker
  // controls the page, in the background, so that they are kept for offline
  // use even if the panels were never opened.
  void navigator.serviceWorker.ready.then(() =>
    setTimeout(() => {
      void import("./sharding").catch(() => {});
      void import("./compiled").catch(() => {});
    }, 3000),
  );
}

/** Shows the panel `name` (`torus`, `timeline`, ...), as clicking its tab does. */
function openPanel(name: string) {
  for (const other of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
    const on = other.dataset.panel === name;
    other.setAttribute("aria-selected", String(on));
    $(`#panel-${other.dataset.panel}`).hidden = !on;
  }
  if (name === "sharding" && shown) void renderShardingPanel(shown);
  if (name === "compiled" && shown) void renderCompiledPanel(shown);
}

for (const tab of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
  tab.addEventListener("click", () => openPanel(tab.dataset.panel ?? ""));
}
