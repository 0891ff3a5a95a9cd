// A panel whose module is a chunk of its own, fetched the first time it is
// needed, so that the page's main chunk does not grow with it (the Sharding
// and Compiled panels). It renders each Report once, and only the latest one
// when a later run finished while the module loaded.
import type { Report } from "tpu-playground/report";

export class LazyPanel<M> {
  private module: Promise<M> | null = null;
  /** The Report the panel shows, so a second request renders nothing. */
  private shown: Report | null = null;

  constructor(
    private readonly title: string,
    private readonly view: HTMLElement,
    private readonly load: () => Promise<M>,
    private readonly render: (module: M, view: HTMLElement, report: Report) => void,
  ) {}

  /** Whether the module was asked for; from then on the panel renders every run. */
  get requested(): boolean {
    return this.module !== null;
  }

  async show(report: Report) {
    if (this.shown === report) return;
    this.shown = report;
    try {
      this.module ??= this.load();
      const module = await this.module;
      // A later run may have finished while the module loaded.
      if (this.shown === report) this.render(module, this.view, report);
    } catch (e) {
      this.module = null;
      this.shown = null;
      this.view.textContent = `The ${this.title} panel could not be loaded: ${e}`;
    }
  }
}
