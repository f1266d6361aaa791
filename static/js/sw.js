// The service worker of the installable web app, served from
// /sw.js by tournament/webapp/views.py, which puts `CONFIG` in front of this
// file: its version, the static files to keep, the pages it may keep and the
// words of its offline page in the visitor's language.
//
// - Static files (hashed names, never changed in place): from the cache,
//   else the network (and kept).
// - Pages (a player's, the referees' entry pages, the public ones): from the
//   network, and a copy with its time kept; without the network (or when it
//   takes longer than CONFIG.pageTimeout and a copy exists) the last copy.
//   The page itself shows "Stand von 14:32" (static/js/offline.js asks here
//   whether it came from the cache, and of when).
// - POSTs are never touched: the outbox (static/js/outbox.js) keeps and
//   repeats them, with their keys.
/* global CONFIG */
"use strict";

const STATIC_CACHE = `static-${CONFIG.version}`;
const PAGE_CACHE = "pages-v1";
const COPY_HEADER = "X-Copy-Time";
const MAX_PAGES = 60;
// Pages served from the cache: the id of the window they went to -> the
// copy's time. offline.js asks for its own on load.
const fromCache = new Map();

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      // One by one: a file missing (a development server) must not keep the
      // rest out.
      .then((cache) =>
        Promise.all(CONFIG.assets.map((url) => cache.add(url).catch(() => undefined)))
      )
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("static-") && name !== STATIC_CACHE)
            .map((name) => caches.delete(name))
        )
      )
      .then(() => self.clients.claim())
  );
});

function isPage(url) {
  if (!CONFIG.pages.some((prefix) => url.pathname === prefix || url.pathname.startsWith(prefix))) {
    return false;
  }
  return !CONFIG.notPages.some((part) => url.pathname.includes(part));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(CONFIG.staticUrl)) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate" && isPage(url)) {
    event.respondWith(page(event));
  }
});

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    cache.put(request, response.clone()).catch(() => undefined);
  }
  return response;
}

async function keep(request, response) {
  // Only a whole page of this site, as its own address answered it.
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.type !== "basic" || response.redirected) return;
  if (!type.startsWith("text/html")) return;
  const headers = new Headers(response.headers);
  headers.set(COPY_HEADER, String(Date.now()));
  const body = await response.blob();
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(
    request.url,
    new Response(body, { status: response.status, statusText: response.statusText, headers })
  );
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) {
    await cache.delete(old);
  }
}

function page(event) {
  const request = event.request;
  let kept = Promise.resolve();
  const network = fetch(request).then((response) => {
    kept = keep(request, response.clone());
    return response;
  });
  // The copy is written even when the answer came too late to be shown.
  event.waitUntil(network.then(() => kept).catch(() => undefined));
  return answer(event, network);
}

async function answer(event, network) {
  const cache = await caches.open(PAGE_CACHE);
  const copy = await cache.match(event.request.url);
  const fallback = () => {
    if (!copy) return offlinePage();
    fromCache.set(event.resultingClientId || event.clientId, Number(copy.headers.get(COPY_HEADER)));
    return copy;
  };
  if (!copy) {
    // Nothing kept: wait for the network as long as it takes.
    return network.catch(fallback);
  }
  // A copy exists: a network that does not answer in time is no network.
  let timer = 0;
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), CONFIG.pageTimeout);
  });
  try {
    return await Promise.race([network, late]);
  } catch (error) {
    return fallback();
  } finally {
    clearTimeout(timer);
  }
}

function offlinePage() {
  const text = CONFIG.offline;
  const html =
    `<!DOCTYPE html><html lang="${text.lang}"><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${text.title}</title><body style="font-family:sans-serif;margin:1.5rem">` +
    `<h1 style="font-size:1.3rem">${text.title}</h1><p>${text.body}</p>` +
    `<p><a href="/">${text.home}</a></p></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports && event.ports[0];
  if (data.type === "copy-time" && port) {
    // Was this window's page the kept copy? When was it kept?
    const id = event.source && event.source.id;
    const time = fromCache.get(id);
    fromCache.delete(id);
    port.postMessage({ fromCache: time !== undefined, time: time || null });
  } else if (data.type === "forget-pages") {
    // Signed out: nobody else reads this person's pages on this phone.
    event.waitUntil(caches.delete(PAGE_CACHE));
  }
});
