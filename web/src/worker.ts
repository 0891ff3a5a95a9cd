// The runtime's home: a dedicated Web Worker, so that a long program never
// blocks the page and a stop can end any program at once (the client
// terminates this worker and starts a fresh one). It owns the wasm Playground
// and the compilation cache kept in IndexedDB. The client's first message
// names the backend; while a program runs, what it prints and the line it is
// on are posted as they happen, and its Report at the end.
import init, { Playground, chipPresets, chromeTrace } from "../pkg/tpu_wasm.js";
import { loadEntries, saveEntries } from "./cache.js";
import { defaultThreads, HelperPool, type Share } from "./helpers.js";
import { type FileSystem, KeptFiles } from "./files.js";
import type { BackendChoice, ChipPreset, FileInfo, FilesRequest, FromWorker, ToWorker } from "./protocol.js";
import type { Report } from "./report.js";

let playground: Playground | null = null;
let kept: KeptFiles | null = null;

// CPython's standard library, beside the package's dist/ (or the page's
// assets/): index.json lists its files; a module is read, synchronously, the
// first time a program imports it, and kept for the worker's life and, in
// the Cache API, for later visits (offline ones too): a new worker starts
// with every module read before. Before it says it is ready, the worker
// imports torch once, so the first Run finds what every run needs read.
const PYTHON_LIB = "../python-lib/";
/** The Cache API's name for the library, followed by its index's hash, so a
 * new library (another RustPython) never reads an old one's modules. */
const LIBRARY_CACHE = "tpu-playground-python-lib-";
const libraryUrl = new URL(PYTHON_LIB, import.meta.url);
let libraryFiles = new Set<string>();
const librarySources = new Map<string, string>();
let libraryCache: Cache | null = null;

function readLibrary(path: string): string | undefined {
  if (!libraryFiles.has(path)) return undefined;
  const known = librarySources.get(path);
  if (known !== undefined) return known;
  const url = new URL(path, libraryUrl);
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  try {
    request.send();
  } catch {
    return undefined;
  }
  if (request.status !== 200) return undefined;
  librarySources.set(path, request.responseText);
  void libraryCache?.put(url, new Response(request.responseText)).catch(() => {});
  return request.responseText;
}

async function loadLibrary() {
  const response = await fetch(new URL("index.json", libraryUrl));
  if (!response.ok) throw new Error(`the standard library's index is missing (${response.status})`);
  const index = await response.text();
  libraryFiles = new Set(JSON.parse(index) as string[]);
  try {
    const name = LIBRARY_CACHE + fnv1a(index);
    for (const old of await caches.keys()) {
      if (old.startsWith(LIBRARY_CACHE) && old !== name) await caches.delete(old);
    }
    libraryCache = await caches.open(name);
    const base = libraryUrl.href;
    for (const request of await libraryCache.keys()) {
      if (!request.url.startsWith(base)) continue;
      const cached = await libraryCache.match(request);
      if (cached) librarySources.set(request.url.slice(base.length), await cached.text());
    }
  } catch {
    // No Cache API here (or no quota): modules are read over the network.
  }
}

/** FNV-1a of `text`'s UTF-16 units, in hex. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

/** The run in progress (the warm-up's or a program's): one at a time. */
let running: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(f: () => Promise<T>): Promise<T> {
  const next = running.then(f, f);
  running = next.catch(() => {});
  return next;
}

/** Imports torch once, so that the first Run finds its modules read. */
function warmUp(): Promise<void> {
  return oneAtATime(warmUpNow);
}

async function warmUpNow() {
  const run = (playground as unknown as { run?: RunPython } | null)?.run;
  if (!playground || !run) return;
  try {
    await run.call(playground, "import torch\n", "strict", { onOutput: () => {}, onProgress: () => {} });
  } catch {
    // The first real run says what is wrong.
  }
}

function post(message: FromWorker) {
  (self as unknown as Worker).postMessage(message);
}

/** The wasm Playground's getters that a runtime without them lacks. */
interface Labelled {
  backendLabel?: string;
  software?: boolean;
}

/**
 * Whether the browser has JavaScript Promise Integration, with which a run
 * waits for the GPU (and `time.sleep`) by suspending. Without it the runtime
 * still loads: the two JSPI entry points become plain calls, which is right
 * for the CPU reference backend, whose reads never wait; so that backend is
 * the one used, `time.sleep` returns at once, and runs of several ranks
 * (which take turns by suspending) are refused.
 */
function promiseIntegration(): boolean {
  const wasm = WebAssembly as unknown as Record<string, unknown>;
  if (typeof wasm.Suspending === "function" && typeof wasm.promising === "function") return true;
  // Marked, so the runtime refuses what needs real suspension (ranks).
  wasm.Suspending = Object.assign(
    function Suspending(f: (...args: unknown[]) => unknown) {
      return f;
    },
    { polyfill: true },
  );
  wasm.promising = (f: (...args: unknown[]) => unknown) => async (...args: unknown[]) => f(...args);
  return false;
}

/** The runtime's module, compiled once: helpers instantiate it too. */
async function compileRuntime(): Promise<WebAssembly.Module> {
  const url = new URL("../pkg/tpu_wasm_bg.wasm", import.meta.url);
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // Served without the application/wasm type: compiled from its bytes.
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the runtime's module is missing (${response.status})`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

/**
 * Starts helpers for the CPU reference backend's large matrix products
 * (`threads` - 1 of them, helpers.ts), where runs can wait for them by
 * suspending (JSPI); the runtime then hands them shares.
 */
async function startHelpers(module: WebAssembly.Module, threads: number, jspi: boolean) {
  if (!playground || !jspi || playground.backend !== "reference" || threads < 2) return;
  // Without helpers (a host that refuses workers started by workers) the
  // runtime runs on its one thread.
  const pool = await HelperPool.start(module, Math.floor(threads) - 1).catch(() => null);
  if (pool) playground.setHelpers(pool.count, (shares: Share[]) => pool.send(shares));
}

async function start(backend: BackendChoice, threads: number) {
  try {
    const jspi = promiseIntegration();
    if (!jspi) backend = "reference";
    const module = await compileRuntime();
    await init({ module_or_path: module });
    const library = loadLibrary();
    playground = await Playground.create(backend);
    const helpers = startHelpers(module, threads, jspi);
    await library;
    playground.setPythonLibrary(readLibrary);
    kept = new KeptFiles(playground as unknown as FileSystem);
    await kept.load();
    // Ready once torch has been imported: the modules every run needs are
    // read (and kept for offline visits), and so is the torch prelude's code.
    await warmUp();
    playground.loadCache(await loadEntries());
    await helpers;
    const labelled = playground as unknown as Labelled;
    post({
      type: "ready",
      backend: playground.backend,
      backendLabel: labelled.backendLabel ?? (playground.backend === "wgpu" ? "WebGPU" : "CPU reference"),
      software: labelled.software ?? false,
      threads: playground.productThreads,
      fallbackReason: jspi
        ? (playground.fallbackReason ?? null)
        : "this browser has no JavaScript Promise Integration (WebAssembly.Suspending), which a run needs to wait for WebGPU",
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
    // its GPU process after `createComputePipeline` returns, where the
    // page's own frames are drawn too. A step compiles nothing until the
    // GPU process has finished the last one (the library counts it as
    // remaining until then), so no backlog builds up there (one did: 100
    // kernels asked for in 10 s, compiled by SwiftShader in 40, held a click
    // for 5 s after the library said it was ready). During a run nothing
    // compiles.
    await new Promise((resolve) => setTimeout(resolve, left === undefined ? 50 : 100));
  }
}

function answer(fs: FileSystem, request: FilesRequest): FileInfo[] | Uint8Array | string | boolean | null {
  switch (request.op) {
    case "list":
      return fs.files();
    case "read":
      return fs.readFile(request.path) ?? null;
    case "write":
      return fs.writeFile(request.path, request.bytes);
    case "remove":
      return fs.removeFile(request.path);
  }
}

/** `Playground.run` with its options. */
type RunPython = (
  source: string,
  mode: string,
  options: {
    timeoutMs?: number;
    nproc?: number;
    argv?: string[];
    onOutput: (text: string, stream: string) => void;
    onProgress: (line: number, elapsedMs: number) => void;
  },
) => Promise<unknown>;

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "start") {
    await start(message.backend, message.threads ?? defaultThreads());
    return;
  }
  if (!playground) return;
  if (message.type === "trace") {
    post({ type: "trace", id: message.id, trace: chromeTrace(message.timeline, message.chipName) as object });
    return;
  }
  if (message.type === "files") {
    let result: FileInfo[] | Uint8Array | string | boolean | null = null;
    let error: string | null = null;
    try {
      result = answer(playground as unknown as FileSystem, message.request);
      if (message.request.op === "write" || message.request.op === "remove") await kept?.sync();
    } catch (e) {
      error = String(e).replace(/^Error: /, "");
    }
    post({ type: "files", id: message.id, result, error });
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
  await oneAtATime(() => runProgram(message));
};

/** The run in progress, for a failure no promise of its own reports. */
let inFlight: number | null = null;

// A trap in a rank (each rank runs as a task of its own, whose failure
// rejects a promise nobody awaits) leaves the run waiting for that rank
// forever: the run fails instead, and the page replaces the worker, whose
// instance a trap has left unusable.
self.addEventListener("unhandledrejection", (event) => {
  const reason: unknown = (event as PromiseRejectionEvent).reason;
  // Only the instance's own failures: a trap, or its stack overflowing.
  const trapped = reason instanceof WebAssembly.RuntimeError || reason instanceof RangeError;
  if (inFlight === null || !trapped) return;
  post({ type: "error", id: inFlight, message: String(reason) });
  inFlight = null;
});

async function runProgram(message: Extract<ToWorker, { type: "run" }>) {
  if (!playground) return;
  const { id } = message;
  inFlight = id;
  const started = performance.now();
  try {
    const onOutput = (text: string) => post({ type: "output", id, text });
    const onProgress = (line: number, elapsedMs: number) => post({ type: "progress", id, line, elapsedMs });
    const timeout = message.timeoutMs ? { timeoutMs: message.timeoutMs } : {};
    // RustPython: CPython's language and library, one interpreter per rank.
    const run = playground.run.bind(playground) as unknown as RunPython;
    const report = (await run(message.source, message.mode, {
      ...timeout,
      ...(message.nproc ? { nproc: message.nproc } : {}),
      argv: message.argv ?? [],
      onOutput,
      onProgress,
    })) as Report;
    report.measured_ms = performance.now() - started;
    // Persist before answering, so that a reload right after sees the
    // entries and the files the run wrote.
    await saveEntries(playground.takeCacheEntries() as unknown[]);
    await kept?.sync();
    post({ type: "report", id, report });
  } catch (e) {
    post({ type: "error", id, message: String(e) });
  } finally {
    inFlight = null;
  }
}
