// What the page's URL opens, and what changes it: a share link or an example
// link opened over the draft (a link never silently replaces a different
// draft; the notice bar offers the way back), a link pasted into the address
// bar of an open page, the Share button, and the examples menu, which puts
// the example's link in the address bar. The link last opened is this
// class's; the encoding of links and the draft are share.ts's.
import type { EditorView } from "@codemirror/view";
import type { DevicePicker } from "./device-picker";
import { $, el } from "./dom";
import { replaceProgram } from "./editor";
import { EXAMPLES, type Example } from "./examples";
import { type Link, type LinkSettings, alreadyOpened, exampleUrl, openedLink, rememberOpened, shareUrl } from "./share";
import type { Toolbar } from "./toolbar";

const linkedExample = (l: Link | null): Example | undefined =>
  l?.kind === "example" ? EXAMPLES.find((e) => e.id === l.id) : undefined;

/** The program a link opens: its own, or its example's. */
export const linkedSource = (l: Link | null) => (l?.kind === "code" ? l.source : linkedExample(l)?.source);

/** What opening links needs from the rest of the page. */
export interface LinkParts {
  editor: EditorView;
  /** The mode select and the notice bar. */
  toolbar: Toolbar;
  /** The chip, slice and ranks a link or example asks for. */
  devices: DevicePicker;
}

export class Links {
  private readonly status = $<HTMLElement>("#status");

  /** `link` is what the URL asked for when the page loaded; it is opened now. */
  constructor(
    private link: Link | null,
    private readonly page: LinkParts,
  ) {
    this.open(link);
    // A link pasted into the address bar of an open page changes only the hash.
    window.addEventListener("hashchange", async () => {
      this.link = await openedLink();
      this.open(this.link);
      await this.useLinkedDevice();
    });
    $("#share").addEventListener("click", () => void this.share());
    const examples = $<HTMLSelectElement>("#examples");
    examples.append(...EXAMPLES.map((e) => el("option", { value: e.id, textContent: e.title })));
    examples.addEventListener("change", () => {
      const example = EXAMPLES.find((e) => e.id === examples.value);
      examples.value = "";
      if (example) this.openExample(example);
    });
  }

  /** Costs the next runs on the device the link asks for, if it asks for one. */
  async useLinkedDevice() {
    const wanted = this.linkedDevice(this.link);
    if (wanted.chip) await this.page.devices.useDevice(wanted.chip, wanted.slice ?? "");
  }

  /** The device and ranks a link asks for: its own, else its example's. */
  private linkedDevice(l: Link | null): LinkSettings {
    const example = linkedExample(l)?.settings;
    return { chip: l?.chip ?? example?.chip, slice: l?.slice ?? example?.slice, ranks: l?.ranks ?? example?.ranks };
  }

  /** Opens `link` over the editor's program, keeping that program one undo away. */
  private open(link: Link | null) {
    const { editor, toolbar, devices } = this.page;
    const linked = linkedSource(link);
    if (!link || linked === undefined) return;
    if (link.mode) toolbar.mode = link.mode;
    if (link.args !== undefined) toolbar.args = link.args;
    const ranks = this.linkedDevice(link).ranks;
    if (ranks) devices.useRanks(ranks);
    const mine = editor.state.doc.toString();
    if (mine !== linked) {
      if (alreadyOpened(location.hash)) {
        // This link was opened before and the program edited since: keep the edits.
        toolbar.showNotice("Your edited draft is kept.", "Open the link's program", () => replaceProgram(editor, linked));
      } else {
        replaceProgram(editor, linked);
        toolbar.showNotice("Opened the link's program; your draft is one undo away.", "Restore your draft", () =>
          replaceProgram(editor, mine),
        );
      }
    }
    rememberOpened(location.hash);
  }

  /** The examples menu: the example replaces the program, one undo away, with its settings. */
  private openExample(example: Example) {
    const { editor, toolbar, devices } = this.page;
    const before = editor.state.doc.toString();
    if (before === example.source) return;
    replaceProgram(editor, example.source);
    if (example.settings) {
      devices.useRanks(example.settings.ranks);
      void devices.useDevice(example.settings.chip, example.settings.slice);
    } else {
      // A program that is not a torch.distributed one runs as one process
      // on one chip, whatever the last distributed example set.
      devices.useRanks("1");
      if (devices.current.slice) void devices.useDevice(devices.current.chip, "");
    }
    history.replaceState(null, "", exampleUrl(example.id));
    rememberOpened(location.hash);
    toolbar.showNotice(`Loaded “${example.title}”; Ctrl+Z brings your program back.`, "Restore your program", () =>
      replaceProgram(editor, before),
    );
  }

  /** Share: a link with the program, its mode, chip, slice, ranks and arguments, copied if the browser lets us. */
  private async share() {
    const { editor, toolbar, devices } = this.page;
    const ranks = devices.ranks === "1" ? undefined : devices.ranks;
    const args = toolbar.args.trim() || undefined;
    const url = await shareUrl(editor.state.doc.toString(), { mode: toolbar.mode, ...devices.current, ranks, args });
    history.replaceState(null, "", url);
    rememberOpened(location.hash);
    try {
      await navigator.clipboard.writeText(url);
      this.status.textContent = "link copied";
    } catch {
      this.status.textContent = "link in the address bar";
    }
  }
}
