// The phone without the network: registers the service worker
// (static/js/sw.js, served from /sw.js), and shows "Stand von 14:32" on a
// page that is a kept copy or that has lost the network, with the time of
// the copy (asked of the service worker) or of the page's last update (its
// render time, then every live update). Signing out forgets the kept pages.
// Words and addresses come from templates/tournament/webapp/phone.html.
"use strict";
(() => {
  const root = document.querySelector("[data-webapp]");
  if (!root) return;
  const texts = root.dataset;
  const lang = document.documentElement.lang || undefined;
  const banner = root.querySelector("[data-offline-banner]");
  const label = root.querySelector("[data-offline-text]");
  const reload = root.querySelector("[data-offline-reload]");
  let pageTime = Date.parse(texts.pageTime) || Date.now();
  let copyTime = null; // set when this page is the service worker's copy

  function clock(ms) {
    return new Date(ms).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  }

  function render() {
    const offline = navigator.onLine === false;
    const stale = copyTime !== null;
    banner.hidden = !(offline || stale);
    if (banner.hidden) return;
    const time = clock(stale ? copyTime : pageTime);
    const stand = (texts.textStand || "").replace("{time}", time);
    label.textContent = offline ? `${texts.textOffline} ${stand}` : stand;
    reload.hidden = offline || !stale;
  }

  reload.addEventListener("click", () => window.location.reload());
  window.addEventListener("online", render);
  window.addEventListener("offline", render);
  // static/js/live.js: a region brought up to date is the page's new time.
  document.addEventListener("live:updated", () => {
    pageTime = Date.now();
    render();
  });
  render();

  if (!("serviceWorker" in navigator)) return; // plain HTTP on a LAN address
  const worker = navigator.serviceWorker;
  worker.register(texts.sw, { scope: "/" }).catch(() => undefined);
  if (worker.controller) {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      if (event.data && event.data.fromCache) {
        copyTime = event.data.time || pageTime;
        root.dataset.fromCache = "true"; // for the browser tests
        // A message of the moment the copy was made is not news now.
        document.querySelectorAll("main > .messages").forEach((m) => m.remove());
        render();
      }
    };
    worker.controller.postMessage({ type: "copy-time" }, [channel.port2]);
  }
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const action = new URL(form.action, window.location.href).pathname;
    if (action === texts.logout && worker.controller) {
      worker.controller.postMessage({ type: "forget-pages" });
    }
  });
})();
