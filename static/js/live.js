// Live regions: keep [data-live-key] parts of the page current without reload.
//
// The server pushes a region's rendered fragment over one websocket per page
// (tournament/live/consumers.py). If the socket drops, the page reconnects with
// exponential backoff and, meanwhile, polls each region's fragment URL with
// If-None-Match (304 while nothing changed). A slow poll also runs while the
// socket is up, as a safety net. A region whose HTML did not change gets only
// its new ETag ("etag"), kept for the next poll or reconnect. No inline
// scripts (CSP-friendly).
//
// Each update is said in a few words in the page's one live region
// ([data-live-announce], polite, not shown): what the new fragment says
// changed ([data-live-said], its key new), else that it was updated; the
// updates of one moment (the projector's slides) are said once, never the
// table itself, and nothing is said when the page opens.
//
// A region behind a personal link that is gone (a renewed player card) gets
// the server's note instead ("gone" over the socket, or a poll answered 404
// with X-Live-Gone): the page shows it and stops asking for that region; a
// page with no region left stops altogether.
"use strict";
(() => {
  const BACKOFF_MIN_MS = 1000;
  const BACKOFF_MAX_MS = 30000;
  const POLL_OFFLINE_MS = 15000;
  const POLL_ONLINE_MS = 120000;
  const COLORS = { live: "#2e7d32", connecting: "#c77700", offline: "#b3261e" };
  // Updates this close together are one update, said once.
  const SAY_AFTER_MS = 400;

  function start() {
    const status = document.querySelector("[data-live-ws]");
    const regions = Array.from(document.querySelectorAll("[data-live-key]"));
    if (!status || regions.length === 0 || !("WebSocket" in window)) return;
    const lang = document.documentElement.lang || "";
    const label = status.querySelector(".live-label");
    const dot = status.querySelector(".live-dot");
    let socket = null;
    let subscribed = false;
    let backoff = BACKOFF_MIN_MS;
    let reconnectTimer = 0;
    let pollTimer = 0;
    let updatedAt = "";
    let stopped = false;

    function setState(state) {
      status.dataset.liveState = state;
      const text = status.dataset["label" + state[0].toUpperCase() + state.slice(1)] || "";
      if (label) {
        label.textContent = updatedAt && state === "live"
          ? `${text} · ${status.dataset.labelUpdated || ""} ${updatedAt}`
          : text;
      }
      if (dot) {
        dot.textContent = "●";
        dot.style.color = COLORS[state] || "";
      }
    }

    const announcer = document.querySelector("[data-live-announce]");
    const saidKeys = new Map(regions.map((r) => [r, saidOf(r).key]));
    let toSay = [];
    let sayTimer = 0;

    function saidOf(region) {
      const said = region.querySelector("[data-live-said]");
      return said
        ? { key: said.dataset.liveSaid, text: said.textContent.trim() }
        : { key: "", text: "" };
    }

    // What this update of `region` changed, to be said with the others of
    // the moment: its fragment's words if they are new, else "updated".
    function noteChange(region) {
      if (!announcer) return;
      const said = saidOf(region);
      const isNew = said.text && said.key !== saidKeys.get(region);
      saidKeys.set(region, said.key);
      toSay.push(isNew ? said.text : "");
      window.clearTimeout(sayTimer);
      sayTimer = window.setTimeout(say, SAY_AFTER_MS);
    }

    function say() {
      const text = toSay.find(Boolean) || status.dataset.labelChanged || "";
      toSay = [];
      // Emptied first, so the same words twice are said twice.
      announcer.textContent = "";
      window.setTimeout(() => {
        announcer.textContent = text;
      }, 50);
    }

    function byKey(key) {
      return regions.find((r) => r.dataset.liveKey === key);
    }

    function swap(region, html, etag) {
      // The fragment is HTML rendered by our own server from our templates.
      region.innerHTML = html;
      region.dataset.liveEtag = etag;
      updatedAt = new Date().toLocaleTimeString(lang || undefined, {
        hour: "2-digit",
        minute: "2-digit",
      });
      noteChange(region);
      region.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
      setState(status.dataset.liveState);
    }

    // The region's link is gone: show the note (if any), ask no more.
    function end(region, html) {
      if (html !== null) region.innerHTML = html;
      const index = regions.indexOf(region);
      if (index >= 0) regions.splice(index, 1);
      if (regions.length > 0) return;
      stopped = true;
      window.clearTimeout(pollTimer);
      window.clearTimeout(reconnectTimer);
      status.hidden = true;
      if (socket) socket.close();
    }

    async function pollRegion(region) {
      const etag = region.dataset.liveEtag;
      const response = await fetch(region.dataset.liveUrl, {
        cache: "no-store",
        credentials: "same-origin",
        headers: etag ? { "If-None-Match": `"${etag}"` } : {},
      });
      if (response.status === 404) {
        end(region, response.headers.get("X-Live-Gone") ? await response.text() : null);
        return;
      }
      if (response.status !== 200) return;
      const html = await response.text();
      const tag = (response.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
      swap(region, html, tag);
    }

    async function pollAll() {
      for (const region of regions.slice()) {
        try {
          await pollRegion(region);
        } catch (error) {
          return; // offline: the next round tries again
        }
      }
    }

    // Poll slowly while live, often while not; a failed reconnect attempt
    // must not push the next poll back, so the timer is only reset when the
    // mode changes.
    let pollMode = "";

    function pollFor(mode) {
      if (mode !== pollMode) {
        pollMode = mode;
        schedulePoll();
      }
    }

    function schedulePoll() {
      window.clearTimeout(pollTimer);
      const base = pollMode === "live" ? POLL_ONLINE_MS : POLL_OFFLINE_MS;
      // Jitter, so 300 phones that lost the Wi-Fi together do not ask together.
      const delay = base * (0.75 + Math.random() * 0.5);
      pollTimer = window.setTimeout(async () => {
        if (!document.hidden) await pollAll();
        if (!stopped) schedulePoll();
      }, delay);
    }

    function scheduleReconnect() {
      window.clearTimeout(reconnectTimer);
      const delay = backoff * (0.5 + Math.random() * 0.5);
      backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
      reconnectTimer = window.setTimeout(connect, delay);
    }

    // Large fragments come as gzipped binary messages (the server packs each
    // one once for everybody); unpack them in order of arrival.
    const canUnpack = "DecompressionStream" in window;
    let queue = Promise.resolve();

    async function unpack(data) {
      if (typeof data === "string") return data;
      const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).text();
    }

    function onMessage(event) {
      queue = queue.then(() => unpack(event.data)).then(handle, () => {});
    }

    function handle(text) {
      let message;
      try {
        message = JSON.parse(text);
      } catch (error) {
        return;
      }
      if (message.type === "fragment") {
        const region = byKey(message.key);
        if (region) swap(region, message.html, message.etag);
      } else if (message.type === "etag") {
        // The region shows this already; only its ETag moved on.
        const region = byKey(message.key);
        if (region) region.dataset.liveEtag = message.etag;
      } else if (message.type === "gone") {
        const region = byKey(message.key);
        if (region) end(region, message.html);
      } else if (message.type === "subscribed") {
        subscribed = true;
        backoff = BACKOFF_MIN_MS;
        setState("live");
        pollFor("live");
      }
    }

    function connect() {
      window.clearTimeout(reconnectTimer);
      if (socket || stopped) return;
      const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
      const url = `${scheme}//${window.location.host}${status.dataset.liveWs}?lang=${encodeURIComponent(lang)}`;
      let ws;
      try {
        ws = new WebSocket(url);
      } catch (error) {
        scheduleReconnect();
        return;
      }
      socket = ws;
      ws.binaryType = "arraybuffer";
      setState("connecting");
      ws.addEventListener("open", () => {
        ws.send(JSON.stringify({
          type: "subscribe",
          regions: regions.map((r) => ({ key: r.dataset.liveKey, etag: r.dataset.liveEtag || "" })),
          gzip: canUnpack,
        }));
      });
      ws.addEventListener("message", onMessage);
      ws.addEventListener("close", () => {
        if (socket !== ws) return;
        socket = null;
        subscribed = false;
        if (stopped) return;
        setState("offline");
        pollFor("offline");
        scheduleReconnect();
      });
    }

    // A phone that wakes up or finds the Wi-Fi again should not wait out
    // its backoff: try at once, and ask for what it missed.
    function wake() {
      if (document.hidden) return;
      if (!socket) {
        backoff = BACKOFF_MIN_MS;
        connect();
      }
    }
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("online", wake);

    setState("connecting");
    connect();
    pollFor("offline");
    window.siebenschraemLive = {
      state: () => status.dataset.liveState,
      close: () => socket && socket.close(),
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
