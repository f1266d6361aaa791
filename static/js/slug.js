// New tournament: the short name (slug) follows the name while it is typed,
// as an address takes it: lower case, umlauts spelt out (ä → ae, ß → ss),
// other accents dropped, anything else a single hyphen. "RM Daun 2027" →
// "rm-daun-2027". Once the organizer types a slug of his own it is left
// alone (emptied, it follows again). No inline scripts (CSP).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-slug-from][data-slug-to]");
  if (!form) return;
  const source = document.getElementById(form.dataset.slugFrom);
  const target = document.getElementById(form.dataset.slugTo);
  if (!source || !target) return;
  const max = Number(target.getAttribute("maxlength")) || 80;
  const spelt = { "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss" };
  const slugify = (text) =>
    text
      .toLowerCase()
      .replace(/[äöüß]/g, (ch) => spelt[ch])
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, max)
      .replace(/-+$/, "");
  // Following unless the page came with a slug of its own (a refused form).
  let following = target.value === "" || target.value === slugify(source.value);
  source.addEventListener("input", () => {
    if (following) target.value = slugify(source.value);
  });
  target.addEventListener("input", () => {
    following = target.value === "" || target.value === slugify(source.value);
  });
});
