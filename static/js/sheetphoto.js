// The photo of a score sheet.
//
// The photo page (templates/tournament/sheetphoto/upload.html): scale the
// chosen photo in the browser to at most 2400 px on its long side (a
// phone's 12 MP photo becomes a few hundred KB instead of several MB on the
// hall's Wi-Fi) and send it as soon as it is taken. The server reads at that
// size anyway. It is sent as a form is submitted, so the phone's outbox
// (static/js/outbox.js) keeps a photo taken without network and sends it
// once the network is back; while it waits, the outbox's words replace
// "Foto wird gelesen …". Where anything here is missing (no canvas, no
// DataTransfer to put the smaller file back) the photo goes as it is;
// without script the button sends it.
//
// The review (templates/tournament/sheetphoto/review.html): the strokes of
// the outlined sheet are buttons laid over its picture. A tap switches a
// stroke between struck and standing (one read unsure becomes struck
// first), and the game's winner and marks in the form below follow: the one
// player with strokes standing wins with that many marks; while that is not
// clear (a stroke still unsure, nobody or several with strokes standing)
// the game's winner and marks are cleared and the page says why. Only the
// form is sent; the server checks it as a typed one.
//
// No inline scripts or styles (CSP): positions are set here.
"use strict";
(() => {
  const LONG_SIDE = 2400;
  const QUALITY = 0.9;

  // --- The photo page -----------------------------------------------------

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

  function setupUpload(form) {
    const input = form.querySelector('input[type="file"]');
    const status = form.querySelector("[data-photo-status]");
    const button = form.querySelector('button[type="submit"]');
    if (!input || !("DataTransfer" in window) || !("createImageBitmap" in window)) return;
    let busy = false;
    const send = () => {
      if (status) status.textContent = form.dataset.reading || "";
      if (button) button.setAttribute("aria-busy", "true");
      // As a tap on the button: the outbox (when there is one) takes it.
      if (form.requestSubmit) form.requestSubmit(button || undefined);
      else form.submit();
    };
    form.addEventListener("outbox:state", (event) => {
      // The outbox says what became of it (waiting for the network, sent,
      // refused): the page's own "being read" is over.
      if (event.detail.state === "sending") return;
      if (status) status.textContent = "";
      if (button) button.removeAttribute("aria-busy");
      busy = false;
    });
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

  // --- The review: strokes tapped on the picture ---------------------------

  const NEXT = { struck: "standing", standing: "struck", doubtful: "struck" };
  const PRESSED = { struck: "true", standing: "false", doubtful: "mixed" };

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, name) =>
      name in values ? String(values[name]) : all
    );
  }

  function setupTaps(sheet) {
    const strip = sheet.querySelector("[data-tap-strip]");
    const image = sheet.querySelector("[data-tap-image]");
    const status = sheet.querySelector("[data-tap-status]");
    const texts = sheet.dataset;
    const crop = ["left", "top", "width", "height"].map((k) => Number(texts[k]));
    if (!strip || !image || crop.some((v) => !Number.isFinite(v) || v <= 0)) return;
    const [left, top, width, height] = crop;
    // The strip shows the strokes' part of the sheet's picture: the image
    // scaled so that part fills the strip, shifted to it.
    image.style.width = `${(100 / width) * 100}%`;
    image.style.left = `${(-left / width) * 100}%`;
    image.style.top = `${(-top / height) * 100}%`;
    const setRatio = () => {
      if (!image.naturalWidth) return;
      strip.style.aspectRatio = `${(image.naturalWidth * width) / 100} / ${
        (image.naturalHeight * height) / 100
      }`;
    };
    image.addEventListener("load", setRatio);
    setRatio();

    const label = (cell) => {
      const word = texts[`text${cell.dataset.state[0].toUpperCase()}${cell.dataset.state.slice(1)}`];
      cell.setAttribute("aria-label", `${cell.dataset.label}: ${word}`);
      cell.title = word;
    };

    function follow(game) {
      // The game's form after the picture: the one player with strokes
      // standing won, with as many marks as stand.
      const number = game.dataset.game;
      const fieldset = document.getElementById(`spiel-${number}`);
      if (!fieldset) return;
      let doubtful = 0;
      const standing = [];
      for (const row of game.querySelectorAll(".tap-row")) {
        const states = Array.from(row.querySelectorAll(".tap-cell"), (c) => c.dataset.state);
        doubtful += states.filter((s) => s === "doubtful").length;
        const left = states.filter((s) => s === "standing").length;
        if (left > 0) standing.push({ seat: row.dataset.seat, name: row.dataset.name, marks: left });
      }
      const winner = fieldset.querySelector(
        `.winner-choice input[type=radio][value="${standing.length ? standing[0].seat : ""}"]`
      );
      const marks = fieldset.querySelector(
        `.marks-choice input[type=radio][value="${standing.length ? standing[0].marks : ""}"]`
      );
      const set = (input) => {
        if (input && !input.checked) {
          input.checked = true;
          input.dispatchEvent(new Event("change", { bubbles: true }));
        }
      };
      const clear = () => {
        for (const input of fieldset.querySelectorAll(
          ".winner-choice input[type=radio], .marks-choice input[type=radio]"
        )) {
          if (input.checked) {
            input.checked = false;
            input.dispatchEvent(new Event("change", { bubbles: true }));
          }
        }
      };
      let text;
      if (doubtful === 0 && standing.length === 1 && winner && marks) {
        set(winner);
        set(marks);
        text = fill(texts.textClear, { game: number, ...standing[0] });
      } else {
        clear();
        if (doubtful > 0) text = fill(texts.textDoubt, { game: number, count: doubtful });
        else if (standing.length === 0) text = fill(texts.textNobody, { game: number });
        else text = fill(texts.textSeveral, { game: number });
      }
      if (status) status.textContent = text;
    }

    for (const cell of sheet.querySelectorAll(".tap-cell")) {
      label(cell);
      cell.addEventListener("click", () => {
        const state = NEXT[cell.dataset.state] || "struck";
        cell.dataset.state = state;
        cell.setAttribute("aria-pressed", PRESSED[state]);
        cell.classList.add("tap-changed");
        label(cell);
        follow(cell.closest(".tap-game"));
      });
    }
    // The picture to tap replaces the plain one; the whole one stays a link.
    sheet.hidden = false;
    const figure = sheet.closest("figure");
    if (figure) {
      figure.classList.add("tap-active");
      const whole = figure.querySelector("[data-whole-sheet]");
      if (whole) whole.hidden = true;
      for (const part of figure.querySelectorAll(".tap-legend, .tap-whole")) part.hidden = false;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-sheet-photo]").forEach(setupUpload);
    document.querySelectorAll("[data-tap-sheet]").forEach(setupTaps);
  });
})();
