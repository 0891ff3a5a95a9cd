// The output pane: a fixed-height block that scrolls inside itself, however
// much the program prints. Printed text streams in as the worker posts it,
// batched into one text node so that 20,000 lines cost one DOM node; it
// stays scrolled to the end unless the reader scrolled up. When the run
// ends, its Report's stdout and tracebacks replace the streamed text, each
// traceback with a link to its line. A run of several ranks can be read one
// rank at a time: that rank's own output, errors and deadlocked wait. The
// frames of a traceback inside the playground's own torch (its Python files,
// named `<tpu-playground>/...`) are folded, one click away.
import type { Diagnostic, Report } from "tpu-playground/report";

export class OutputPane {
  private streamed = document.createTextNode("");
  private pending = "";
  private flushing: ReturnType<typeof setTimeout> | null = null;

  constructor(private pane: HTMLElement) {}

  clear() {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
    this.pending = "";
    this.streamed = document.createTextNode("");
    this.pane.replaceChildren(this.streamed);
  }

  /** Adds printed text; it is shown within ~50 ms. */
  append(text: string) {
    this.pending += text;
    this.flushing ??= setTimeout(() => this.flush(), 50);
  }

  /** Shows what is pending now rather than within ~50 ms (a stop's note). */
  flush() {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
    const atEnd = this.pane.scrollTop + this.pane.clientHeight >= this.pane.scrollHeight - 4;
    if (!this.streamed.parentNode) this.pane.append(this.streamed);
    this.streamed.appendData(this.pending);
    this.pending = "";
    if (atEnd) this.pane.scrollTop = this.pane.scrollHeight;
  }

  text(): string {
    return this.pane.textContent ?? "";
  }

  /** Shows the finished run: what it printed, what it wrote to stderr, then
   * its tracebacks; with
   * `rank`, only what that rank printed, its errors and its deadlocked wait. */
  finish(report: Report, jump: (line: number, column: number) => void, rank: number | null = null) {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
    this.pending = "";
    const atEnd = this.pane.scrollTop + this.pane.clientHeight >= this.pane.scrollHeight - 4;
    const one = rank === null ? undefined : report.world?.ranks[rank];
    const diagnostics: Diagnostic[] = one ? one.diagnostics : report.diagnostics;
    this.streamed = document.createTextNode(one ? one.stdout : report.stdout);
    this.pane.replaceChildren(this.streamed);
    // What went to stderr (logging, warnings) follows, set apart.
    const stderr = one ? "" : (report.stderr ?? "");
    if (stderr) {
      const block = document.createElement("span");
      block.className = "stderr";
      block.textContent = stderr;
      this.pane.append(block);
    }
    const where = (line: number, column: number) => {
      const link = document.createElement("a");
      link.href = "#";
      link.className = "error-location";
      link.textContent = `↪ line ${line}, column ${column}`;
      link.addEventListener("click", (e) => {
        e.preventDefault();
        jump(line, column);
      });
      this.pane.append(link, "\n");
    };
    const error = (text: string) => {
      const block = document.createElement("span");
      block.className = "error";
      block.append(...foldInternalFrames(text + "\n"));
      this.pane.append(block);
    };
    for (const d of diagnostics) {
      error(d.traceback);
      if (d.span) where(d.span.line, d.span.column);
    }
    const wait = one && report.world?.deadlock?.ranks.find((w) => w.rank === one.rank);
    if (wait) {
      error(`rank ${wait.rank} ${wait.state}${wait.line !== null ? ` at line ${wait.line}` : ""}`);
      if (wait.line !== null) where(wait.line, 1);
    }
    // A traceback is what the reader needs to see; so is the end of a long run.
    if (atEnd || diagnostics.length || wait) this.pane.scrollTop = this.pane.scrollHeight;
  }
}

/** Where the playground's own Python (its torch) says its frames are. */
const INTERNAL = 'File "<tpu-playground>/';

/**
 * A traceback as nodes, with each run of frames inside the playground's own
 * torch folded into a closed `<details>` that names how many there are: the
 * program's own frames and the error stay in view.
 */
export function foldInternalFrames(traceback: string): (Node | string)[] {
  const lines = traceback.split(/(?<=\n)/);
  const out: (Node | string)[] = [];
  let text = "";
  let folded: string[] = [];
  let frames = 0;
  const fold = () => {
    if (!frames) return;
    const details = document.createElement("details");
    details.className = "internal-frames";
    const summary = document.createElement("summary");
    summary.textContent = `  ${frames} frame${frames > 1 ? "s" : ""} inside the playground's torch`;
    details.append(summary, folded.join(""));
    out.push(text, details);
    text = "";
    folded = [];
    frames = 0;
  };
  let inInternal = false;
  for (const line of lines) {
    const frame = /^ {2}File "/.test(line);
    if (frame) {
      inInternal = line.trimStart().startsWith(INTERNAL);
      if (inInternal) frames += 1;
      else fold();
    } else if (!line.startsWith("    ")) {
      // The end of the frames: the exception's own line (or a chained one's).
      fold();
      inInternal = false;
    }
    if (inInternal) folded.push(line);
    else text += line;
  }
  fold();
  out.push(text);
  return out.filter((part) => part !== "");
}
