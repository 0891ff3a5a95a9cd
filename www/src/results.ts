// The results pane: the output with its rank filter, copy and clear, the
// tabs, and every panel of a finished run's Report, with the status line
// saying its outcome and the editor marking its errors, its first non-finite
// result and, in a deadlock, each rank's wait. The last Report shown is this
// class's; the Sharding and Compiled panels are chunks loaded on first use.
import type { DistCollective, Report } from "tpu-playground/report";
import type { EditorView } from "@codemirror/view";
import { $ } from "./dom";
import { jumpTo, markProgram, type Mark } from "./editor";
import { LazyPanel } from "./lazy-panel";
import type { OutputPane } from "./output";
import { renderChip, renderKernels, renderOps } from "./panels";
import { renderSummary } from "./summary";
import { focusTimeline, renderTimeline } from "./timeline";
import { playCollective, renderTorus } from "./torus";

/** What the status line says of a finished run. */
function outcome(report: Report): string {
  if (report.diagnostics.length) return report.diagnostics[0].kind;
  const bad = report.first_nonfinite;
  if (bad) return `${bad.value} first in ${bad.name}${bad.line !== null ? ` at line ${bad.line}` : ""}`;
  return "ok";
}

/** The editor's marks for a run: its errors, Debug's first non-finite result, a deadlock's waits. */
function marksOf(report: Report): Mark[] {
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
  return marks;
}

export class Results {
  /** The last finished run's Report, which the output's rank filter shows. */
  private shown: Report | null = null;
  private readonly rankFilter = $<HTMLSelectElement>("#rank-filter");
  private readonly status = $<HTMLElement>("#status");
  private readonly sharding: LazyPanel<typeof import("./sharding")>;
  private readonly compiled: LazyPanel<typeof import("./compiled")>;

  constructor(
    private readonly editor: EditorView,
    private readonly output: OutputPane,
    /** The run's Chrome Trace, for the Timeline's Perfetto download. */
    private readonly trace: (report: Report) => Promise<object>,
  ) {
    const shardingLinks = {
      torus: (index: number) => {
        this.openPanel("torus");
        playCollective($("#torus-view"), index);
      },
      timeline: (c: DistCollective) => {
        this.openPanel("timeline");
        if (c.start_us !== null) focusTimeline($("#timeline-view"), c.start_us, c.simulated_us, c.ranks);
      },
    };
    this.sharding = new LazyPanel("Sharding", $("#sharding-view"), () => import("./sharding"), (m, view, report) =>
      m.renderSharding(view, report, shardingLinks),
    );
    const compiledLinks = { line: (line: number) => jumpTo(editor, line, 1) };
    this.compiled = new LazyPanel("Compiled", $("#compiled-view"), () => import("./compiled"), (m, view, report) =>
      m.renderCompiled(view, report, compiledLinks),
    );

    this.rankFilter.addEventListener("change", () => {
      if (this.shown) this.showOutput(this.shown);
    });
    $("#copy-output").addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(output.text());
        this.status.textContent = "output copied";
      } catch {
        this.status.textContent = "could not copy (no clipboard access)";
      }
    });
    $("#clear-output").addEventListener("click", () => output.clear());
    for (const tab of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
      tab.addEventListener("click", () => this.openPanel(tab.dataset.panel ?? ""));
    }
  }

  /** A run starts: the rank filter waits for its Report. */
  clear() {
    this.rankFilter.hidden = true;
    this.rankFilter.value = "";
  }

  show(report: Report) {
    this.shown = report;
    this.offerRanks(report);
    this.showOutput(report);
    markProgram(this.editor, marksOf(report));
    renderSummary($("#summary-view"), report);
    renderKernels($("#kernels-view"), report);
    renderOps($("#ops-view"), report);
    renderTimeline($("#timeline-view"), report, this.trace);
    renderChip($("#chip-run"), report);
    renderTorus($("#torus-view"), report);
    // The Sharding panel's module is fetched the first time a run holds
    // DTensors or the tab is opened; after that it renders every run.
    if (this.sharding.requested || (report.world?.dtensors.length ?? 0) > 0) void this.sharding.show(report);
    if (this.compiled.requested || report.compiled.length > 0) void this.compiled.show(report);
    const c = report.cache;
    const fallbacks = report.kernels.filter((k) => k.cache_hit === null).length;
    const cache = `cache ${c.hits} hits (${c.persisted_hits} persisted), ${c.misses} misses${fallbacks ? `, ${fallbacks} host fallbacks` : ""}`;
    const measured = `${(report.measured_ms ?? 0).toFixed(0)} ms measured in this browser`;
    const ranks = report.world ? ` · ${report.world.nproc} rank${report.world.nproc === 1 ? "" : "s"}` : "";
    this.status.textContent = `${outcome(report)}${ranks} · ${report.ops.length} ops · ${report.kernels.length} kernels · ${cache} · ${measured}`;
    this.status.classList.toggle("bad", outcome(report) !== "ok");
    // The status line is short; its tooltip holds the first diagnostic whole
    // (a deadlock's lists every rank's wait).
    this.status.title = report.diagnostics[0]?.message ?? "";
  }

  /** Shows the panel `name` (`torus`, `timeline`, ...), as clicking its tab does. */
  openPanel(name: string) {
    for (const other of document.querySelectorAll<HTMLButtonElement>(".tabs [role=tab]")) {
      const on = other.dataset.panel === name;
      other.setAttribute("aria-selected", String(on));
      $(`#panel-${other.dataset.panel}`).hidden = !on;
    }
    if (name === "sharding" && this.shown) void this.sharding.show(this.shown);
    if (name === "compiled" && this.shown) void this.compiled.show(this.shown);
  }

  /** The output pane's text for the finished run: every rank's, or one rank's. */
  private showOutput(report: Report) {
    const rank = this.rankFilter.value === "" ? null : Number(this.rankFilter.value);
    this.output.finish(report, (line, column) => jumpTo(this.editor, line, column), rank);
  }

  /** The rank filter offers each rank of a run of several, and keeps its choice. */
  private offerRanks(report: Report) {
    const ranks = report.world && report.world.nproc > 1 ? report.world.ranks : [];
    const keep = ranks.some((r) => String(r.rank) === this.rankFilter.value) ? this.rankFilter.value : "";
    this.rankFilter.replaceChildren(new Option("all ranks", ""), ...ranks.map((r) => new Option(`rank ${r.rank}`, String(r.rank))));
    this.rankFilter.value = keep;
    this.rankFilter.hidden = ranks.length === 0;
  }
}
