// The output pane: a fixed-height block that scrolls inside itself, however
// much the program prints. Printed text streams in as the worker posts it,
// batched into one text node so that 20,000 lines cost one DOM node; it
// stays scrolled to the end unless the reader scrolled up. When the run
// ends, its Report's stdout and tracebacks replace the streamed text, each
// traceback with a link to its line.
import type { Report } from "../../web/src/report";

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

  /** Shows the finished run: what it printed, then its tracebacks. */
  finish(report: Report, jump: (line: number, column: number) => void) {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
    this.pending = "";
    const atEnd = this.pane.scrollTop + this.pane.clientHeight >= this.pane.scrollHeight - 4;
    this.streamed = document.createTextNode(report.stdout);
    this.pane.replaceChildren(this.streamed);
    for (const d of report.diagnostics) {
      const block = document.createElement("span");
      block.className = "error";
      block.textContent = d.traceback + "\n";
      this.pane.append(block);
      if (d.span) {
        const { line, column } = d.span;
        const link = document.createElement("a");
        link.href = "#";
        link.className = "error-location";
        link.textContent = `↪ line ${line}, column ${column}`;
        link.addEventListener("click", (e) => {
          e.preventDefault();
          jump(line, column);
        });
        this.pane.append(link, "\n");
      }
    }
    // A traceback is what the reader needs to see; so is the end of a long run.
    if (atEnd || report.diagnostics.length) this.pane.scrollTop = this.pane.scrollHeight;
  }
}
