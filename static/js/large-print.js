// Große Schrift: a switch in the header ([data-large-print], shown only
// where this script runs) sets html.large-print, whose type is larger on
// every page (static/css/app.css). The choice is kept for a year in a
// cookie, so the server renders the next page in large print at once, and
// the projector follows the choice of the browser it runs in. The
// projector has no controls: there the keys + and - switch it, and any
// page's address takes ?schrift=gross or ?schrift=normal.
"use strict";
(() => {
  const root = document.documentElement;
  const YEAR = 365 * 24 * 60 * 60;

  function set(on) {
    root.classList.toggle("large-print", on);
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    const value = on ? `1; max-age=${YEAR}` : "; max-age=0";
    document.cookie = `large_print=${value}; path=/; SameSite=Lax${secure}`;
    document.querySelectorAll("[data-large-print]").forEach((button) => {
      button.setAttribute("aria-pressed", String(on));
    });
  }

  const asked = new URLSearchParams(window.location.search).get("schrift");
  if (asked === "gross" || asked === "normal") set(asked === "gross");

  document.querySelectorAll("[data-large-print]").forEach((button) => {
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
})();
