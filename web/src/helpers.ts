// The runtime worker's helpers: Web Workers (helper.ts) that compute shares
// of the reference backend's large matrix products, so that a run on the CPU
// reference uses more than one core. The runtime hands a run's shares to
// `send` (Playground.setHelpers) and suspends until they are back.

/** The most helpers a runtime starts: each holds an instance of the module
 * (about 21 MB of memory before it computes anything). */
const MOST_HELPERS = 3;

/** A product's share, as the runtime hands it out: `[batch, m, k] @
 * [batch, k, n]`, the operands dense, row-major or where `aT`/`bT` say so
 * stored transposed. */
export interface Share {
  batch: number;
  m: number;
  k: number;
  n: number;
  a: Float32Array;
  b: Float32Array;
  aT: boolean;
  bT: boolean;
}

export type ToHelper = { type: "start"; module: WebAssembly.Module } | ({ type: "share"; id: number } & Share);

export type FromHelper =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "product"; id: number; product: Float32Array }
  | { type: "error"; id: number; message: string };

interface Waiter {
  resolve(product: Float32Array): void;
  reject(error: Error): void;
}

/** How many threads to use where `threads` was not asked for: the
 * machine's cores, up to one runtime and its most helpers. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 1, MOST_HELPERS + 1));
}

export class HelperPool {
  private waiting = new Map<number, Waiter>();
  private nextId = 1;
  private failed = false;

  private constructor(private helpers: Worker[]) {
    for (const helper of helpers) {
      helper.onmessage = (event: MessageEvent<FromHelper>) => {
        const m = event.data;
        if (m.type !== "product" && m.type !== "error") return;
        const waiter = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.type === "product") waiter?.resolve(m.product);
        else waiter?.reject(new Error(m.message));
      };
      // A helper that dies fails its shares, and every later one (nothing
      // would answer them); the runtime computes them itself.
      helper.onerror = () => {
        this.failed = true;
        for (const waiter of this.waiting.values()) waiter.reject(new Error("a helper failed"));
        this.waiting.clear();
      };
    }
  }

  /** Starts `count` helpers (at most MOST_HELPERS) on `module`; resolves
   * once they are ready, to the pool of those that started (null: none). */
  static async start(module: WebAssembly.Module, count: number): Promise<HelperPool | null> {
    const wanted = Math.max(0, Math.min(count, MOST_HELPERS));
    const started = await Promise.all(
      Array.from({ length: wanted }, () => startHelper(module).catch(() => null)),
    );
    const helpers = started.filter((h): h is Worker => h !== null);
    return helpers.length > 0 ? new HelperPool(helpers) : null;
  }

  get count(): number {
    return this.helpers.length;
  }

  /** Hands share `i` to helper `i`; resolves to their products in order. */
  send(shares: Share[]): Promise<Float32Array[]> {
    if (this.failed) return Promise.reject(new Error("a helper failed"));
    return Promise.all(
      shares.map(
        (share, i) =>
          new Promise<Float32Array>((resolve, reject) => {
            const id = this.nextId++;
            this.waiting.set(id, { resolve, reject });
            const message: ToHelper = { type: "share", id, ...share };
            this.helpers[i % this.helpers.length].postMessage(message, [share.a.buffer, share.b.buffer]);
          }),
      ),
    );
  }
}

/** One helper, ready; rejects (never throws) where none can start. */
async function startHelper(module: WebAssembly.Module): Promise<Worker> {
  const helper = new Worker(new URL("./helper.js", import.meta.url), { type: "module" });
  return new Promise<Worker>((resolve, reject) => {
    helper.onerror = (e) => {
      helper.terminate();
      reject(new Error(`a helper failed to start: ${e.message}`));
    };
    helper.onmessage = (event: MessageEvent<FromHelper>) => {
      if (event.data.type === "ready") resolve(helper);
      else {
        helper.terminate();
        reject(new Error(event.data.type === "failed" ? event.data.message : "a helper failed to start"));
      }
    };
    helper.postMessage({ type: "start", module } satisfies ToHelper);
  });
}
