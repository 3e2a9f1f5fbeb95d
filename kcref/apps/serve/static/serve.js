// kcref serve: the page of one table. Each tap builds the next line of the log in its notation;
// the server judges it. Every text from the server goes in as textContent, never as markup:
// names, tags and comments come from the log and are hostile.
"use strict";
(function () {
  const KEY = new URLSearchParams(location.search).get("key") || "";
  const PILES = ["NW", "N", "NE", "W", "", "E", "SW", "S", "SE"];
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const DECK = [];
  for (const s of "SHDC") for (const r of RANKS) DECK.push(r + s);
  const $ = (id) => document.getElementById(id);
  const line = $("line");
  let state = null;
  let canWrite = false;
  let card = null;      // a card tapped, waiting for its pile
  let pile = null;      // a pile tapped, waiting for the pile it moves to
  let drawing = false;  // "draw" added: the next card tapped is the card drawn
  let socket = null;
  let retry = 0;
  let offerFor = null;

  // Bidi controls would turn the rest of a line around on screen: they are shown as escapes.
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function visible(text) {
    return String(text).replace(BIDI, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = visible(text);
    if (cls) e.className = cls;
    return e;
  }
  function face(c) { return c.slice(0, -1) + SUITS[c.slice(-1)]; }
  function cardButton(c, seen) {
    const b = el("button", face(c), "HD".includes(c.slice(-1)) ? "red" : "");
    b.type = "button";
    b.dataset.card = c;
    if (seen) { b.classList.add("seen"); b.disabled = true; }
    if (card === c) b.classList.add("selected");
    return b;
  }
  function headers() { return { "Content-Type": "application/json", "X-Kcref-Key": KEY }; }
  function say(items, cls) {
    const box = $("message");
    box.replaceChildren();
    for (const text of items) box.append(el("p", text, cls));
  }
  function diagnosticText(d) {
    return (d.code ? d.code + " " : "") + d.message + (d.hint ? " (" + d.hint + ")" : "");
  }

  // --- the line being built --------------------------------------------------------------------
  function actions() { return line.value.split(";").map((a) => a.trim()).filter((a) => a); }
  function addAction(a) {
    const list = actions();
    list.push(a);
    line.value = list.join("; ");
    changed();
  }
  function addWord(w) {
    line.value = (line.value.trim() + " " + w).trim();
    changed();
  }
  function changed() { card = null; pile = null; render(); offers(); }

  function tapCard(c) {
    const expect = state ? state.expect : "";
    if (drawing) {
      const list = actions();
      list[list.length - 1] = "draw " + c;
      line.value = list.join("; ");
      drawing = false;
      changed();
    } else if (expect === "deal" || expect === "reveal") {
      addWord(c);
    } else if (expect === "layout" || expect === "turn") {
      card = card === c ? null : c;
      pile = null;
      render();
    }
  }
  function tapPile(p) {
    const expect = state ? state.expect : "";
    if (expect === "layout" && card) {
      addWord(p + ":" + card);
    } else if (expect === "turn" && card) {
      addAction(card + "->" + p);
    } else if (expect === "turn" && pile && pile !== p) {
      addAction(pile + "->" + p);
    } else {
      pile = pile === p ? null : p;
      card = null;
      render();
    }
  }
  function startLine(text) { line.value = text; drawing = false; changed(); }

  // --- talking to the server ---------------------------------------------------------------------
  async function post(path, body) {
    let answer;
    try {
      const response = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body) });
      answer = { status: response.status, body: await response.json() };
    } catch (err) {
      say(["Not sent: the server cannot be reached. Try again."], "error");
      return null;
    }
    if (answer.body && answer.body.state) apply(answer.body.state);
    return answer;
  }
  async function submit() {
    if (!state) return;
    const text = line.value;
    const answer = await post("line", { text: text, version: state.version });
    if (!answer) return;
    const body = answer.body;
    if (answer.status === 200) {
      line.value = "";
      drawing = false;
      say(body.notes.length ? body.notes.map((d) => d.message) : ["Written: " + body.text], "note");
      changed();
    } else if (answer.status === 422) {
      say(["Refused, not written: " + text].concat(body.diagnostics.map(diagnosticText)), "error");
    } else {
      say([body.error || "Refused"], "error");
    }
  }
  async function undo() {
    if (!state) return;
    const answer = await post("undo", { version: state.version });
    if (!answer) return;
    if (answer.status === 200) {
      say([answer.body.undone ? "Took back line " + answer.body.line + ": " + answer.body.undone : "Took back a blank line"], "note");
      changed();
    } else {
      say([answer.body.error || "Not taken back"], "error");
    }
  }
  async function offers() {
    const box = $("offers");
    if (!state || state.expect !== "turn") { box.replaceChildren(); return; }
    const after = line.value;
    const key = state.version + "|" + after;
    if (offerFor === key) return;
    offerFor = key;
    let list = state.legal;
    if (after.trim()) {
      try {
        const response = await fetch("offers?after=" + encodeURIComponent(after), { headers: headers() });
        list = (await response.json()).offers || [];
      } catch (err) { list = []; }
    }
    if (offerFor !== key) return;
    box.replaceChildren(...list.map((o) => {
      const b = el("button", o);
      b.type = "button";
      b.dataset.offer = o;
      return b;
    }));
  }
  async function load() {
    try {
      const response = await fetch("state", { headers: headers() });
      const body = await response.json();
      canWrite = !!body.write;
      apply(body);
    } catch (err) { /* the socket's reconnection tries again */ }
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const here = location.pathname.replace(/[^/]*$/, "");
    socket = new WebSocket(scheme + "//" + location.host + here + "ws?key=" + encodeURIComponent(KEY));
    socket.addEventListener("open", () => { retry = 0; $("link").classList.add("on"); load(); });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.state) apply(message.state);
    });
    socket.addEventListener("close", () => {
      $("link").classList.remove("on");
      socket = null;
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 300 * retry);
    });
  }

  // --- drawing the page ----------------------------------------------------------------------------
  function apply(next) {
    if (state && next.version < state.version) return;
    const moved = !state || next.version !== state.version;
    state = next;
    if (moved) { offerFor = null; render(); offers(); }
  }
  function statusText() {
    if (state.stopped) return "Stopped: " + state.stopped;
    switch (state.expect) {
      case "tag": return "Type the Players tag: [Players \"Ann, Bob\"]";
      case "hand": return "Next: hand " + state.next_hand;
      case "deal": return "Hand " + (state.next_hand - 1) + ": the deals (or the layout)";
      case "layout": return "Hand " + (state.next_hand - 1) + ": the layout";
      case "turn": return state.turn + " to play";
      case "reveal": return "The hand is over: reveal the cards left";
      default: return state.expect;
    }
  }
  function render() {
    if (!state) return;
    $("status").textContent = visible(statusText() + (canWrite ? "" : " (watching)"));
    const board = state.board;
    $("board").hidden = !board;
    $("hand").hidden = !(board && board.hand);
    if (board) {
      $("picture").src = "table.svg?v=" + state.version;
      const chips = board.chips ? state.players.map((n, i) => n + " " + board.chips[i]).join(", ") + ", pot " + board.pot : "";
      $("chips").textContent = visible(chips);
      if (board.hand) {
        $("hand-title").textContent = visible(state.turn) + ": " + board.hand.known.length + " known" +
          (board.hand.unknown ? ", " + board.hand.unknown + " unknown" : "");
        const played = new Set(line.value.replace(/->/g, " ").split(/[\s:;]+/));
        $("hand-cards").replaceChildren(...board.hand.known.map((c) => cardButton(c, played.has(c))));
      }
    }
    const placing = state.expect === "layout" || state.expect === "turn";
    $("piles").hidden = !placing;
    if (placing) {
      $("piles").replaceChildren(...PILES.map((p) => {
        if (!p) return el("div", board ? "stock " + board.stock : "", "stock");
        const cards = board ? board.piles[p] : [];
        const b = el("button", p + " " + (cards.length ? face(cards[cards.length - 1]) : "—"));
        b.type = "button";
        b.dataset.pile = p;
        if (pile === p) b.classList.add("selected");
        return b;
      }));
    }
    const who = $("who");
    who.replaceChildren();
    const starts = [];
    if (state.expect === "hand" || state.expect === "reveal") starts.push(["hand " + state.next_hand, "hand " + state.next_hand]);
    if (state.expect === "deal" || state.expect === "layout") {
      for (const p of state.players) if (!state.dealt.includes(p)) starts.push(["deal " + p, "deal " + p + ":"]);
      starts.push(["layout", "layout"]);
    }
    for (const p of state.reveal) starts.push(["reveal " + p, "reveal " + p + ":"]);
    for (const [label, text] of starts) {
      const b = el("button", label);
      b.type = "button";
      b.dataset.start = text;
      who.append(b);
    }
    const picking = ["deal", "layout", "reveal"].includes(state.expect) || drawing ||
      (state.expect === "turn" && board && board.hand && board.hand.unknown > 0);
    $("picker").hidden = !picking;
    if (picking) {
      $("picker-title").textContent = drawing ? "The card drawn" : "Cards (those already seen are greyed)";
      const seen = new Set(state.seen);
      const inLine = new Set(line.value.replace(/->/g, " ").split(/[\s:;]+/));
      $("deck").replaceChildren(...DECK.map((c) => cardButton(c, seen.has(c) || inLine.has(c))));
    }
    for (const id of ["draw", "unknown", "pass"]) $(id).hidden = state.expect !== "turn";
    $("unknown").hidden = !drawing;
    for (const id of ["draw", "unknown", "pass", "clear", "undo", "submit"]) $(id).disabled = !canWrite || !!state.stopped;
    $("end").hidden = !state.end;
    if (state.end) {
      $("settlement").textContent = visible(state.end.settlement);
      $("standings").textContent = visible(state.end.standings);
    }
    const recent = $("recent");
    const before = recent.childElementCount;
    const start = state.lines - state.recent.length + 1;
    recent.replaceChildren(...state.recent.map((text, i) => {
      const li = el("li", text);
      li.value = Math.max(1, start + i);
      return li;
    }));
    if (before && recent.lastElementChild) recent.lastElementChild.classList.add("new");
    recent.scrollTop = recent.scrollHeight;
  }

  // --- taps ------------------------------------------------------------------------------------------
  document.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b || b.disabled) return;
    if (b.dataset.card) tapCard(b.dataset.card);
    else if (b.dataset.pile) tapPile(b.dataset.pile);
    else if (b.dataset.offer) addAction(b.dataset.offer);
    else if (b.dataset.start) startLine(b.dataset.start);
  });
  $("draw").addEventListener("click", () => { addAction("draw"); drawing = true; render(); });
  $("unknown").addEventListener("click", () => { drawing = false; render(); });
  $("pass").addEventListener("click", () => addAction("pass"));
  $("clear").addEventListener("click", () => { line.value = ""; drawing = false; changed(); });
  $("undo").addEventListener("click", undo);
  $("submit").addEventListener("click", submit);
  line.addEventListener("input", () => { drawing = false; offers(); });
  line.addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  load();
  connect();
})();
