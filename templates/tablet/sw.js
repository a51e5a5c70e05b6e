/* The scoring tablet's offline shell: a service worker served at /tablet/sw.js (scope /tablet/) by
 * web/views/tablet.py, which writes VERSION (a digest of every shell file) and SHELL (their addresses).
 *
 * - It caches the page shell and its static files under a cache named by VERSION, and answers them from
 *   that cache first, so the page opens after a reload or a browser restart with no network.
 * - It never caches an API answer (/api/...) nor the pairing page (/tablet/pair/...): those always go to
 *   the network as if there were no service worker. The last board state and the queue live in the
 *   page's localStorage, not here.
 * - A new version installs beside the old one and waits: the page tells it to take over only when its
 *   queue is empty ("activate-now"), so a half-sent queue is never handled by a page of another version.
 * - The icons are not fetched by the install: the page's icon link has just fetched the 192 px one (and the
 *   browser fetches the manifest's when it installs the app), so the install would download it a second
 *   time on every first load. They join the cache when a request for them comes through this worker; the
 *   page works offline without them (the browser's own icon shows).
 * - A service worker needs a secure context: https, or http://localhost.
 */
"use strict";
var VERSION = {{ version_json|safe }};
var SHELL = {{ shell_json|safe }};
var PREFIX = "hangjack-tablet-";
var CACHE = PREFIX + VERSION;
var PRECACHE = SHELL.filter(function (url) { return !/\.(png|ico|svg|webp)$/.test(url); });

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return Promise.all(PRECACHE.map(function (url) {
      return fetch(new Request(url, { cache: "reload", credentials: "same-origin" })).then(function (response) {
        if (!response.ok) throw new Error("shell file " + url + " answered " + response.status);
        return cache.put(url, response);
      });
    }));
  }));
  // No skipWaiting() here: the page decides when (its queue is empty).
});

self.addEventListener("message", function (event) {
  if (event.data === "activate-now") event.waitUntil(self.skipWaiting());
  if (event.data === "version" && event.source) event.source.postMessage({ version: VERSION });
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf(PREFIX) === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0) return;          // never an API answer
  if (url.pathname.indexOf("/tablet/pair/") === 0) return;  // never the pairing page (its code)
  if (SHELL.indexOf(url.pathname) === -1) return;           // not ours: the network as usual
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(url.pathname).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) cache.put(url.pathname, response.clone());
        return response;
      });
    });
  }));
});
