// The compilation cache persisted between visits: the kernels a run compiled
// (their fingerprints, keys and generated WGSL) are kept in IndexedDB and
// loaded into the next session, whose Report then counts them as persisted
// hits. Storage that is unavailable (a private window, a quota) only means
// nothing persists; it never stops a run. A stored record that is not a
// cache entry is counted as corrupt by the runtime and rebuilt.

const DB = "tpu-playground";
const STORE = "kernels";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Every stored record (empty if IndexedDB is unavailable). */
export async function loadEntries(): Promise<unknown[]> {
  try {
    const db = await open();
    return await new Promise((resolve, reject) => {
      const request = db.transaction(STORE, "readonly").objectStore(STORE).getAll();
      request.onsuccess = () => resolve(request.result as unknown[]);
      request.onerror = () => reject(request.error);
    });
  } catch {
    return [];
  }
}

interface Entry {
  fingerprint: string;
  backend: string;
}

/** Stores entries under `<backend>-<fingerprint>`; failures are ignored. */
export async function saveEntries(entries: unknown[]): Promise<void> {
  if (entries.length === 0) return;
  try {
    const db = await open();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(STORE, "readwrite");
      const store = tx.objectStore(STORE);
      for (const e of entries as Entry[]) store.put(e, `${e.backend}-${e.fingerprint}`);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  } catch {
    // Nothing persists this time; the run's results stand.
  }
}
