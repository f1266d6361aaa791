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
