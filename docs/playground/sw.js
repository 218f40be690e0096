// Caches the playground's files so that it opens and runs without a
// network once it has been loaded. Network first: a new build is picked up
// whenever there is a network; the cache answers when there is none.
const CACHE = "shguard-playground";
const FILES = ["./", "index.html", "playground.js", "playground.css", "wasm_exec.js", "shguard.wasm"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET") return;
  e.respondWith(
    fetch(e.request)
      .then((r) => {
        const copy = r.clone();
        caches.open(CACHE).then((c) => c.put(e.request, copy));
        return r;
      })
      .catch(() => caches.match(e.request, { ignoreSearch: true }))
  );
});
