// The outbox: an entry or confirmation made on a phone is never
// lost to the hall's Wi-Fi. A form that carries a submission key (its hidden
// idempotency_key, {% submission_key %}) or is marked data-outbox, whose
// view applies a key once (tournament/core/idempotency.py), is kept on the
// phone (IndexedDB) before it is sent, with its key; it is sent at once
// and, while the network fails, again when it returns (the `online` event,
// every page this phone opens, and every few seconds). The server applies a
// key once and answers a repeat with the first answer, so sending again is
// always safe. Beside the form the phone says in words what became of it:
// "wartet auf Netz", "gesendet ✓", or why it was not saved.
//
// The server answers the outbox in JSON: a page or redirect comes as an
// envelope {ok, location, messages, html} (tournament/core/idempotency), a
// player's view answers JSON itself. Sent while the person waits, the
// answer is followed as a browser would (the next page; the form again with
// its mistakes); sent later, it is shown beside the form, and a phone still
// on that form then goes where the answer leads (its buttons off meanwhile),
// so a filled form is not saved twice.
//
// A form that sends a file (multipart: the photo of a score sheet) is kept
// with its file, and sent as the browser would send it; its view applies it
// once by its own means (a photo by its bytes). A form may name its own
// words for "waiting" and "sent" (data-outbox-waiting, data-outbox-sent),
// and hears of every state (the event "outbox:state" on the form).
//
// Without IndexedDB (or without script) the forms post as they always did,
// with their hidden key. Words: templates/tournament/webapp/phone.html.
"use strict";
(() => {
  const root = document.querySelector("[data-webapp]");
  if (!root || !("indexedDB" in window) || !("fetch" in window)) return;
  const texts = root.dataset;
  const owner = texts.owner || "";
  const DB_NAME = "siebenschraem";
  const STORE = "outbox";
  const KEY_FIELD = "idempotency_key";
  const RETRY_MS = [2000, 4000, 8000, 15000, 30000];
  let database = null;
  let broken = false; // no IndexedDB here (a private window): forms post as usual
  let flushing = false;
  let retryTimer = 0;
  let attempt = 0;
  const sending = new Set(); // keys in flight from this page

  // --- IndexedDB, promised ---------------------------------------------------

  function db() {
    if (!database) {
      database = new Promise((resolve, reject) => {
        const open = indexedDB.open(DB_NAME, 1);
        open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: "key" });
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
        open.onblocked = () => reject(new Error("blocked"));
      });
      database.catch(() => {
        broken = true;
      });
    }
    return database;
  }

  async function store(mode, work) {
    const handle = await db();
    return new Promise((resolve, reject) => {
      const tx = handle.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  const all = () => store("readonly", (s) => s.getAll());
  const put = (record) => store("readwrite", (s) => s.put(record));
  const forget = (key) => store("readwrite", (s) => s.delete(key));

  // --- Keys, tokens, fields ---------------------------------------------------

  function newKey() {
    // crypto.randomUUID needs HTTPS; the hall's laptop may serve plain HTTP.
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function csrfCookie() {
    const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
  }

  function pathOf(url) {
    return new URL(url, window.location.href).pathname;
  }

  function isMultipart(form) {
    return (form.enctype || "").toLowerCase() === "multipart/form-data";
  }

  function fieldsOf(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name && !data.has(submitter.name)) {
      data.append(submitter.name, submitter.value);
    }
    const multipart = isMultipart(form);
    const fields = [];
    let token = "";
    for (const [name, value] of data.entries()) {
      if (typeof value !== "string") {
        // A file (IndexedDB keeps it as it is), with its name.
        if (multipart && value.size > 0) fields.push([name, value, value.name || "foto.jpg"]);
        continue;
      }
      if (name === "csrfmiddlewaretoken") token = value;
      else if (name !== KEY_FIELD) fields.push([name, value]);
    }
    return { fields, token, multipart };
  }

  function bodyOf(record) {
    if (!record.multipart) return new URLSearchParams(record.fields);
    const body = new FormData();
    for (const [name, value, fileName] of record.fields) {
      if (typeof value === "string") body.append(name, value);
      else body.append(name, value, fileName);
    }
    return body;
  }

  // --- Words beside the forms -------------------------------------------------

  function keyField(form) {
    return form.querySelector(`input[name="${KEY_FIELD}"]`);
  }

  function kept(form) {
    // A form with its key (a page), or marked data-outbox (a live region's
    // form: rendered once for every phone, it carries no key of its own).
    return Boolean(keyField(form)) || form.hasAttribute("data-outbox");
  }

  function formsFor(record) {
    return Array.from(document.forms).filter(
      (form) => kept(form) && pathOf(form.action) === record.url
    );
  }

  function statusOf(form) {
    let status = form.nextElementSibling;
    if (!status || !status.classList.contains("outbox-status")) {
      status = document.createElement("p");
      status.className = "outbox-status";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      form.after(status);
    }
    return status;
  }

  // A form's own words for a state (its data-outbox-<state>), else `text`.
  function wordsFor(form, state, text) {
    if (state === "waiting" && text === texts.textWaiting && form.dataset.outboxWaiting) {
      return form.dataset.outboxWaiting;
    }
    if (state === "sent" && form.dataset.outboxSent) return form.dataset.outboxSent;
    return text;
  }

  function show(record, state, text) {
    for (const form of formsFor(record)) {
      const status = statusOf(form);
      status.dataset.state = state;
      status.dataset.key = record.key;
      status.textContent = wordsFor(form, state, text);
      form.dispatchEvent(new CustomEvent("outbox:state", { detail: { state } }));
      if (state === "refused") {
        const discard = document.createElement("button");
        discard.type = "button";
        discard.className = "secondary outline";
        discard.textContent = texts.textDiscard;
        discard.addEventListener("click", () => {
          forget(record.key).then(summary);
          status.remove();
        });
        status.append(" ", discard);
      }
      if (state === "sent") {
        const reload = document.createElement("button");
        reload.type = "button";
        reload.className = "secondary outline";
        reload.textContent = texts.textReload;
        reload.addEventListener("click", () => window.location.reload());
        status.append(" ", reload);
      }
    }
  }

  async function summary() {
    const box = root.querySelector("[data-outbox-summary]");
    if (!box) return;
    let records = [];
    try {
      records = (await all()).filter((r) => r.owner === owner);
    } catch (error) {
      return;
    }
    const waiting = records.filter((r) => r.state === "waiting");
    const refused = records.filter((r) => r.state === "refused");
    // A photo that arrived while the phone was elsewhere, until its review
    // (where the answer led) is opened.
    const here = (r) => r.location === window.location.pathname;
    for (const seen of records.filter((r) => r.state === "arrived" && here(r))) {
      forget(seen.key).catch(() => undefined);
    }
    const arrived = records.filter((r) => r.state === "arrived" && !here(r));
    box.replaceChildren();
    const line = (list, one, many, where) => {
      if (list.length === 0) return;
      const p = document.createElement("p");
      p.textContent = list.length === 1 ? one : many.replace("{count}", String(list.length));
      // Not on its page: a link to it (where its form shows what happened).
      const away = list.find((r) => where(r) !== window.location.pathname);
      if (away) {
        const link = document.createElement("a");
        link.href = where(away);
        link.textContent = texts.textShow;
        p.append(" ", link);
      }
      box.append(p);
    };
    const form = (r) => r.page;
    line(waiting, texts.textWaitingOne, texts.textWaitingMany, form);
    line(refused, texts.textRefusedOne, texts.textRefusedMany, form);
    line(arrived, texts.textArrivedOne, texts.textArrivedMany, (r) => r.location);
    box.hidden = box.childElementCount === 0;
  }

  // --- What the server said ----------------------------------------------------

  function alertText(html) {
    // The form again, with its mistakes: what its alert says.
    const page = new DOMParser().parseFromString(html, "text/html");
    const alert = page.querySelector("main [role=alert]") || page.querySelector(".message-error");
    return alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function answerText(data) {
    const said = (data.messages || []).map((m) => m.text).filter(Boolean);
    if (data.message) said.push(data.message);
    if (data.error && typeof data.error === "string") said.push(data.error);
    if (said.length === 0 && data.html) said.push(alertText(data.html));
    return said.join(" ").trim();
  }

  function isConflict(data, status) {
    return status === 409 || data.code === "conflict" || data.conflict === true;
  }

  // --- Sending -------------------------------------------------------------------

  async function send(record) {
    let response;
    try {
      response = await fetch(record.url, {
        method: "POST",
        body: bodyOf(record),
        headers: {
          "Idempotency-Key": record.key,
          Accept: "application/json",
          // The token the phone has now: the form's may be older.
          "X-CSRFToken": csrfCookie() || record.token,
        },
        credentials: "same-origin",
        cache: "no-store",
      });
    } catch (error) {
      return { state: "waiting" }; // no network
    }
    const status = response.status;
    if (status >= 500 || status === 408 || status === 429) return { state: "waiting" };
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("application/json")) {
      // The sign-in page, or a refusal of the CSRF check (a new session):
      // kept, and sent again from the next page this phone opens.
      if (status === 403 || response.redirected) return { state: "blocked" };
      return { state: "refused", text: texts.textFailed.replace("{status}", String(status)) };
    }
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      return { state: "waiting" };
    }
    if (response.ok && data.ok !== false) return { state: "sent", data };
    const said = answerText(data);
    const text = isConflict(data, status)
      ? said || texts.textConflict
      : `${texts.textRefused} ${said || texts.textConflict}`;
    return { state: "refused", data, text, status };
  }

  function follow(record, outcome) {
    // Sent while the person waits on its page: what a browser would do,
    // where the answer says it (a redirect's target, or the form again).
    // A view's own JSON without a `location` is shown beside the form.
    const data = outcome.data || {};
    if (data.location) {
      window.location.assign(data.location);
      return true;
    }
    if (data.html) {
      // The form again, with its mistakes and all that was typed: the
      // page the server answered, as a form posted without script gets it.
      document.open();
      document.write(data.html);
      document.close();
      return true;
    }
    return false;
  }

  // How long "Gesendet ✓" stays in sight before the phone goes on.
  const SENT_PAUSE_MS = 1500;

  function leaveForm(record, data) {
    // Sent later, while the person is still on its form: the phone goes
    // where the server's answer leads, as a save while online does ("Mein
    // Turnier"), so that the filled form cannot be saved a second time.
    if (!data.location || record.page !== window.location.pathname) return;
    if (pathOf(data.location) === window.location.pathname) return;
    for (const form of formsFor(record)) {
      for (const button of form.querySelectorAll("button, input[type=submit]")) {
        button.disabled = true;
      }
    }
    setTimeout(() => window.location.assign(data.location), SENT_PAUSE_MS);
  }

  async function arrivedElsewhere(record, data) {
    // A photo sent while the phone is on another page: it is not a result
    // yet, only its review makes one. Remembered (without its file) so
    // every page says so, with the way to its review.
    if (!record.multipart || !data.location || record.page === window.location.pathname) return;
    try {
      await put({ ...record, fields: [], state: "arrived", location: pathOf(data.location) });
    } catch (error) {
      // No room: the photo page lists it as well.
    }
  }

  async function deliver(record, { waited }) {
    if (sending.has(record.key)) return "sending";
    sending.add(record.key);
    try {
      const outcome = await send(record);
      if (outcome.state === "waiting" || outcome.state === "blocked") {
        show(record, "waiting", outcome.state === "blocked" ? texts.textRelogin : texts.textWaiting);
        return outcome.state;
      }
      if (outcome.state === "sent") {
        await forget(record.key);
        if (waited && follow(record, outcome)) return "sent";
        const said = answerText(outcome.data || {});
        show(record, "sent", said ? `${texts.textSent} ${said}` : texts.textSent);
        leaveForm(record, outcome.data || {});
        await arrivedElsewhere(record, outcome.data || {});
        return "sent";
      }
      // Refused while the person waits: the server's page says why (the
      // form again with all that was typed, or the page with its message).
      const data = outcome.data || {};
      if (waited && (data.html || data.location)) {
        await forget(record.key);
        follow(record, outcome);
        return "refused";
      }
      if (waited && outcome.status === 400 && waited.form.isConnected) {
        // Mistakes in what was typed (a view that answers JSON itself): the
        // form posted as without script, under its next key, comes back
        // with every mistake beside its field and all that was typed.
        await forget(record.key);
        waited.form.dataset.outboxNative = "1";
        if (waited.submitter) waited.form.requestSubmit(waited.submitter);
        else waited.form.requestSubmit();
        return "refused";
      }
      // Refused later: kept (nothing typed is lost) until it is discarded.
      record.state = "refused";
      record.text = outcome.text;
      await put(record);
      show(record, "refused", outcome.text);
      return "refused";
    } finally {
      sending.delete(record.key);
      summary();
    }
  }

  async function flush() {
    if (flushing || broken) return;
    flushing = true;
    clearTimeout(retryTimer);
    let waiting = 0;
    try {
      const records = (await all()).filter((r) => r.owner === owner);
      for (const record of records) {
        if (record.state === "arrived") continue;
        if (record.state === "refused") {
          show(record, "refused", record.text);
          continue;
        }
        const state = await deliver(record, { waited: null });
        if (state === "waiting" || state === "blocked") waiting += 1;
      }
    } catch (error) {
      waiting += 1; // IndexedDB busy: try again
    } finally {
      flushing = false;
    }
    if (waiting > 0 && !broken) {
      retryTimer = setTimeout(flush, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      attempt += 1;
    } else {
      attempt = 0;
    }
  }

  async function submitted(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !kept(form)) return;
    if (form.dataset.outboxNative === "1") return;
    if ((form.method || "").toLowerCase() !== "post") return;
    event.preventDefault();
    // A second tap while the first is on its way is the same submission.
    if (form.dataset.outboxBusy === "1") return;
    form.dataset.outboxBusy = "1";
    try {
      await submit(form, event.submitter);
    } finally {
      delete form.dataset.outboxBusy;
    }
  }

  async function submit(form, submitter) {
    const field = keyField(form);
    const { fields, token, multipart } = fieldsOf(form, submitter);
    const record = {
      key: (field && field.value) || newKey(),
      owner,
      url: pathOf(form.action),
      page: window.location.pathname,
      fields,
      multipart,
      token,
      state: "waiting",
      created: Date.now(),
    };
    try {
      // Saved again while it waits for the network: the same submission.
      // (A file taken again is another one: a retake.)
      const same = (await all()).find(
        (r) =>
          !multipart &&
          r.owner === owner &&
          r.url === record.url &&
          r.state === "waiting" &&
          JSON.stringify(r.fields) === JSON.stringify(record.fields)
      );
      if (same) {
        show(same, "waiting", texts.textWaiting);
        flush();
        return;
      }
      await put(record);
    } catch (error) {
      // No room on the phone (or a private window): post as without script.
      form.dataset.outboxNative = "1";
      if (submitter) form.requestSubmit(submitter);
      else form.requestSubmit();
      return;
    }
    // The next submission of this form is another one: another key.
    if (field) field.value = newKey();
    show(record, "sending", texts.textSending);
    const state = await deliver(record, { waited: { form, submitter } });
    if (state === "waiting" || state === "blocked") {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(flush, RETRY_MS[0]);
    }
  }

  document.addEventListener("submit", (event) => {
    submitted(event);
  });
  window.addEventListener("online", () => {
    attempt = 0;
    flush();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  flush();
  summary();
})();
