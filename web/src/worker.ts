// The runtime's home: a dedicated Web Worker, so that a long program never
// blocks the page and a stop can end any program at once (the client
// terminates this worker and starts a fresh one). It owns the wasm Playground
// and the compilation cache kept in IndexedDB.
import init, { Playground, chipPresets, chromeTrace } from "../pkg/tpu_wasm.js";
import { loadEntries, saveEntries } from "./cache.js";
import type { ChipPreset, FromWorker, ToWorker } from "./protocol.js";
import type { Report } from "./report.js";

let playground: Playground | null = null;

function post(message: FromWorker) {
  (self as unknown as Worker).postMessage(message);
}

async function start() {
  try {
    await init();
    playground = await Playground.create("auto");
    playground.loadCache(await loadEntries());
    post({
      type: "ready",
      backend: playground.backend,
      fallbackReason: playground.fallbackReason ?? null,
      chips: chipPresets() as ChipPreset[],
    });
  } catch (e) {
    post({ type: "failed", message: String(e) });
  }
}

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (!playground) return;
  if (message.type === "trace") {
    post({ type: "trace", id: message.id, trace: chromeTrace(message.timeline, message.chipName) as object });
    return;
  }
  if (message.type === "device") {
    let error: string | null = null;
    try {
      playground.setDevice(message.chip, message.slice);
    } catch (e) {
      error = String(e);
    }
    post({ type: "device", chip: message.chip, slice: message.slice, error });
    return;
  }
  const started = performance.now();
  try {
    const report = (await playground.run(message.source, message.mode)) as Report;
    report.measured_ms = performance.now() - started;
    // Persist before answering, so that a reload right after sees the entries.
    await saveEntries(playground.takeCacheEntries() as unknown[]);
    post({ type: "report", id: message.id, report });
  } catch (e) {
    post({ type: "error", id: message.id, message: String(e) });
  }
};

void start();
