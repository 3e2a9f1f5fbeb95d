"use strict";
// The replay of kcref report: one picture of the table (drawn by kcref's table_svg), moved into
// the hand being replayed and changed step by step from the hand's JSON, read when the hand is
// first opened. Every text from the log that this script sets is set with textContent or
// setAttribute, never parsed as markup. The steps are the Python referee's tables, encoded as what changed from step to step
// (kcref.render.replay_steps.Encoder): this script only applies them.
(function () {
  var CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  var PILES = ["N", "E", "S", "W", "NE", "NW", "SE", "SW"];
  var data = {cards: JSON.parse(document.getElementById("kc-cards").textContent)};
  var viewer = document.getElementById("kc-viewer");
  var svg = viewer.querySelector("svg.kc-table");
  var where = viewer.querySelector(".where");
  var current = null; // {el, hand, states, step}
  var expanded = new WeakMap(); // a hand's element: its replay, read and expanded once

  function href(ch) { return "#c-" + data.cards[CHARS.indexOf(ch)]; }
  function part(role, root) { return (root || svg).querySelector('[data-role="' + role + '"]'); }
  function setText(el, text) { if (el.textContent !== text) { el.textContent = text; } }
  function showUse(use, ch) {
    if (ch) { use.setAttribute("href", href(ch)); use.removeAttribute("visibility"); }
    else { use.setAttribute("visibility", "hidden"); }
  }
  function names(chars) { return Array.prototype.map.call(chars, function (c) { return data.cards[CHARS.indexOf(c)]; }).join(" "); }

  // Parts that changed ("0Hg2oN": pile or seat 0 now holds H g, pile 2 o N): a digit starts a
  // part, the card characters after it are its cards.
  function change(parts, changes) {
    var at = -1;
    for (var i = 0; i < changes.length; i++) {
      var ch = changes.charAt(i);
      if (ch >= "0" && ch <= "9") { at = +ch; parts[at] = ""; } else { parts[at] += ch; }
    }
  }

  // Each step: [lines, player, stock, status, piles, seats, unknown, stacks, pot, note], null (or
  // left off) where nothing changed; status and note index the hand's texts.
  function expand(hand) {
    var state = {l: 0, c: [], h: []};
    return hand.steps.map(function (step) {
      var s = Object.assign({}, state, {c: state.c.slice(), h: state.h.slice()});
      var has = function (i) { return step[i] !== null && step[i] !== undefined; };
      s.l = state.l + step[0];
      if (has(1)) { s.p = step[1]; }
      if (has(2)) { s.k = step[2]; }
      if (has(3)) { s.t = hand.texts[step[3]]; }
      if (has(4)) { change(s.c, step[4]); }
      if (has(5)) { change(s.h, step[5]); }
      if (has(6)) { s.u = step[6]; }
      if (has(7)) { s.s = step[7]; }
      if (has(8)) { s.o = step[8]; }
      if (has(9)) { s.n = hand.texts[step[9]]; }
      state = s;
      return s;
    });
  }

  function drawPiles(s) {
    var piles = s.c;
    PILES.forEach(function (name, i) {
      var g = svg.querySelector('[data-pile="' + name + '"]');
      var cards = piles[i] || "";
      g.setAttribute("data-count", cards.length);
      g.setAttribute("data-top", cards ? data.cards[CHARS.indexOf(cards[cards.length - 1])] : "");
      g.setAttribute("data-bottom", cards ? data.cards[CHARS.indexOf(cards[0])] : "");
      g.setAttribute("data-cards", names(cards));
      showUse(part("bottom", g), cards[0]);
      showUse(part("top", g), cards.length > 1 ? cards[cards.length - 1] : "");
      setText(part("count", g), cards.length > 1 ? String(cards.length) : "");
    });
    var stock = svg.querySelector("g[data-stock]");
    stock.setAttribute("data-stock", s.k);
    svg.setAttribute("data-stock", s.k);
    setText(part("label", stock), "stock " + s.k);
  }

  function drawSeats(s, players) {
    var known = s.h;
    var seats = svg.querySelectorAll("g[data-seat]");
    Array.prototype.forEach.call(seats, function (g, i) {
      if (i >= players.length) { g.setAttribute("display", "none"); return; }
      g.removeAttribute("display");
      var cards = known[i] || "", unknown = (s.u && s.u[i]) || 0, count = cards.length + unknown;
      g.setAttribute("data-name", players[i]);
      g.setAttribute("data-count", count);
      g.setAttribute("data-known", names(cards));
      g.setAttribute("data-unknown", unknown);
      g.setAttribute("class", i === s.p ? "seat turn" : "seat");
      setText(part("name", g), players[i]);
      var chips = s.s ? ", chips " + s.s[i] : "";
      setText(part("count", g), count + (count === 1 ? " card" : " cards") + chips);
      var uses = g.querySelectorAll("use[data-slot]");
      Array.prototype.forEach.call(uses, function (use, slot) {
        if (slot < cards.length) { showUse(use, cards[slot]); }
        else if (slot < count) { use.setAttribute("href", "#c-back"); use.removeAttribute("visibility"); }
        else { use.setAttribute("visibility", "hidden"); }
      });
      setText(part("more", g), count > uses.length ? "+" + (count - uses.length) : "");
    });
    var h = +svg.getAttribute("data-base-height") + players.length * +svg.getAttribute("data-seat-height");
    svg.setAttribute("viewBox", "0 0 " + svg.getAttribute("width") + " " + h);
    svg.setAttribute("height", h);
  }

  function show(i) {
    var c = current;
    if (!c || !c.states.length) { return; }
    c.step = Math.max(0, Math.min(c.states.length - 1, i));
    var s = c.states[c.step];
    svg.setAttribute("data-line", s.l);
    svg.setAttribute("data-player", s.p < 0 ? "" : s.p);
    setText(part("line"), "after line " + s.l);
    setText(part("pot"), s.o === null || s.o === undefined ? "" : "pot " + s.o);
    setText(part("status"), s.t);
    setText(part("note"), s.n || "");
    drawPiles(s);
    drawSeats(s, c.hand.names);
    setText(where, "step " + (c.step + 1) + " of " + c.states.length);
    var old = c.el.querySelector("li.current");
    if (old) { old.classList.remove("current"); }
    var li = c.el.querySelector('li[data-l="' + s.l + '"]');
    if (li) {
      li.classList.add("current");
      var log = li.parentNode;
      if (li.offsetTop < log.scrollTop || li.offsetTop > log.scrollTop + log.clientHeight - li.offsetHeight) {
        log.scrollTop = li.offsetTop - log.clientHeight / 2;
      }
    }
  }

  // A hand's body waits in a comment until the hand is first shown: the page's own markup, made
  // and escaped by kcref (report_page.py), inserted as it stands.
  function build(el) {
    for (var node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === Node.COMMENT_NODE) {
        el.insertAdjacentHTML("beforeend", node.data);
        el.removeChild(node);
        return;
      }
    }
  }

  function open(el) {
    build(el);
    var replay = expanded.get(el);
    if (!replay) {
      var hand = JSON.parse(el.querySelector("template.kc-replay").content.textContent);
      replay = {hand: hand, states: expand(hand)};
      expanded.set(el, replay);
    }
    var states = replay.states;
    current = {el: el, hand: replay.hand, states: states, step: 0};
    if (!states.length) { viewer.hidden = true; return; }
    el.querySelector(".stage").appendChild(viewer);
    viewer.hidden = false;
    show(0);
  }

  var printing = [];
  // Printed, every hand shows its lines (the replay does not print): open the closed ones, then
  // close them again.
  window.addEventListener("beforeprint", function () {
    printing = Array.prototype.filter.call(document.querySelectorAll("details.hand"), function (el) { return !el.open; });
    printing.forEach(function (el) { build(el); el.open = true; });
  });
  window.addEventListener("afterprint", function () {
    printing.forEach(function (el) { el.open = false; });
    setTimeout(function () { printing = []; }, 0);
  });

  document.addEventListener("toggle", function (e) {
    var el = e.target;
    if (!el.matches || !el.matches("details.hand") || printing.indexOf(el) >= 0) { return; }
    if (el.open) { if (!current || current.el !== el) { open(el); } }
    else if (current && current.el === el) { viewer.hidden = true; current = null; }
  }, true);

  viewer.addEventListener("click", function (e) {
    var go = e.target.getAttribute && e.target.getAttribute("data-go");
    if (!go || !current) { return; }
    var last = current.states.length - 1;
    show({first: 0, prev: current.step - 1, next: current.step + 1, last: last}[go]);
  });

  document.addEventListener("click", function (e) {
    var li = e.target.closest && e.target.closest("ol.log li.s");
    if (!li) { return; }
    var el = li.closest("details.hand");
    if (!current || current.el !== el) { open(el); }
    var line = +li.getAttribute("data-l");
    for (var i = 0; i < current.states.length; i++) {
      if (current.states[i].l === line) { show(i); return; }
    }
  });

  document.addEventListener("keydown", function (e) {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") { return; }
    var to = {ArrowRight: current.step + 1, ArrowLeft: current.step - 1, Home: 0, End: current.states.length - 1}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });

  // A page linked to a hand (#f1h2) opens on it. A live page (kcref report --watch) reloads
  // itself: it keeps the hand opened in its address, else it follows the last hand, at its end.
  var live = document.body.hasAttribute("data-live");
  var hands = document.querySelectorAll("details.hand");
  var first = location.hash && document.getElementById(location.hash.slice(1));
  if (first && first.matches("details.hand")) { first.open = true; }
  else if (live && hands.length) {
    var last = hands[hands.length - 1];
    last.open = true;
    open(last);
    show(current ? current.states.length - 1 : 0);
    last.scrollIntoView();
  }
  if (live) {
    document.addEventListener("toggle", function (e) {
      if (e.target.open && e.target.matches && e.target.matches("details.hand")) {
        history.replaceState(null, "", "#" + e.target.id);
      }
    }, true);
  }
})();
