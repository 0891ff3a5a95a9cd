// The Summary panel: what the run's time went to, as the runtime sums it up
// (`report.summary`): how busy the simulated chip was, whether the run is
// bound by dispatch (launch overhead), compute or memory and why, the ops
// that fell back to the host grouped by op with their reason, and the syncs
// grouped by reason. The page only lays these out; the runtime computes them.
import type { Report } from "tpu-playground/report";
import { el, paginated, table, us } from "./dom";

/** The run summary as the runtime writes it into the Report. */
export type RunSummary = NonNullable<Report["summary"]>;

const BOUND_WORDS: Record<string, string> = {
  dispatch: "dispatch-bound (launch-bound)",
  compute: "compute-bound",
  memory: "memory-bound",
  idle: "idle",
};

function lines(list: number[]): string {
  if (list.length === 0) return "";
  const shown = list.slice(0, 8).join(", ");
  return list.length > 8 ? `${shown}, … (${list.length} lines)` : shown;
}

export function renderSummary(target: HTMLElement, report: Report) {
  const summary = report.summary;
  if (!summary) {
    target.replaceChildren(el("p", {}, "No summary: the run launched no tpu kernels."));
    return;
  }
  // A sliver of a percent keeps its first digits (not "0.0%" for a chip that ran kernels).
  const fraction = summary.chip_busy_fraction;
  const percent = (fraction * 100).toFixed(fraction > 0 && fraction < 0.001 ? 3 : fraction < 0.1 ? 1 : 0);
  const fallbackCount = summary.fallbacks.reduce((n, f) => n + f.count, 0);
  const syncCount = summary.syncs.reduce((n, s) => n + s.count, 0);
  target.replaceChildren(
    el(
      "p",
      { className: "verdict" },
      el("b", { className: `bound bound-${summary.bound}` }, BOUND_WORDS[summary.bound] ?? summary.bound),
      ` · chip busy ${us(summary.chip_busy_us)} of ${us(summary.simulated_us)} simulated (${percent}%)`,
    ),
    el("p", { className: "explanation" }, summary.explanation),
    el("h3", {}, `Host fallbacks: ${fallbackCount} op${fallbackCount === 1 ? "" : "s"} in ${summary.fallbacks.length} group${summary.fallbacks.length === 1 ? "" : "s"}`),
    summary.fallbacks.length
      ? paginated(
          summary.fallbacks,
          (f) => el("tr", {}, el("td", {}, f.op), el("td", {}, String(f.count)), el("td", {}, lines(f.lines)), el("td", {}, f.reason)),
          (rows) => table("fallbacks", ["op", "times", "lines", "why it ran on the host"], rows),
          "groups",
        )
      : el("p", {}, "none: every tpu op ran on the accelerator backend."),
    el("h3", {}, `Syncs: ${syncCount} in ${summary.syncs.length} group${summary.syncs.length === 1 ? "" : "s"}`),
    summary.syncs.length
      ? paginated(
          summary.syncs,
          (s) => el("tr", {}, el("td", {}, s.reason), el("td", {}, String(s.count)), el("td", {}, lines(s.lines))),
          (rows) => table("sync-groups", ["reason", "times", "lines"], rows),
          "groups",
        )
      : el("p", {}, "none: the host never waited for the device."),
  );
}
