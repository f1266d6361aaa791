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

  const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
  const cardLabel = (name) => name.slice(0, -1) + SUITS[name.slice(-1)];
  const cardNode = (name, tag = "span", attrs = {}) =>
    el(tag, { class: `card suit-${name.slice(-1)}`, ...attrs, text: cardLabel(name) });

  let st = JSON.parse(root.dataset.initial);
  let busy = false;

  const player = (seat) => st.players.find((p) => p.seat === seat) || { name: "?" };
  const who = (seat) => {
    const p = player(seat);
    return p.you ? words.you : p.name;
  };

  // Marks as chalk on a board: tallies of four strokes and one across.
  function chalk(marks) {
    const box = el("span", { class: "chalk", role: "img", "aria-label": fmt("marks", { n: marks }) });
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

  function drawPlayers(hand, game) {
    const list = $("d-players");
    list.replaceChildren();
    st.players.forEach((p) => {
      const seat = String(p.seat);
      const tags = [];
      if (hand && hand.dealer === p.seat) tags.push(words.dealer);
      if (hand && seat in hand.folded) tags.push(words.folded);
      if (hand && !hand.in_hand.includes(p.seat) && !(seat in hand.folded)) tags.push(words.out);
      else if (hand && hand.looked.includes(p.seat)) tags.push(words.looked);
      if (p.bot) tags.push(words.bot);
      const moving = hand && hand.to_move && hand.to_move.seat === p.seat;
      // Marks before the hand, less what folding has cost in it so far.
      const paid = hand && !hand.outcome ? hand.folded[seat] || 0 : 0;
      const left = game.marks[seat] - paid;
      list.append(
        el(
          "li",
          { class: `d-player${moving ? " moving" : ""}${p.you ? " you" : ""}`, value: p.seat, "aria-current": moving ? "true" : null },
          el("strong", { text: `${p.seat}: ${p.you && p.name !== words.you ? `${p.name} (${words.you})` : p.name}` }),
          left === 1 ? el("span", { class: "badge hammer", text: "🔨" }) : null,
          el("span", { class: "d-tags", text: tags.join(" · ") }),
          chalk(left),
        ),
      );
    });
  }

  function drawTrick(hand) {
    const list = $("d-trick");
    list.replaceChildren();
    const trick = hand && currentTrick(hand);
    if (!trick) return;
    trick.seats.forEach((seat, i) => {
      list.append(el("li", {}, cardNode(trick.cards[i]), el("small", { text: ` ${who(seat)}` })));
    });
    if (trick.winner) list.append(el("li", { class: "muted", text: fmt("trick_won", { who: who(trick.winner) }) }));
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
      for (let i = 0; i < 4 - played; i += 1) {
        handBox.append(el("span", { class: "card back", role: "img", "aria-label": words.face_down }));
      }
    } else {
      hand.cards.forEach((name) => {
        const ok = legal.cards.includes(name);
        const button = cardNode(name, "button", {
          type: "button",
          disabled: !ok || busy,
          "aria-label": fmt("play", { card: cardLabel(name) }),
          "data-card": name,
        });
        if (!ok) button.classList.add("illegal");
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
    if (move.act === "knock") parts.push(fmt("hammer_announced", { who: who(move.seat) }));
    if (hand.due) parts.push(words[{ play: "your_turn", answer: "your_answer", knock: "hammer_turn" }[move.act]]);
    else parts.push(fmt(move.act === "answer" ? "answers" : "waits_for", { who: who(move.seat) }));
    if (st.seat && hand.cards === null && hand.in_hand.includes(st.seat)) {
      parts.push(hand.due && move.act === "play" ? words.look_to_play : words.not_looked);
    }
    return parts.join(" ");
  }

  function drawHistory() {
    const list = $("d-history");
    list.replaceChildren();
    st.history.forEach((a) => {
      const text = fmt(`h_${a.act}`, { who: who(a.seat), card: a.card ? cardLabel(a.card) : "" });
      list.append(el("li", { text }));
    });
  }

  function drawLast() {
    const box = $("d-last");
    const last = st.last_hand;
    box.hidden = !last || !last.outcome;
    if (box.hidden) return;
    $("d-last-text").textContent = fmt("hand_won", { who: who(last.outcome.winner), v: last.outcome.value });
    const trick = last.tricks[last.tricks.length - 1];
    const list = $("d-last-trick");
    list.replaceChildren();
    if (trick) trick.seats.forEach((seat, i) => list.append(el("li", {}, cardNode(trick.cards[i]), el("small", { text: ` ${who(seat)}` }))));
  }

  function drawGames() {
    const body = $("d-games");
    body.replaceChildren();
    st.games.forEach((g, i) => {
      let replay = null;
      if (root.dataset.replay) {
        const href = root.dataset.replay.replace(/\/1\/$/, `/${i + 1}/`);
        replay = el("a", { href, text: words.replay });
      }
      body.append(
        el("tr", {},
          el("td", { text: String(i + 1) }),
          el("td", { text: who(g.winner) }),
          el("td", { class: "num", text: String(g.marks) }),
          el("td", { class: "num", text: String(g.marks + st.win_bonus) }),
          el("td", {}, replay)),
      );
    });
  }

  function render() {
    const game = st.game;
    const hand = game && game.hand;
    if (game) {
      $("d-game").textContent = fmt("game", { n: st.game_number, t: st.games_total, h: game.hands + (hand && !hand.outcome ? 1 : 0) });
      drawPlayers(hand, game);
      $("d-value").textContent = hand
        ? hand.last_knocker
          ? fmt("value_knocked", { v: hand.value, who: who(hand.last_knocker) })
          : fmt("value", { v: hand.value })
        : "";
      if (game.winner) $("d-value").textContent = fmt("game_won", { who: who(game.winner), m: game.marks[String(game.winner)] });
    }
    drawTrick(hand);
    drawMine(hand);
    $("d-turn").textContent = turnText(hand);
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
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
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
    fetch(root.dataset.state, { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => data && accept(data))
      .catch(() => {});
  }

  function startPolling() {
    if (pollTimer) return;
    status("polling");
    pollTimer = window.setInterval(poll, 3000);
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
