// tpu-playground as a library: `createPlayground()` starts the runtime in a
// Web Worker and resolves to a client whose `run(source, options)` resolves
// to the run's typed Report; what the program prints streams to `onOutput` as
// it prints it, and the line it runs to `onProgress`. `stop()` ends a run in
// flight at once (the worker is terminated and a fresh one started); its `run`
// promise rejects with a `StoppedError`. `setBackend()` restarts the runtime
// on another backend.
import type { BackendChoice, ChipPreset, FileInfo, FilesRequest, FromWorker, ToWorker } from "./protocol.js";
import type { EagerMode, Report } from "./report.js";

export type * from "./report.js";
export type { BackendChoice, ChipPreset, Figure, FileInfo } from "./protocol.js";

export interface RunOptions {
  /** The eager mode the program starts in (default: strict). */
  mode?: EagerMode;
  /** A wall-clock limit: past it the program ends with a `TimeoutError`
   * naming its line (default: none). */
  timeoutMs?: number | null;
  /** `sys.argv[1:]`, as `python main.py ARGS...` would give them (one
   * process only; default none). */
  argv?: string[];
  /** Receives what the program prints, chunk by chunk, as it prints it. */
  onOutput?: (text: string) => void;
  /** Receives the line the program is running, at most every ~100 ms. */
  onProgress?: (line: number, elapsedMs: number) => void;
  /** Runs the program as this many ranks of `torch.distributed` (1 to 64),
   * one per chip, as `torchrun --nproc-per-node` would: each complete line
   * of output arrives prefixed `[rankK]:`, and the Report's `world` holds
   * each rank's part (`world.ranks[k].stdout` unprefixed), the collectives
   * between them and any deadlock. The ranks run on the chosen slice, which
   * must have a chip per rank, or without one on the smallest slice that
   * has. Default: none, a single process. */
  nproc?: number | null;
}

export interface PlaygroundOptions {
  /** The simulated TPU runs are costed on (default: v5e; no slice: one
   * chip, or for a run of ranks the smallest slice with a chip per rank). */
  chip?: string;
  slice?: string;
  /** Which backend runs `tpu` tensors (default: auto, WebGPU when there is one). */
  backend?: BackendChoice;
  /** How many threads the CPU reference backend's large matrix products
   * may use: the runtime's worker and `threads - 1` helper workers, each
   * with an instance of the module (about 21 MB). Default: the machine's
   * cores, up to 4; 1 uses no helpers. Needs JavaScript Promise
   * Integration; WebGPU runs use none. */
  threads?: number;
  /** Starts the runtime's worker; by default the package's own worker.js. */
  createWorker?: () => Worker;
}

export interface Playground {
  /** `wgpu` (WebGPU) or `reference` (the CPU backend, when WebGPU is missing). */
  readonly backend: string;
  /** The backend and its adapter in words, e.g. "WebGPU (SwiftShader, software)". */
  readonly backendLabel: string;
  /** Whether that adapter is a software (CPU) implementation of WebGPU. */
  readonly software: boolean;
  /** Threads the CPU reference backend's large matrix products use (the
   * runtime's worker and its helpers); 1 on WebGPU. */
  readonly threads: number;
  /** Why WebGPU was not used, if it was not. */
  readonly fallbackReason: string | null;
  /** The device model's chip presets, with each figure's source. */
  readonly chips: ChipPreset[];
  /** The precompiled kernel library (WebGPU): kernels compiled so far in
   * the background and still to compile; the worker compiles it while idle,
   * so a run never waits for it. */
  readonly library: { compiled: number; remaining: number };
  /** Called as the library's compilation progresses. */
  onLibrary: ((library: { compiled: number; remaining: number }) => void) | null;
  run(source: string, options?: RunOptions): Promise<Report>;
  /** Chooses the simulated TPU for the next runs; rejects an impossible
   * slice. Without a slice (or an empty one): one chip, or for a run of
   * ranks the smallest slice with a chip per rank. */
  setDevice(chip: string, slice?: string): Promise<void>;
  /** A report's simulated timeline as Chrome Trace Event JSON (Perfetto). */
  chromeTrace(report: Report): Promise<object>;
  /** The program's files (`open("input.txt")` reads `/home/user/input.txt`,
   * where programs start), kept in this browser between visits. */
  files(): Promise<FileInfo[]>;
  /** A file's bytes, or null if there is no such file. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Puts a file (text is written as UTF-8; a relative path is under
   * `/home/user`), making its folders; resolves to its absolute path. */
  writeFile(path: string, data: Uint8Array | string): Promise<string>;
  /** Removes a file, or a folder and all in it; whether it was there. */
  removeFile(path: string): Promise<boolean>;
  /** Restarts the runtime on `backend`; a run in flight is stopped. */
  setBackend(backend: BackendChoice): Promise<void>;
  /** Ends the run in flight, if any, and readies a fresh runtime. */
  stop(): Promise<void>;
  /** Ends the runtime for good. */
  terminate(): void;
}

export class StoppedError extends Error {
  constructor() {
    super("the run was stopped");
    this.name = "StoppedError";
  }
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

interface RunWaiter extends Waiter<Report> {
  options: RunOptions;
}

class WorkerPlayground implements Playground {
  backend = "";
  backendLabel = "";
  software = false;
  threads = 1;
  fallbackReason: string | null = null;
  chips: ChipPreset[] = [];
  library = { compiled: 0, remaining: 0 };
  onLibrary: ((library: { compiled: number; remaining: number }) => void) | null = null;
  private worker: Worker | null = null;
  private ready: Promise<void> = Promise.resolve();
  private runs = new Map<number, RunWaiter>();
  private traces = new Map<number, Waiter<object>>();
  private fileRequests = new Map<number, Waiter<unknown>>();
  private devices: Waiter<void>[] = [];
  private nextId = 1;
  private device: { chip: string; slice: string };

  constructor(
    private spawn: () => Worker,
    chip: string,
    slice: string,
    private backendChoice: BackendChoice,
    private threadChoice: number | null,
  ) {
    this.device = { chip, slice };
  }

  start(): Promise<void> {
    const worker = this.spawn();
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.onerror = (e) => reject(new Error(`the runtime's worker failed: ${e.message}`));
      worker.onmessage = (event: MessageEvent<FromWorker>) => {
        if (worker !== this.worker) return;
        const m = event.data;
        switch (m.type) {
          case "ready":
            this.backend = m.backend;
            this.backendLabel = m.backendLabel;
            this.software = m.software;
            this.threads = m.threads;
            this.fallbackReason = m.fallbackReason;
            this.chips = m.chips;
            resolve();
            break;
          case "failed":
            reject(new Error(m.message));
            break;
          case "library":
            this.library = { compiled: m.compiled, remaining: m.remaining };
            this.onLibrary?.(this.library);
            break;
          case "output":
            this.runs.get(m.id)?.options.onOutput?.(m.text);
            break;
          case "progress":
            this.runs.get(m.id)?.options.onProgress?.(m.line, m.elapsedMs);
            break;
          case "report":
            this.runs.get(m.id)?.resolve(m.report);
            this.runs.delete(m.id);
            break;
          case "error":
            this.runs.get(m.id)?.reject(new Error(m.message));
            this.runs.delete(m.id);
            // The runtime failed inside its wasm instance (a trap leaves the
            // instance unusable): the next run gets a fresh one.
            worker.terminate();
            void this.start().catch(() => {});
            break;
          case "trace":
            this.traces.get(m.id)?.resolve(m.trace);
            this.traces.delete(m.id);
            break;
          case "files": {
            const waiter = this.fileRequests.get(m.id);
            this.fileRequests.delete(m.id);
            if (m.error !== null) waiter?.reject(new Error(m.error));
            else waiter?.resolve(m.result);
            break;
          }
          case "device": {
            const waiter = this.devices.shift();
            if (m.error) waiter?.reject(new Error(m.error.replace(/^Error: /, "")));
            else waiter?.resolve();
            break;
          }
        }
      };
    });
    const threads = this.threadChoice === null ? {} : { threads: this.threadChoice };
    worker.postMessage({ type: "start", backend: this.backendChoice, ...threads } satisfies ToWorker);
    return this.ready.then(() => {
      const { chip, slice } = this.device;
      if (chip !== "v5e" || slice !== "") return this.setDevice(chip, slice);
    });
  }

  private post(message: ToWorker) {
    this.worker?.postMessage(message);
  }

  async run(source: string, options: RunOptions = {}): Promise<Report> {
    await this.ready;
    const id = this.nextId++;
    const report = new Promise<Report>((resolve, reject) => this.runs.set(id, { resolve, reject, options }));
    this.post({
      type: "run",
      id,
      source,
      mode: options.mode ?? "strict",
      timeoutMs: options.timeoutMs ?? null,
      nproc: options.nproc ?? null,
      argv: options.argv ?? [],
    });
    return report;
  }

  async chromeTrace(report: Report): Promise<object> {
    if (!report.timeline || !report.device) throw new Error("the report has no simulated timeline");
    await this.ready;
    const id = this.nextId++;
    const trace = new Promise<object>((resolve, reject) => this.traces.set(id, { resolve, reject }));
    this.post({ type: "trace", id, timeline: report.timeline, chipName: report.device.chip_name });
    return trace;
  }

  private async filesRequest<T>(request: FilesRequest): Promise<T> {
    await this.ready;
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.fileRequests.set(id, { resolve, reject }));
    this.post({ type: "files", id, request });
    return (await answer) as T;
  }
  files(): Promise<FileInfo[]> {
    return this.filesRequest({ op: "list" });
  }
  readFile(path: string): Promise<Uint8Array | null> {
    return this.filesRequest({ op: "read", path });
  }
  writeFile(path: string, data: Uint8Array | string): Promise<string> {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    return this.filesRequest({ op: "write", path, bytes });
  }
  removeFile(path: string): Promise<boolean> {
    return this.filesRequest({ op: "remove", path });
  }
  async setDevice(chip: string, slice = ""): Promise<void> {
    await this.ready;
    const done = new Promise<void>((resolve, reject) => this.devices.push({ resolve, reject }));
    this.post({ type: "device", chip, slice });
    await done;
    this.device = { chip, slice };
  }

  async setBackend(backend: BackendChoice): Promise<void> {
    this.backendChoice = backend;
    await this.stop();
  }

  async stop(): Promise<void> {
    this.worker?.terminate();
    this.abandon(new StoppedError());
    await this.start();
  }

  terminate() {
    this.worker?.terminate();
    this.worker = null;
    this.abandon(new StoppedError());
  }

  private abandon(error: Error) {
    for (const waiter of [...this.runs.values(), ...this.traces.values(), ...this.fileRequests.values()]) {
      waiter.reject(error);
    }
    this.runs.clear();
    this.traces.clear();
    this.fileRequests.clear();
    for (const waiter of this.devices) waiter.reject(error);
    this.devices = [];
  }
}

/** Starts the runtime in a Web Worker; resolves once it is ready. */
export async function createPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const spawn =
    options.createWorker ?? (() => new Worker(new URL("./worker.js", import.meta.url), { type: "module" }));
  const playground = new WorkerPlayground(
    spawn,
    options.chip ?? "v5e",
    options.slice ?? "",
    options.backend ?? "auto",
    options.threads ?? null,
  );
  await playground.start();
  return playground;
}
