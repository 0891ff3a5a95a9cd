// The page: a CodeMirror editor, Run and Stop, and panels that render the
// Report the runtime returns. This file only wires the page's parts, each of
// which owns its own state: the toolbar's settings (toolbar.ts), the Chip
// panel's device and ranks (device-picker.ts), the run loop on the npm
// package's client (runner.ts), the results pane and its panels
// (results.ts), and what the URL opens (links.ts). The page computes
// nothing itself; everything it shows comes from the runtime.
import type { Report } from "tpu-playground/report";
import { DevicePicker } from "./device-picker";
import { $ } from "./dom";
import { createEditor } from "./editor";
import { EXAMPLES } from "./examples";
import { FilesPanel } from "./files";
import { Links, linkedSource } from "./links";
import { OutputPane } from "./output";
import { Results } from "./results";
import { Runner } from "./runner";
import { loadDraft, openedLink, saveDraft } from "./share";
import { Toolbar } from "./toolbar";

const toolbar = new Toolbar();
const output = new OutputPane($<HTMLElement>("#output"));
// The program: the link's (share link or example), else the saved draft,
// else the first example. Links opens the link over the draft below.
const draft = loadDraft();
const opened = await openedLink();
const editor = createEditor($("#editor"), draft ?? linkedSource(opened) ?? EXAMPLES[0].source, {
  run: () => void runner.run(),
  stop: () => runner.stopIfRunning(),
  changed: saveDraft,
});
const devices: DevicePicker = new DevicePicker(
  () => runner.client,
  () => results.openPanel("chip"),
);
const files = new FilesPanel(() => runner.client);
const runner: Runner = new Runner({
  editor,
  output,
  toolbar,
  ranks: () => Number(devices.ranks),
  device: () => {
    const { chip, slice } = devices.current;
    return `a simulated ${chip}${slice ? `, slice ${slice}` : ""}`;
  },
  starting: () => results.clear(),
  finished: (report) => {
    results.show(report);
    offerRanks(report);
    void files.refresh();
  },
});
const results = new Results(editor, output, (report) => runner.chromeTrace(report));
const links = new Links(opened, { editor, toolbar, devices });

/**
 * A torch.distributed program run as one process stops where the env://
 * rendezvous looks for torchrun's variables; the page says how to give it
 * ranks, and offers to run it as four.
 */
function offerRanks(report: Report) {
  const message = report.diagnostics[0]?.message ?? "";
  if (devices.ranks !== "1" || !/env:\/\/ rendezvous: environment variable \w+ expected, but not set/.test(message)) return;
  toolbar.showNotice(
    "This torch.distributed program ran as one process, so no launcher set RANK and WORLD_SIZE: choose ranks in the toolbar to run it as that many processes, one per chip, as torchrun --nproc-per-node does.",
    "Run as 4 ranks",
    () => {
      devices.useRanks("4");
      void runner.run();
    },
  );
}

async function start() {
  const playground = await runner.start();
  if (!playground) return;
  await links.useLinkedDevice();
  devices.showChips(playground.chips);
  runner.ready();
  void files.refresh();
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
