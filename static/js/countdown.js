// Trois's clock counting down on the page (issue 30). The server's time stays the truth: the
// page carries the deadline and the server's now when it was drawn (data-deadline, data-now,
// in ms), so the time left never depends on this device's clock being right; this script only
// counts the seconds since the page was drawn. At zero it says the words the server put in
// data-up and asks the server for the table (the server calls time at its own deadline: a
// move sent after it is answered in words). Without this file the page shows the time left
// when it was drawn. Every swap of the table brings a fresh deadline and now.
(function () {
  "use strict";
  var timer = null;

  function clockOf() {
    return document.querySelector("[data-countdown]");
  }

  function shown(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function start() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    var clock = clockOf();
    if (!clock) return;
    var left = parseInt(clock.getAttribute("data-deadline"), 10) - parseInt(clock.getAttribute("data-now"), 10);
    if (isNaN(left)) return;
    var drawnAt = Date.now();
    // Said on the element, so that whoever waits for the clock to run (a test moving the
    // page's clock) knows it is counting from now on.
    clock.setAttribute("data-running", "");
    // A table drawn at or past its deadline asks nothing more (the server had its say).
    var asked = left <= 0;
    function tick() {
      var now = clockOf();
      if (now !== clock) return; // swapped out: the new table has started its own
      var remaining = left - (Date.now() - drawnAt);
      var figure = clock.querySelector("[data-left]");
      if (remaining > 0) {
        if (figure) figure.textContent = shown(remaining);
        return;
      }
      window.clearInterval(timer);
      timer = null;
      clock.textContent = clock.getAttribute("data-up");
      if (asked) return;
      asked = true;
      var table = clock.getAttribute("data-table");
      if (window.htmx && table) {
        window.htmx.ajax("GET", table, { target: "#card-table", swap: "outerHTML" });
      } else if (table) {
        window.location.assign(table);
      }
    }
    tick();
    timer = window.setInterval(tick, 1000);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "card-table") start();
  });
})();
