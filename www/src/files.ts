// The Files panel: the files a program sees (it starts in /home/user, so
// `open("input.txt")` reads /home/user/input.txt), kept in this browser
// between visits by the runtime. A file is added by choosing it or dropping
// it on the panel, taken out by its download link, and removed by its
// button; the list is read again after every run, so what a program wrote
// shows up here.
import type { FileInfo, Playground } from "tpu-playground";
import { $, bytesText, el, table } from "./dom";

const HOME = "/home/user/";


/** How the program names a file: relative to where it starts, if under it. */
const shown = (path: string) => (path.startsWith(HOME) ? path.slice(HOME.length) : path);

export class FilesPanel {
  private readonly view = $<HTMLElement>("#files-view");
  private readonly message = $<HTMLElement>("#files-message");
  private readonly input = $<HTMLInputElement>("#files-input");
  /** Object URLs of the current download links, revoked when replaced. */
  private urls: string[] = [];

  constructor(private readonly client: () => Playground | null) {
    this.input.addEventListener("change", () => {
      void this.add([...(this.input.files ?? [])]);
      this.input.value = "";
    });
    const panel = $<HTMLElement>("#panel-files");
    panel.addEventListener("dragover", (event) => {
      event.preventDefault();
      panel.classList.add("dropping");
    });
    panel.addEventListener("dragleave", () => panel.classList.remove("dropping"));
    panel.addEventListener("drop", (event) => {
      event.preventDefault();
      panel.classList.remove("dropping");
      void this.add([...(event.dataTransfer?.files ?? [])]);
    });
  }

  /** Puts `files` where programs start, then shows the list. */
  private async add(files: File[]) {
    const playground = this.client();
    if (!playground || files.length === 0) return;
    const added: string[] = [];
    for (const file of files) {
      try {
        const path = await playground.writeFile(file.name, new Uint8Array(await file.arrayBuffer()));
        added.push(shown(path));
      } catch (e) {
        this.message.textContent = `could not add ${file.name}: ${e instanceof Error ? e.message : e}`;
        return;
      }
    }
    this.message.textContent = `added ${added.join(", ")}`;
    await this.refresh();
  }

  /** Reads the list again (after a run, or a change here). */
  async refresh() {
    const playground = this.client();
    if (!playground) return;
    let files: FileInfo[];
    try {
      files = await playground.files();
    } catch {
      return;
    }
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls = [];
    if (files.length === 0) {
      this.view.replaceChildren(el("p", {}, "No files yet. Add one above, or run a program that writes one."));
      return;
    }
    const row = (file: FileInfo) => {
      const download = el("a", { href: "#", textContent: "download", className: "download" });
      download.dataset.path = file.path;
      download.addEventListener("click", (event) => {
        event.preventDefault();
        void this.download(file.path);
      });
      const remove = el("button", { type: "button", className: "secondary", textContent: "remove" });
      remove.addEventListener("click", () => void this.remove(file.path));
      return el("tr", {}, el("td", {}, shown(file.path)), el("td", {}, bytesText(file.size)), el("td", {}, download, " ", remove));
    };
    this.view.replaceChildren(table("files", ["file", "size", ""], files.map(row)));
  }

  private async download(path: string) {
    const bytes = await this.client()?.readFile(path);
    if (!bytes) return;
    const url = URL.createObjectURL(new Blob([bytes as BlobPart]));
    this.urls.push(url);
    const link = el("a", { href: url });
    link.download = path.split("/").pop() ?? "file";
    link.click();
  }

  private async remove(path: string) {
    await this.client()?.removeFile(path);
    this.message.textContent = `removed ${shown(path)}`;
    await this.refresh();
  }
}
