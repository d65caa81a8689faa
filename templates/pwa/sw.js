/* Pig Parlor service worker (version {{ version }}).
   Static shell files are cached under a name that carries a hash of their
   contents; pages always come from the network (games are live) and fall
   back to the offline page when there is none. Sockets are never touched. */
const CACHE = "pigparlor-shell-{{ version }}";
const OFFLINE_URL = "{{ offline_url }}";
const SHELL = {{ shell_urls|safe }}.concat([OFFLINE_URL]);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("pigparlor-shell-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
    return;
  }
  if (url.pathname.startsWith("{{ static_prefix }}")) {
    event.respondWith(
      caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      })))
    );
  }
});
