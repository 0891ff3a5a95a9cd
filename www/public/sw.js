// The page's service worker: it keeps the page working offline once loaded.
// Every same-origin GET goes to the network first, and what comes back is
// kept in a cache; when the network fails, the cached copy answers. So the
// page, its scripts, the runtime's worker and the wasm module are all
// available offline after one visit, and an online visit picks up new builds.
const CACHE = "tpu-playground-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(request, response.clone());
        return response;
      } catch (error) {
        const cached = await cache.match(request, { ignoreSearch: true });
        if (cached) return cached;
        throw error;
      }
    })(),
  );
});
