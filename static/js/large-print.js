// Große Schrift: a switch in the header ([data-large-print], shown only
// where this script runs) sets html.large-print, whose type is larger on
// every page (static/css/app.css). The choice is kept for a year in a
// cookie and applied here, before the page is drawn: the pages load this
// script in <head>, not deferred, because the server sends every visitor
// the same page (public pages are rendered once for all). The projector
// follows the choice of the browser it runs in; it has no controls: there
// the keys + and - switch it, and any page's address takes ?schrift=gross
// or ?schrift=normal.
"use strict";
(() => {
  const root = document.documentElement;
  const YEAR = 365 * 24 * 60 * 60;

  function buttons() {
    return document.querySelectorAll("[data-large-print]");
  }

  function set(on) {
    root.classList.toggle("large-print", on);
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    const value = on ? `1; max-age=${YEAR}` : "; max-age=0";
    document.cookie = `large_print=${value}; path=/; SameSite=Lax${secure}`;
    buttons().forEach((button) => button.setAttribute("aria-pressed", String(on)));
  }

  root.classList.toggle("large-print", /(?:^|;\s*)large_print=1(?:;|$)/.test(document.cookie));
  const asked = new URLSearchParams(window.location.search).get("schrift");
  if (asked === "gross" || asked === "normal") set(asked === "gross");

  function wire() {
    buttons().forEach((button) => {
      button.setAttribute("aria-pressed", String(root.classList.contains("large-print")));
      button.addEventListener("click", () => set(!root.classList.contains("large-print")));
      button.hidden = false;
    });
    if (document.body && document.body.classList.contains("projector")) {
      document.addEventListener("keydown", (event) => {
        if (event.key === "+") set(true);
        else if (event.key === "-") set(false);
      });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
