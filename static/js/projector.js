// Projector: one slide at a time, long ones scrolled slowly from top to
// bottom, then the next. Content stays current through live.js.
//
// Address options (no controls on screen): ?slide=standings|seating|progress
// keeps one slide (a second beamer), ?speed=N scrolls N pixels per second.
"use strict";
(() => {
  const HOLD_MS = 4000; // at the top and at the bottom of a long slide
  const DWELL_MS = 15000; // a slide that fits the screen
  const NEEDS = { seating: ".seat-names li", progress: ".progress-series" };

  function start() {
    const slides = Array.from(document.querySelectorAll(".slide"));
    const title = document.querySelector(".slide-name");
    const dots = document.querySelector(".dots");
    const clock = document.querySelector(".clock");
    const params = new URLSearchParams(window.location.search);
    const pinned = params.get("slide");
    const speedParam = Number(params.get("speed"));
    let current = -1;
    let timer = 0;
    let frame = 0;

    function hasContent(slide) {
      const selector = NEEDS[slide.dataset.slide];
      return !selector || slide.querySelector(selector) !== null;
    }

    function showable() {
      return slides.filter((s) => (pinned ? s.dataset.slide === pinned : true) && hasContent(s));
    }

    function drawDots(active) {
      if (!dots) return;
      const list = showable();
      dots.replaceChildren(...list.map((s) => {
        const dot = document.createElement("span");
        if (s === active) dot.className = "on";
        return dot;
      }));
    }

    function stop() {
      window.clearTimeout(timer);
      window.cancelAnimationFrame(frame);
    }

    function scrollThrough(slide, done) {
      const scroller = slide.querySelector(".scroller");
      const speed = speedParam > 0 ? speedParam : window.innerHeight / 9;
      let position = 0;
      let last = 0;
      scroller.scrollTop = 0;
      const step = (now) => {
        const room = scroller.scrollHeight - scroller.clientHeight;
        if (last) position += ((now - last) / 1000) * speed;
        last = now;
        scroller.scrollTop = position;
        if (position >= room) {
          timer = window.setTimeout(done, HOLD_MS);
          return;
        }
        frame = window.requestAnimationFrame(step);
      };
      timer = window.setTimeout(() => {
        frame = window.requestAnimationFrame(step);
      }, HOLD_MS);
    }

    function show(slide) {
      stop();
      slides.forEach((s) => s.classList.toggle("active", s === slide));
      if (title) title.textContent = slide.dataset.title || "";
      drawDots(slide);
      const scroller = slide.querySelector(".scroller");
      scroller.scrollTop = 0;
      const next = () => advance();
      if (scroller.scrollHeight > scroller.clientHeight + 4) {
        scrollThrough(slide, next);
      } else if (!pinned) {
        timer = window.setTimeout(next, DWELL_MS);
      }
    }

    function advance() {
      const list = showable();
      if (list.length === 0) {
        timer = window.setTimeout(advance, DWELL_MS);
        return;
      }
      const index = list.indexOf(slides[current]);
      const slide = list[(index + 1) % list.length];
      current = slides.indexOf(slide);
      show(slide);
    }

    // A slide that was empty (no released series yet) may have content now.
    document.addEventListener("live:updated", () => drawDots(slides[current]));

    function tick() {
      if (clock) {
        clock.textContent = new Date().toLocaleTimeString(document.documentElement.lang || undefined, {
          hour: "2-digit",
          minute: "2-digit",
        });
      }
    }
    tick();
    window.setInterval(tick, 10000);

    // Keep the beamer's laptop awake where the browser allows it.
    async function stayAwake() {
      try {
        if ("wakeLock" in navigator && !document.hidden) await navigator.wakeLock.request("screen");
      } catch (error) {
        // Not allowed here: the operating system's settings decide.
      }
    }
    document.addEventListener("visibilitychange", stayAwake);
    stayAwake();

    advance();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
