// The photo of a score sheet (templates/tournament/sheetphoto/upload.html):
// scale the chosen photo in the browser to at most 2400 px on its long side
// (a phone's 12 MP photo becomes a few hundred KB instead of several MB on
// the hall's Wi-Fi) and send it as soon as it is taken. The server reads at
// that size anyway. Where anything here is missing (no canvas, no
// DataTransfer to put the smaller file back) the photo goes as it is; without
// script the button sends it. No inline scripts (CSP).
"use strict";
(() => {
  const LONG_SIDE = 2400;
  const QUALITY = 0.9;

  // Upright as the camera meant it (EXIF orientation). createImageBitmap
  // needs no image address: the CSP allows no blob: images, so an <img>
  // of the file would be refused. A browser without it, or a file it cannot
  // decode, sends the photo as it is and the server says what it is.
  const decoded = (file) => createImageBitmap(file, { imageOrientation: "from-image" });

  async function scaled(file) {
    const image = await decoded(file);
    const width = image.width;
    const height = image.height;
    const scale = LONG_SIDE / Math.max(width, height);
    if (scale >= 1 && file.type === "image/jpeg") return file;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * Math.min(scale, 1));
    canvas.height = Math.round(height * Math.min(scale, 1));
    const context = canvas.getContext("2d");
    context.imageSmoothingQuality = "high";
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    image.close();
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", QUALITY));
    if (!blob || blob.size >= file.size) return file;
    const name = (file.name || "spielliste").replace(/\.[^.]*$/, "") + ".jpg";
    return new File([blob], name, { type: "image/jpeg" });
  }

  function setup(form) {
    const input = form.querySelector('input[type="file"]');
    const status = form.querySelector("[data-photo-status]");
    const button = form.querySelector('button[type="submit"]');
    if (!input || !("DataTransfer" in window) || !("createImageBitmap" in window)) return;
    let busy = false;
    const send = () => {
      if (status) status.textContent = form.dataset.reading || "";
      if (button) button.setAttribute("aria-busy", "true");
      form.submit();
    };
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file || busy) return;
      busy = true;
      if (status) status.textContent = form.dataset.preparing || "";
      try {
        const smaller = await scaled(file);
        if (smaller !== file) {
          const transfer = new DataTransfer();
          transfer.items.add(smaller);
          input.files = transfer.files;
        }
      } catch (error) {
        // Not decodable in this browser: the server says what it is.
      }
      send();
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-sheet-photo]").forEach(setup);
  });
})();
