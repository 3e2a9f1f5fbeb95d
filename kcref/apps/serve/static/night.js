// kcref serve: the night's page, the standings across the tables, reloaded at each change of any
// table. The text from the server goes in as textContent, never as markup.
"use strict";
(function () {
  const KEY = new URLSearchParams(location.search).get("key") || "";
  const $ = (id) => document.getElementById(id);
  let retry = 0;

  async function load() {
    try {
      const response = await fetch("standings", { headers: { "X-Kcref-Key": KEY } });
      const body = await response.json();
      $("standings").textContent = body.standings;
      $("status").textContent = body.tables.length + " tables: " + body.tables.join(", ");
    } catch (err) { /* the socket's reconnection tries again */ }
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + "/ws?key=" + encodeURIComponent(KEY));
    socket.addEventListener("open", () => { retry = 0; $("link").classList.add("on"); });
    socket.addEventListener("message", load);
    socket.addEventListener("close", () => {
      $("link").classList.remove("on");
      retry = Math.min(retry + 1, 5);
      setTimeout(connect, 300 * retry);
    });
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  connect();
})();
