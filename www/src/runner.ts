// The run loop on the npm package's client: the runtime in a Web Worker that
// Stop terminates and replaces and that the backend picker restarts on
// another backend. Run (and Ctrl/Cmd+Enter), Stop (Escape) and "Run in every
// mode" live here, with the elapsed time and the running line while a run is
// in flight, and the backend badge. The client and whether a run is in flight
// are this class's alone; the page asks it for them.
import { createPlayground, StoppedError, type BackendChoice, type Playground } from "tpu-playground";
import type { EagerMode, Report } from "tpu-playground/report";
import type { EditorView } from "@codemirror/view";
import { $ } from "./dom";
import { markProgram, showRunningLine } from "./editor";
import type { OutputPane } from "./output";
import { type ModeResult, renderModes } from "./panels";
import { remember, remembered } from "./settings";
import type { Toolbar } from "./toolbar";

/** What a run needs from the rest of the page. */
export interface RunnerParts {
  editor: EditorView;
  output: OutputPane;
  /** The eager mode and time limit. */
  toolbar: Toolbar;
  /** How many ranks the next run has. */
  ranks(): number;
  /** The simulated chip and slice the next run is costed on, as the toolbar says them. */
  device(): string;
  /** A run starts: what showed the last one is cleared. */
  starting(): void;
  /** A run finished with its Report. */
  finished(report: Report): void;
}

export class Runner {
  /** The runtime; null until it has started and while it restarts or stops a run. */
  private playground: Playground | null = null;
  /** Whether a run (or a comparison of modes) is in flight. */
  private running = false;
  /** The elapsed-time counter and current line while a run is in flight. */
  private ticking: ReturnType<typeof setInterval> | null = null;
  private currentLine: number | null = null;
  /** Whether this runtime has run a program since it started: the first run
   * pays for starting the interpreter, which a comparison must not charge to
   * its first mode. */
  private warmed = false;
  /** What the Modes panel's table compared: the program and its settings. */
  private compared: string | null = null;
  private readonly modesTable = $<HTMLElement>("#modes-table");
  private readonly runButton = $<HTMLButtonElement>("#run");
  private readonly stopButton = $<HTMLButtonElement>("#stop");
  private readonly compareButton = $<HTMLButtonElement>("#compare");
  private readonly backendSelect = $<HTMLSelectElement>("#backend-select");
  private readonly backendBadge = $<HTMLElement>("#backend");
  private readonly status = $<HTMLElement>("#status");
  private readonly progress = $<HTMLElement>("#progress");

  constructor(private readonly page: RunnerParts) {
    this.backendSelect.value = remembered("backend", ["auto", "wgpu", "reference"], "auto");
    this.backendSelect.addEventListener("change", () => void this.changeBackend());
    this.runButton.addEventListener("click", () => void this.run());
    this.compareButton.addEventListener("click", () => void this.compareModes());
    this.stopButton.addEventListener("click", () => void this.stop());
  }

  /** The runtime, or null while it starts, restarts or stops a run. */
  get client(): Playground | null {
    return this.playground;
  }

  /** Starts the runtime on the chosen backend; null (and the status says why) if it could not. */
  async start(): Promise<Playground | null> {
    try {
      const p = await createPlayground({ backend: this.backendSelect.value as BackendChoice });
      this.playground = p;
      this.showBackend(p);
      return p;
    } catch (e) {
      this.status.textContent = `could not start: ${e}`;
      return null;
    }
  }

  /** Enables running once the page has set the runtime up. */
  ready() {
    this.busy(false);
    this.status.textContent = "ready";
  }

  /** The run's Chrome Trace, from the runtime's own exporter. */
  chromeTrace(report: Report): Promise<object> {
    if (!this.playground) return Promise.reject(new Error("the runtime is restarting"));
    return this.playground.chromeTrace(report);
  }

  async run() {
    if (!this.playground || this.running) return;
    this.busy(true);
    this.page.output.clear();
    this.page.starting();
    markProgram(this.page.editor, []);
    this.status.classList.remove("bad");
    this.status.title = "";
    this.status.textContent = "running…";
    const source = this.page.editor.state.doc.toString();
    this.forgetStaleComparison(source);
    const report = await this.execute(source, this.page.toolbar.mode);
    this.busy(false);
    if (report) this.page.finished(report);
  }

  /** The program and the settings that change what a run does, as one key. */
  private runKey(source: string): string {
    return JSON.stringify([source, this.page.ranks(), this.page.device(), this.page.toolbar.argv]);
  }

  /** The Modes panel never shows another program's comparison: a run of a
   * program (or settings) other than the one compared clears it. */
  private forgetStaleComparison(source: string) {
    if (this.compared === null || this.compared === this.runKey(source)) return;
    this.compared = null;
    this.modesTable.replaceChildren(
      "The last comparison was of another program or other settings; run in every mode again to compare this one.",
    );
  }

  /** Stops a run in flight; false when none is (Escape then does its usual). */
  stopIfRunning(): boolean {
    if (!this.running) return false;
    void this.stop();
    return true;
  }

  /** The Modes panel: the program in each eager mode, one after another. */
  private async compareModes() {
    if (!this.playground || this.running) return;
    this.busy(true);
    const source = this.page.editor.state.doc.toString();
    this.compared = null;
    this.modesTable.replaceChildren();
    if (!this.warmed) {
      // Starting the interpreter and importing torch would be charged to
      // the first mode's measured time.
      this.status.textContent = "warming up the runtime…";
      if (!(await this.execute("import torch\n", "strict"))) {
        this.busy(false);
        return;
      }
    }
    const results: ModeResult[] = [];
    for (const mode of ["debug", "strict", "fused"] as const) {
      this.page.output.clear();
      this.status.textContent = `running in ${mode} mode…`;
      const report = await this.execute(source, mode);
      if (!report) {
        this.busy(false);
        return;
      }
      results.push({ mode, report, elapsedMs: report.measured_ms ?? 0 });
    }
    this.busy(false);
    renderModes(this.modesTable, results, this.page.ranks(), this.page.device());
    this.compared = this.runKey(source);
    this.status.textContent = "ok · compared the three modes";
  }

  /** Runs `source` in `mode`, streaming its output; null if it was stopped or the runtime failed. */
  private async execute(source: string, mode: EagerMode): Promise<Report | null> {
    const { editor, output } = this.page;
    this.track(true);
    try {
      const ranks = this.page.ranks();
      const report = await this.playground!.run(source, {
        mode,
        timeoutMs: this.page.toolbar.timeLimitMs,
        nproc: ranks > 1 ? ranks : null,
        argv: this.page.toolbar.argv,
        onOutput: (text) => output.append(text),
        onProgress: (line) => {
          if (line === this.currentLine) return;
          this.currentLine = line;
          showRunningLine(editor, line);
        },
      });
      this.warmed = true;
      return report;
    } catch (e) {
      if (e instanceof StoppedError) {
        this.status.textContent = "stopped";
      } else {
        output.append(`\nThe playground failed: ${e}\n`);
        this.status.textContent = "failed";
      }
      return null;
    } finally {
      this.track(false);
    }
  }

  /** Ends the run in flight: the runtime's worker is replaced by a fresh one. */
  private async stop() {
    if (!this.playground || !this.running) return;
    const p = this.playground;
    this.playground = null;
    this.busy(false);
    this.page.output.append("\n[stopped]\n");
    this.page.output.flush();
    this.status.textContent = "stopped";
    this.warmed = false;
    await p.stop();
    this.playground = p;
    this.busy(false);
  }

  /** Restarts the runtime on the backend the picker names (kept between visits). */
  private async changeBackend() {
    if (!this.playground || this.running) return;
    const p = this.playground;
    const choice = this.backendSelect.value as BackendChoice;
    remember("backend", choice);
    this.playground = null;
    this.busy(false);
    this.status.textContent = "restarting the runtime…";
    this.backendBadge.textContent = "starting…";
    this.warmed = false;
    try {
      await p.setBackend(choice);
      this.playground = p;
      this.showBackend(p);
      this.status.textContent = "ready";
    } catch (e) {
      this.status.textContent = `could not start: ${e}`;
    }
    this.busy(false);
  }

  private busy(on: boolean) {
    this.running = on;
    const off = on || !this.playground;
    this.runButton.disabled = off;
    this.compareButton.disabled = off;
    this.backendSelect.disabled = off;
    this.stopButton.disabled = !on;
  }

  private track(on: boolean) {
    if (this.ticking) clearInterval(this.ticking);
    this.ticking = null;
    this.currentLine = null;
    showRunningLine(this.page.editor, null);
    this.progress.textContent = "";
    if (!on) return;
    const started = performance.now();
    const tick = () => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      this.progress.textContent = this.currentLine !== null ? `${seconds} s · line ${this.currentLine}` : `${seconds} s`;
    };
    tick();
    this.ticking = setInterval(tick, 100);
  }

  /** The backend badge: which backend runs tpu tensors, and whether the precompiled library is ready. */
  private showBackend(p: Playground) {
    const badge = this.backendBadge;
    const threads = p.backend === "reference" && p.threads > 1 ? ` · ${p.threads} threads` : "";
    badge.textContent = (p.backendLabel || (p.backend === "wgpu" ? "WebGPU" : "CPU reference")) + threads;
    badge.classList.toggle("software", p.software);
    const reason = p.fallbackReason;
    const describe = () => {
      const { compiled, remaining } = p.library;
      const done = remaining === 0 && compiled > 0;
      const library = done ? `; precompiled kernel library: ${compiled} kernels compiled while the page was idle` : "";
      badge.title = reason
        ? `WebGPU unavailable: ${reason}`
        : p.backend === "wgpu"
          ? `tpu tensors run as WGSL compute shaders${p.software ? " on a software (CPU) implementation of WebGPU, so slowly" : ""}${library}`
          : p.threads > 1
            ? `tpu tensors run on the CPU reference backend (Rust loops); its large matrix products on ${p.threads} threads (Web Workers)`
            : "tpu tensors run on the CPU reference backend (Rust loops), on one thread";
      badge.dataset.library = done ? "ready" : "none";
    };
    describe();
    // The badge changes once, when the library is done (the worker reports
    // after each kernel it compiles).
    p.onLibrary = ({ compiled, remaining }) => {
      if (remaining === 0 && compiled > 0) describe();
    };
  }
}
