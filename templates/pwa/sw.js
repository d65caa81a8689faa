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

/* Push notifications (pigparlor/pwa/push.py sends {kind, title, body, url, tag, badge}). */
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = {body: event.data.text()}; }
  const url = new URL(message.url || "/", self.location.origin);
  const shown = self.registration.showNotification(message.title || "Pig Parlor", {
    body: message.body || "",
    tag: message.tag || message.kind || "pigparlor",
    renotify: true,
    icon: "{{ icon }}",
    badge: "{{ badge_icon }}",
    data: {url: url.origin === self.location.origin ? url.href : self.location.origin + "/"},
  });
  const badge = typeof message.badge === "number" && self.navigator.setAppBadge
    ? (message.badge > 0 ? self.navigator.setAppBadge(message.badge) : self.navigator.clearAppBadge()).catch(() => {})
    : Promise.resolve();
  event.waitUntil(Promise.all([shown, badge]));
});

/* A click opens the page the notification is about: focus a window already on it,
   else take over one of ours, else open a new one. */
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || self.location.origin + "/";
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
    const same = windows.find((client) => client.url === target);
    if (same) return same.focus();
    const ours = windows.find((client) => new URL(client.url).origin === self.location.origin && "navigate" in client);
    if (ours) {
      return ours.focus().catch(() => ours).then(() => ours.navigate(target)).catch(() => self.clients.openWindow(target));
    }
    return self.clients.openWindow(target);
  }));
});
