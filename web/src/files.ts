// The program's files kept between visits: what a program wrote (a
// checkpoint, a log) and what was put there for it (nanoGPT's input.txt)
// live in the runtime's in-memory file system while the page is open, and in
// IndexedDB between visits. The worker loads them when it starts and saves
// what changed after each run. Storage that is unavailable (a private
// window, a quota) only means nothing persists; it never stops a run.

const DB = "tpu-playground-files";
const STORE = "files";

/** One file as stored: its absolute path and its bytes. */
export interface StoredFile {
  path: string;
  bytes: Uint8Array;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "path" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every stored file (none if IndexedDB is unavailable). */
export async function loadFiles(): Promise<StoredFile[]> {
  try {
    const db = await open();
    return await new Promise((resolve, reject) => {
      const request = db.transaction(STORE, "readonly").objectStore(STORE).getAll();
      request.onsuccess = () => resolve(request.result as StoredFile[]);
      request.onerror = () => reject(request.error);
    });
  } catch {
    return [];
  }
}

/** Stores `changed` and forgets `removed`; failures are ignored. */
export async function saveFiles(changed: StoredFile[], removed: string[]): Promise<void> {
  if (changed.length === 0 && removed.length === 0) return;
  try {
    const db = await open();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      for (const file of changed) store.put(file);
      for (const path of removed) store.delete(path);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  } catch {
    // Nothing persists this time; the files stay for this visit.
  }
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The wasm Playground's side of the files (see crates/tpu-wasm/src/python.rs). */
export interface FileSystem {
  files(): { path: string; size: number }[];
  readFile(path: string): Uint8Array | undefined;
  writeFile(path: string, bytes: Uint8Array): string;
  removeFile(path: string): boolean;
}

/**
 * Keeps IndexedDB in step with the runtime's files: `load` puts the stored
 * files in at start; `sync` stores what changed since (after a run, or a
 * file put or removed through the API).
 */
export class KeptFiles {
  private known = new Map<string, Uint8Array>();

  constructor(private fs: FileSystem) {}

  async load() {
    for (const file of await loadFiles()) {
      try {
        this.fs.writeFile(file.path, file.bytes);
        this.known.set(file.path, file.bytes);
      } catch {
        // A stored file that no longer fits (a folder took its name) is dropped.
      }
    }
  }

  async sync() {
    const now = new Map<string, Uint8Array>();
    for (const { path } of this.fs.files()) {
      const bytes = this.fs.readFile(path);
      if (bytes) now.set(path, bytes);
    }
    const changed: StoredFile[] = [];
    for (const [path, bytes] of now) {
      const before = this.known.get(path);
      if (!before || !same(before, bytes)) changed.push({ path, bytes });
    }
    const removed = [...this.known.keys()].filter((path) => !now.has(path));
    this.known = now;
    await saveFiles(changed, removed);
  }
}
