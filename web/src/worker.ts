// The runtime's home: a dedicated Web Worker, so that a long program never
// blocks the page and a stop can end any program at once (the client
// terminates this worker and starts a fresh one). It owns the wasm Playground
// and the compilation cache kept in IndexedDB. The client's first message
// names the backend; while a program runs, what it prints and the line it is
// on are posted as they happen, and its Report at the end.
import init, { Playground, chipPresets, chromeTrace } from "../pkg/tpu_wasm.js";
import { loadEntries, saveEntries } from "./cache.js";
import type { BackendChoice, ChipPreset, FromWorker, ToWorker } from "./protocol.js";
import type { Report } from "./report.js";

let playground: Playground | null = null;

function post(message: FromWorker) {
  (self as unknown as Worker).postMessage(message);
}

/** The wasm Playground's getters that a runtime without them lacks. */
interface Labelled {
  backendLabel?: string;
  software?: boolean;
}

async function start(backend: BackendChoice) {
  try {
    await init();
    playground = await Playground.create(backend);
    playground.loadCache(await loadEntries());
    const labelled = playground as unknown as Labelled;
    post({
      type: "ready",
      backend: playground.backend,
      backendLabel: labelled.backendLabel ?? (playground.backend === "wgpu" ? "WebGPU" : "CPU reference"),
      software: labelled.software ?? false,
      fallbackReason: playground.fallbackReason ?? null,
      chips: chipPresets() as ChipPreset[],
    });
    void precompileWhileIdle();
  } catch (e) {
    post({ type: "failed", message: String(e) });
  }
}

/** The wasm Playground's precompile step (which an older build lacks):
 * the kernels left, or undefined while a run holds the runtime. */
interface Precompiling {
  precompile?: (max: number) => number | undefined;
}

/**
 * Compiles the precompiled kernel library (WebGPU only; nothing to do on
 * the CPU reference) one kernel per turn of the event loop, so that a Run
 * message is handled at the next turn and never waits for the library.
 */
async function precompileWhileIdle() {
  const step = (playground as unknown as Precompiling | null)?.precompile;
  if (!playground || !step) return;
  let compiled = 0;
  let remaining = step.call(playground, 0);
  while (remaining === undefined || remaining > 0) {
    const left = step.call(playground, 1);
    if (left !== undefined && remaining !== undefined && left < remaining) {
      compiled += remaining - left;
      post({ type: "library", compiled, remaining: left });
    }
    if (left !== undefined) remaining = left;
    // One kernel at a time, spaced out: the browser compiles a pipeline in
    // its GPU process after `createComputePipeline` returns, and there a
    // backlog of them (on SwiftShader, 100 kernels took seconds) held up the
    // page's own frames. During a run nothing compiles.
    await new Promise((resolve) => setTimeout(resolve, left === undefined ? 50 : 100));
  }
}

/** `Playground.run` with its options: the time limit and the two streams. */
type RunWithOptions = (
  source: string,
  mode: string,
  options: {
    timeoutMs?: number;
    nproc?: number;
    onOutput: (text: string) => void;
    onProgress: (line: number, elapsedMs: number) => void;
  },
) => Promise<unknown>;

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "start") {
    await start(message.backend);
    return;
  }
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
  const { id } = message;
  const started = performance.now();
  try {
    const run = playground.run.bind(playground) as unknown as RunWithOptions;
    const report = (await run(message.source, message.mode, {
      ...(message.timeoutMs ? { timeoutMs: message.timeoutMs } : {}),
      ...(message.nproc ? { nproc: message.nproc } : {}),
      onOutput: (text) => post({ type: "output", id, text }),
      onProgress: (line, elapsedMs) => post({ type: "progress", id, line, elapsedMs }),
    })) as Report;
    report.measured_ms = performance.now() - started;
    // Persist before answering, so that a reload right after sees the entries.
    await saveEntries(playground.takeCacheEntries() as unknown[]);
    post({ type: "report", id, report });
  } catch (e) {
    post({ type: "error", id, message: String(e) });
  }
};
