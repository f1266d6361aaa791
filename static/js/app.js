// Site-wide behaviour; no inline scripts anywhere (CSP-friendly).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Buttons with data-confirm ask before a destructive action.
  document.querySelectorAll("[data-print]").forEach((el) => {
    el.addEventListener("click", () => window.print());
  });
  document.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (event) => {
      if (!window.confirm(el.dataset.confirm)) event.preventDefault();
    });
  });
});

// A failed submission's summary of mistakes (templates/tournament/partials/
// error_summary.html, the result form's own): the focus goes to it when the
// page opens, so the keyboard and the screen reader start with what went
// wrong; each of its links leads to its field's first input, with the
// field's box (a game of the result form) in view.
function errorSummary() {
  const summary = document.querySelector("[data-error-summary]");
  if (!summary) return;
  summary.addEventListener("click", (event) => {
    const link = event.target.closest('a[href^="#"]');
    const target = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target || target.getClientRects().length === 0) return; // hidden: the browser's way
    event.preventDefault();
    const box = target.closest("fieldset.game, fieldset") || target;
    box.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
    // A box taller than the window: the input itself in view.
    const rect = target.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) target.scrollIntoView({ block: "nearest" });
    window.history.replaceState(null, "", link.hash);
  });
  summary.scrollIntoView({ block: "start" });
  summary.focus({ preventScroll: true });
}
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", errorSummary);
} else {
  errorSummary();
}

// Result form: show only the fields of the chosen entry mode.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("result-form");
  if (!form) return;
  const update = () => {
    const checked = form.querySelector('input[name="mode"]:checked');
    form.dataset.mode = checked ? checked.value : "quick";
  };
  form.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", update));
  update();
});

// The navigation's menu (templates/base.html): a <details>, so it opens and
// closes without this script too. On a laptop its links stand in the row
// (open, its "Menü" hidden); on a phone Escape and a tap outside close it.
document.addEventListener("DOMContentLoaded", () => {
  const menu = document.querySelector("[data-nav-menu]");
  if (!menu) return;
  // The same width as the stylesheet's, in em: with the text at 200 % the
  // row would not fit, and the menu stays a menu.
  const wide = window.matchMedia("(min-width: 64em)");
  const fit = () => {
    menu.open = wide.matches;
  };
  wide.addEventListener("change", fit);
  fit();
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || wide.matches || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
  document.addEventListener("click", (event) => {
    if (!wide.matches && menu.open && !menu.contains(event.target)) menu.open = false;
  });
});
