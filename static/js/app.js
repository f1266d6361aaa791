// Site-wide behaviour; no inline scripts anywhere (CSP-friendly).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Buttons with data-confirm ask before a destructive action.
  document.querySelectorAll("[data-confirm]").forEach((el) => {
    el.addEventListener("click", (event) => {
      if (!window.confirm(el.dataset.confirm)) event.preventDefault();
    });
  });
});
