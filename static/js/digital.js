// A digital table in the browser. The server sends each seat only its own
// view (see tournament/digital/consumers.py); this script draws it and sends
// moves. Socket first; on bad Wi-Fi it polls the state and posts moves.
"use strict";
(() => {
  const root = document.getElementById("digital");
  if (!root) return;

  const words = {};
  document.querySelectorAll("#d-words dt").forEach((dt) => {
    words[dt.textContent] = dt.nextElementSibling.textContent;
  });
  const fmt = (key, params) =>
    (words[key] || key).replace(/%\((\w+)\)s/g, (_, k) => String(params[k]));
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    });
    children.forEach((c) => c && node.append(c));
    return node;
  };

  // The pack's drawings and words, by suit and rank (faces.py): the page
  // names no card until the state does.
  const faces = JSON.parse($("d-faces").textContent);
  const suitOf = (name) => name.slice(-1);
  const rankOf = (name) => name.slice(0, -1);
  const cardLabel = (name) => rankOf(name) + faces.signs[suitOf(name)];
  const cardWords = (name) =>
    faces.named.replace(/%\((\w+)\)s/g, (_, k) => (k === "suit" ? faces.suits[suitOf(name)] : faces.ranks[rankOf(name)]));
  const cardImg = (name, cls = "card") =>
    el("img", { class: `${cls} suit-${suitOf(name)}`, src: faces.urls[suitOf(name)][rankOf(name)], alt: cardWords(name), draggable: "false" });
  const backImg = (cls = "card back") => el("img", { class: cls, src: faces.back, alt: words.face_down, draggable: "false" });

  let st = JSON.parse(root.dataset.initial);
  let busy = false;

  const player = (seat) => st.players.find((p) => p.seat === seat) || { name: "?" };
  const who = (seat) => {
    const p = player(seat);
    return p.you ? words.you : p.name;
  };
  const isMe = (seat) => Boolean(st.seat) && seat === st.seat;
  // "… _you" when the viewer did it: "Sie gewinnen", not "Sie gewinnt".
  // A key's singular ("…_one") for 1; German and English need no more.
  const counted = (key, n) => (n === 1 && `${key}_one` in words ? `${key}_one` : key);
  // What `seat` did or won, in the right person ("Sie gewinnen", not "Sie
  // gewinnt"), and in the singular for a count `n` of 1.
  const said = (key, seat, params, n) => {
    let k = isMe(seat) && `${key}_you` in words ? `${key}_you` : key;
    if (n !== undefined) k = counted(k, n);
    return fmt(k, { who: who(seat), ...params });
  };

  // Marks as chalk on a board: tallies of four strokes and one across.
  function chalk(marks) {
    const box = el("span", { class: "chalk", role: "img", "aria-label": fmt(counted("marks", marks), { n: marks }) });
    for (let left = marks; left > 0; left -= 5) {
      const tally = el("span", { class: "tally" });
      for (let i = 0; i < Math.min(left, 4); i += 1) tally.append(el("i", { class: "stroke" }));
      if (left >= 5) tally.append(el("i", { class: "cross" }));
      box.append(tally);
    }
    if (!marks) box.append(el("span", { class: "zero", text: "0" }));
    return box;
  }

  function currentTrick(hand) {
    const tricks = hand.tricks;
    if (!tricks.length) return null;
    return tricks[tricks.length - 1];
  }

  // Where each seat sits on the screen: the viewer's (a spectator: seat 1)
  // at the bottom, the others clockwise from it -- left, across, right --
  // as at a real table seen from above.
  function places() {
    const seats = st.players.map((p) => p.seat).sort((a, b) => a - b);
    const n = seats.length;
    const first = seats.indexOf(st.seat || seats[0]);
    const spots = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "left", "right"];
    return seats.map((_, k) => ({ seat: seats[(first + k) % n], place: spots[k] || "top" }));
  }

  // The trick the table shows: the one being played; before the first
  // card of a hand, the last trick of the hand before (its cards stay on
  // the table until someone leads), with who won it.
  function shownTrick(hand) {
    const trick = hand && currentTrick(hand);
    if (trick) return { trick, old: false };
    const last = st.last_hand;
    if (last && last.outcome && last.tricks.length) return { trick: last.tricks[last.tricks.length - 1], old: true };
    return { trick: null, old: false };
  }

  function plate(p, hand, game) {
    const seat = String(p.seat);
    const tags = [];
    const moving = hand && hand.to_move && hand.to_move.seat === p.seat;
    if (moving) tags.push(words.moving);
    if (hand && hand.dealer === p.seat) tags.push(words.dealer);
    if (hand && seat in hand.folded) tags.push(words.folded);
    if (hand && !hand.in_hand.includes(p.seat) && !(seat in hand.folded)) tags.push(words.out);
    else if (hand && hand.looked.includes(p.seat)) tags.push(words.looked);
    if (p.away) tags.push(words.away);
    else if (p.bot && !p.name.startsWith(words.bot)) tags.push(words.bot);
    // Marks before the hand, less what folding has cost in it so far.
    const paid = hand && !hand.outcome ? hand.folded[seat] || 0 : 0;
    const left = game.marks[seat] - paid;
    const name = p.you && p.name !== words.you ? `${p.name} (${words.you})` : p.name;
    return el(
      "div",
      { class: "d-plate" },
      // A long word ("Schmitz-Hohenstein") gets a smaller type, so that it
      // breaks at its hyphen, not inside a word.
      el("strong", { class: `d-name${/[^\s-]{10,}/.test(name) ? " long" : ""}`, text: `${p.seat}: ${name}` }),
      el(
        "span",
        { class: "d-marks" },
        chalk(left),
        left === 1 ? el("span", { class: "badge hammer", role: "img", "aria-label": words.hammer_badge, text: "🔨" }) : null,
      ),
      el("span", { class: "d-tags", text: tags.join(" · ") }),
    );
  }

  function drawTable(hand, game) {
    const list = $("d-players");
    list.replaceChildren();
    list.dataset.seats = String(st.players.length);
    const { trick, old } = shownTrick(hand);
    places().forEach(({ seat, place }) => {
      const p = player(seat);
      const moving = hand && hand.to_move && hand.to_move.seat === seat;
      const out = hand && !hand.in_hand.includes(seat);
      const slot = el("div", { class: `d-slot${old ? " old" : ""}` });
      const at = trick ? trick.seats.indexOf(seat) : -1;
      if (at >= 0) {
        const name = trick.cards[at];
        const won = trick.winner === seat;
        const card = cardImg(name);
        if (won) card.alt = fmt("wins", { card: cardWords(name) });
        else if (at === 0) card.alt = fmt("led", { card: cardWords(name) });
        slot.append(card, el("span", { class: "d-order", "aria-hidden": "true", text: String(at + 1) }));
        if (won) {
          slot.classList.add("won");
          slot.append(el("span", { class: "d-won", "aria-hidden": "true", text: words.trick_mark }));
        }
      }
      const flags = `${moving ? " moving" : ""}${p.you ? " you" : ""}${out ? " out" : ""}`;
      const own = plate(p, hand, game);
      if (place === "bottom") {
        // Drawn once more as the bar along the cloth's bottom edge (for the
        // eye only); in the list it stays for screen readers.
        const bar = $("d-me");
        bar.className = `d-me${flags}`;
        bar.replaceChildren(plate(p, hand, game));
        own.classList.add("visually-hidden");
      }
      list.append(
        el("li", { class: `d-seat at-${place}${flags}`, value: seat, "aria-current": moving ? "true" : null }, own, slot),
      );
    });
    let note = "";
    if (trick && old) note = said("hand_won", st.last_hand.outcome.winner, { v: st.last_hand.outcome.value });
    else if (trick && trick.winner) note = said("trick_won", trick.winner, {});
    $("d-note").textContent = note;
  }

  function foldCost(hand) {
    const marks = hand.marks[String(st.seat)];
    return Math.min(hand.value - 1, marks);
  }

  function drawMine(hand) {
    const handBox = $("d-hand");
    const actions = $("d-actions");
    if (!handBox) return;
    handBox.replaceChildren();
    actions.replaceChildren();
    if (!hand || st.status !== "playing" || st.bot) return;
    const legal = hand.legal;
    if (hand.cards === null) {
      const played = hand.tricks.reduce((n, t) => n + t.seats.filter((s) => s === st.seat).length, 0);
      // Face down: tapping the cards looks at them, as the look button does.
      const backs = legal.acts.includes("look")
        ? el("button", { type: "button", class: "d-backs", "aria-label": words.look, disabled: busy })
        : el("div", { class: "d-backs" });
      for (let i = 0; i < 4 - played; i += 1) backs.append(el("span", { class: "card-box" }, backImg()));
      if (backs.tagName === "BUTTON") {
        backs.querySelectorAll("img").forEach((img) => { img.alt = ""; });
        backs.addEventListener("click", () => send("look"));
      }
      handBox.append(backs);
    } else {
      // Due to play: the cards that may be played stand up, the others
      // lie low, greyed and struck through -- shape, not colour alone.
      const choosing = hand.due && hand.to_move && hand.to_move.act === "play";
      hand.cards.forEach((name) => {
        const ok = legal.cards.includes(name);
        const state = !choosing ? "waiting" : ok ? "playable" : "illegal";
        const button = el(
          "button",
          {
            type: "button",
            class: `card-box ${state}`,
            disabled: !ok || busy,
            "aria-label": state === "illegal" ? fmt("not_playable", { card: cardWords(name) }) : fmt("play", { card: cardWords(name) }),
            "data-card": name,
          },
          cardImg(name),
        );
        button.firstChild.alt = ""; // the button's label names the card
        button.addEventListener("click", () => send("play", name));
        handBox.append(button);
      });
    }
    const blind = hand.cards === null;
    const hammer = hand.due && hand.to_move && hand.to_move.act === "knock";
    // Face down and due to play: the server names no card before the look
    // (legal.cards is empty), so looking is the way on; it stands out.
    const lookFirst = blind && hand.due && hand.to_move && hand.to_move.act === "play";
    const order = ["look", "knock", "hold", "fold"];
    order.filter((a) => legal.acts.includes(a)).forEach((act) => {
      let label;
      if (act === "knock") label = fmt(hammer ? "hammer" : blind ? "knock_blind" : "knock", { v: hand.value + 1 });
      else if (act === "hold") label = fmt("hold", { v: hand.value });
      else if (act === "fold") label = fmt("fold", { v: foldCost(hand) });
      else label = words.look;
      const button = el("button", {
        type: "button",
        class: act === "fold" ? "secondary" : act === "look" && !lookFirst ? "outline" : "",
        disabled: busy,
        "data-act": act,
        text: label,
      });
      button.addEventListener("click", () => send(act));
      actions.append(button);
    });
  }

  function turnText(hand) {
    if (st.status === "finished") return words.table_over;
    if (st.status === "stopped") return words.stopped;
    if (st.bot) return words.bot_seat;
    if (!hand || !hand.to_move) return "";
    const move = hand.to_move;
    const parts = [];
    if (hand.due) parts.push(words[{ play: "your_turn", answer: "your_answer", knock: "hammer_turn" }[move.act]]);
    else {
      if (move.act === "knock") parts.push(fmt("hammer_announced", { who: who(move.seat) }));
      parts.push(fmt(move.act === "answer" ? "answers" : "waits_for", { who: who(move.seat) }));
    }
    return parts.join(" ");
  }

  // Next to the cards: what to do with cards still face down.
  function hintText(hand) {
    if (!st.seat || st.bot || st.status !== "playing" || !hand || !hand.to_move) return "";
    if (hand.cards !== null || !hand.in_hand.includes(st.seat)) return "";
    return hand.due && hand.to_move.act === "play" ? words.look_to_play : words.not_looked;
  }

  function drawHistory() {
    const list = $("d-history");
    list.replaceChildren();
    st.history.forEach((a) => {
      list.append(el("li", { text: said(`h_${a.act}`, a.seat, { card: a.card ? cardLabel(a.card) : "" }) }));
    });
  }

  function drawLast() {
    const box = $("d-last");
    const last = st.last_hand;
    box.hidden = !last || !last.outcome;
    if (box.hidden) return;
    $("d-last-text").textContent = said("hand_won", last.outcome.winner, { v: last.outcome.value });
    const trick = last.tricks[last.tricks.length - 1];
    const list = $("d-last-trick");
    list.replaceChildren();
    if (trick) {
      trick.seats.forEach((seat, i) => {
        list.append(el("li", {}, cardImg(trick.cards[i], "card small"), el("span", { text: who(seat) })));
      });
    }
  }

  function drawGames() {
    const body = $("d-games");
    body.replaceChildren();
    st.games.forEach((g, i) => {
      // The game's number opens its replay: a column of its own would not
      // fit a 360 px phone in large print.
      const number = String(i + 1);
      let game = number;
      if (root.dataset.replay) {
        const href = root.dataset.replay.replace(/\/1\/$/, `/${number}/`);
        game = el("a", { href, class: "d-replay", "aria-label": fmt("replay_label", { n: number }), text: number });
      }
      body.append(
        el("tr", {},
          el("td", {}, game),
          el("td", { text: who(g.winner) }),
          el("td", { class: "num", text: String(g.marks) }),
          el("td", { class: "num", text: String(g.points) })),
      );
    });
  }

  // A seat taken over by a bot because its phone was gone, or given back:
  // said once, when it happens, to everybody at the table.
  let away = null;
  function announce() {
    const now = new Map(st.players.map((p) => [p.seat, Boolean(p.away)]));
    const news = [];
    if (away) {
      now.forEach((gone, seat) => {
        if (away.has(seat) && away.get(seat) !== gone && !isMe(seat)) {
          news.push(fmt(gone ? "away_news" : "back_news", { n: seat }));
        }
      });
    }
    away = now;
    if (news.length) {
      $("d-news").textContent = news.join(" ");
      $("d-news").hidden = false;
    }
  }

  function render() {
    const game = st.game;
    const hand = game && game.hand;
    announce();
    if (game) {
      $("d-game").textContent = fmt("game", { n: st.game_number, t: st.games_total, h: game.hands + (hand && !hand.outcome ? 1 : 0) });
      drawTable(hand, game);
      $("d-value").textContent = hand
        ? hand.last_knocker
          ? fmt("value_knocked", { v: hand.value, who: who(hand.last_knocker) })
          : fmt("value", { v: hand.value })
        : "";
      if (game.winner) {
        const m = game.marks[String(game.winner)];
        $("d-value").textContent = said("game_won", game.winner, { m }, m);
      }
    }
    drawMine(hand);
    $("d-turn").textContent = turnText(hand);
    if ($("d-hint")) {
      $("d-hint").textContent = hintText(hand);
      $("d-hint").hidden = !$("d-hint").textContent;
    }
    root.classList.toggle("my-turn", Boolean(hand && hand.due && st.status === "playing"));
    drawHistory();
    drawLast();
    drawGames();
  }

  function showError(text) {
    const box = $("d-error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function accept(data) {
    if (data.type === "state") {
      // Never step back to an older state (a slow poll after a push).
      if (data.version < st.version) return;
      st = data;
      busy = false;
      render();
    } else if (data.type === "error") {
      busy = false;
      showError(data.message);
      render();
      // The server counts this seat's messages otherwise (another tab, an
      // old page): fetch the state, which says what to send next.
      if (data.code === "resync") resync();
    } else if (data.type === "closed") {
      showError(words.closed);
      stopped = true;
    } else if (data.ok === false && data.message) {
      // The wrong-link guard's refusal (429, core/ratelimit.py): it says
      // when to try again; the move was not made.
      busy = false;
      showError(data.message);
      render();
    }
  }

  // --- transport ---------------------------------------------------------
  let socket = null;
  let retry = 0;
  let pollTimer = null;
  let stopped = false;
  const status = (key) => {
    $("d-connection").textContent = words[key];
    $("d-connection").dataset.state = key;
  };

  function csrf() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  // JSON asked for: a refusal by the wrong-link guard comes as JSON too.
  function jsonHeaders() {
    return { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrf() };
  }

  function send(act, card) {
    if (busy || st.next_seq === null) return;
    showError("");
    const message = { type: "act", seq: st.next_seq, version: st.version, act };
    if (card) message.card = card;
    busy = true;
    render();
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
      return;
    }
    fetch(root.dataset.move, {
      method: "POST",
      headers: jsonHeaders(),
      credentials: "same-origin",
      body: JSON.stringify(message),
    })
      .then((r) => r.json())
      .then((data) => {
        accept(data);
        if (data.type === "error") poll();
      })
      .catch(() => {
        busy = false;
        status("offline");
        render();
      });
  }

  function resync() {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sync" }));
    else poll();
  }

  function poll() {
    fetch(root.dataset.state, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store",
    })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => data && accept(data))
      .catch(() => {});
  }

  // Without a socket the page says it is open now and then (a socket says
  // so by being open): else a bot would take the seat over as if the
  // phone were gone.
  let hereTimer = null;
  function here() {
    if (!root.dataset.move || (socket && socket.readyState === WebSocket.OPEN)) return;
    fetch(root.dataset.move, {
      method: "POST",
      headers: jsonHeaders(),
      credentials: "same-origin",
      body: JSON.stringify({ type: "here" }),
    })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => data && accept(data))
      .catch(() => {});
  }

  function startPolling() {
    if (pollTimer) return;
    status("polling");
    pollTimer = window.setInterval(poll, 3000);
    here();
    if (!hereTimer && root.dataset.move) {
      hereTimer = window.setInterval(here, 1000 * Number(root.dataset.beat || 20));
    }
  }

  function connect() {
    if (stopped || !("WebSocket" in window)) {
      startPolling();
      return;
    }
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + root.dataset.socket);
    socket.addEventListener("open", () => {
      retry = 0;
      status("online");
      if (pollTimer) {
        window.clearInterval(pollTimer);
        pollTimer = null;
      }
      if (hereTimer) {
        window.clearInterval(hereTimer);
        hereTimer = null;
      }
    });
    socket.addEventListener("message", (event) => accept(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      socket = null;
      busy = false;
      if (event.code === 4410 || event.code === 4404 || event.code === 4403) {
        stopped = true;
        if (event.code !== 4410) startPolling();
        return;
      }
      status("offline");
      if (retry >= 2) startPolling();
      retry += 1;
      window.setTimeout(connect, Math.min(15000, 1000 * 2 ** retry));
    });
  }

  render();
  connect();
})();
