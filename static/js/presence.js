// Presence at an online table (issue 31, ONLINE.md 4; templates/practice/table.html): while
// the person's own seat page is visible it tells the server so every few seconds (a tiny POST
// with the CSRF header, answered 204); the others see "Ada is away" after 10 s without one.
// A hidden page (another tab, a locked phone) sends nothing, and beats again at once when it
// is shown. The table's #card-table carries the address (data-beat) while the person holds a
// seat in a running game; a watch page has none.
(function () {
  "use strict";
  var timer = null;

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function target() {
    var table = document.getElementById("card-table");
    return table ? table.getAttribute("data-beat") : null;
  }

  function send() {
    var url = target();
    if (!url || document.visibilityState !== "visible") return;
    fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf() },
    }).catch(function () {});
  }

  function start() {
    if (timer !== null) return;
    var table = document.getElementById("card-table");
    var seconds = table ? parseInt(table.getAttribute("data-beat-seconds"), 10) : NaN;
    if (!target() || isNaN(seconds)) return;
    timer = window.setInterval(send, seconds * 1000);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", start);
  document.addEventListener("visibilitychange", send);
})();
