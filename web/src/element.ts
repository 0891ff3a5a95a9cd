// <tpu-playground>: a code block that runs. Its text is the program; the
// widget shows it in an editable box with Run, the output, the kernels the
// run launched and a compact simulated timeline. Widgets on one page share one
// runtime (one Web Worker). Attributes: `mode` (debug, strict, fused). The
// output streams in as the program prints, in a box that scrolls past 20rem.
import { createPlayground, type Playground } from "./index.js";
import type { EagerMode, Report } from "./report.js";

let shared: Promise<Playground> | null = null;

function runtime(): Promise<Playground> {
  shared ??= createPlayground();
  return shared;
}

/** The text of a code block without its common indentation. */
function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, "").split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n") + "\n";
}

/** Simulated microseconds, in µs, in ms from a millisecond up, in ns under
 * a tenth of a microsecond (the page's `us`, which the package cannot import). */
function time(us: number): string {
  if (us >= 1000) return `${(us / 1000).toFixed(2)} ms`;
  if (us > 0 && us < 0.1) return `${(us * 1000).toFixed(us < 0.01 ? 2 : 1)} ns`;
  return `${us.toFixed(us < 10 ? 2 : 1)} µs`;
}

const STYLE = `
:host { display: block; font-family: system-ui, sans-serif; border: 1px solid #d0d7de; border-radius: 8px; margin: 1rem 0; }
textarea { box-sizing: border-box; width: 100%; border: 0; border-bottom: 1px solid #d0d7de; padding: 0.6rem; font: 13px ui-monospace, monospace; resize: vertical; background: transparent; color: inherit; }
.bar { display: flex; gap: 0.6rem; align-items: center; padding: 0.3rem 0.6rem; }
button { font: inherit; font-size: 13px; padding: 0.2rem 0.9rem; border-radius: 6px; border: 1px solid #1a73e8; background: #1a73e8; color: #fff; cursor: pointer; }
button:disabled { opacity: 0.5; }
.status { color: #656d76; font-size: 12px; }
pre { margin: 0; padding: 0.6rem; font: 12px ui-monospace, monospace; white-space: pre-wrap; max-height: 20rem; overflow: auto; }
pre.error { color: #cf222e; }
.kernels { padding: 0 0.6rem; font-size: 12px; color: #656d76; }
svg { display: block; width: 100%; height: 20px; }
svg rect { fill: #1a73e8; }
svg rect.track { fill: #eaeef2; }
.lane { padding: 0.3rem 0.6rem 0.5rem; font-size: 11px; color: #656d76; }
`;

export class TpuPlaygroundElement extends HTMLElement {
  private editor!: HTMLTextAreaElement;
  private button!: HTMLButtonElement;
  private status!: HTMLElement;
  private output!: HTMLElement;
  private kernels!: HTMLElement;
  private timeline!: SVGSVGElement;
  private caption!: HTMLElement;

  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = `<style>${STYLE}</style><textarea spellcheck="false" aria-label="program"></textarea><div class="bar"><button type="button">Run</button><span class="status" role="status">ready to run</span></div><pre class="output" aria-live="polite"></pre><div class="kernels"></div><div class="lane"><svg class="timeline" role="img" aria-label="simulated timeline"></svg><span class="lane-caption"></span></div>`;
    this.editor = root.querySelector("textarea")!;
    this.button = root.querySelector("button")!;
    this.status = root.querySelector(".status")!;
    this.output = root.querySelector(".output")!;
    this.kernels = root.querySelector(".kernels")!;
    this.timeline = root.querySelector("svg")!;
    this.caption = root.querySelector(".lane-caption")!;
    const source = dedent(this.textContent ?? "");
    this.editor.value = source;
    this.editor.rows = Math.min(source.split("\n").length, 20);
    this.button.addEventListener("click", () => void this.run());
  }

  /** Runs the widget's program; resolves to its Report. */
  async run(): Promise<Report | null> {
    this.button.disabled = true;
    this.status.textContent = "running…";
    try {
      const playground = await runtime();
      const mode = (this.getAttribute("mode") ?? "strict") as EagerMode;
      // What the program prints streams in; the Report then replaces it.
      this.output.textContent = "";
      this.output.className = "output";
      const report = await playground.run(this.editor.value, {
        mode,
        onOutput: (text) => this.output.append(text),
      });
      this.render(report);
      return report;
    } catch (e) {
      this.output.textContent = String(e);
      this.output.className = "output error";
      this.status.textContent = "failed";
      return null;
    } finally {
      this.button.disabled = false;
    }
  }

  private render(report: Report) {
    const errors = report.diagnostics.map((d) => d.traceback).join("\n");
    this.output.textContent = report.stdout + errors;
    this.output.className = errors ? "output error" : "output";
    const counts = new Map<string, number>();
    for (const k of report.kernels) counts.set(k.name, (counts.get(k.name) ?? 0) + 1);
    this.kernels.textContent = report.kernels.length
      ? `${report.kernels.length} kernels: ${[...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(", ")}`
      : "no kernels";
    const total = report.timeline?.total_us ?? 0;
    const device = report.timeline?.lanes.find((l) => l.name === "TensorCore");
    const rect = (x: number, width: number, className = "") => {
      const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      r.setAttribute("x", `${x}%`);
      r.setAttribute("width", `${width}%`);
      r.setAttribute("y", "2");
      r.setAttribute("height", "16");
      if (className) r.setAttribute("class", className);
      return r;
    };
    this.timeline.replaceChildren();
    this.caption.textContent = "";
    if (device && total > 0) {
      // The lane's whole run as a track, each kernel on it at least a
      // pixel-ish wide, so that a short run's kernels can be seen.
      this.timeline.append(rect(0, 100, "track"));
      let busy = 0;
      for (const e of device.events) {
        busy += e.duration_us;
        this.timeline.append(rect((100 * e.start_us) / total, Math.max((100 * e.duration_us) / total, 0.4)));
      }
      const percent = (100 * busy) / total;
      this.caption.textContent = `the simulated TensorCore, busy ${time(busy)} of ${time(total)} (${percent.toFixed(percent > 0 && percent < 0.1 ? 3 : 1)}%)`;
    }
    const outcome = report.diagnostics.length ? report.diagnostics[0].kind : "ok";
    const simulated = report.device ? ` · ${time(total)} simulated on ${report.device.chip_name}` : "";
    this.status.textContent = `${outcome} · ${report.kernels.length} kernels${simulated} · ${report.measured_ms?.toFixed(0) ?? "?"} ms measured here`;
  }
}

if (!customElements.get("tpu-playground")) {
  customElements.define("tpu-playground", TpuPlaygroundElement);
}

declare global {
  interface HTMLElementTagNameMap {
    "tpu-playground": TpuPlaygroundElement;
  }
}
