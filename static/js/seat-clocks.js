// The other seats' clocks at an online table (issue 31; templates/cardtable/table.html): each
// tile of a seat asked something carries its deadline and the server's now when the table was
// drawn (data-deadline, data-now, ms); this counts the seconds since, so the device's own
// clock never matters, only its pace. Nothing is asked at zero: the server plays for the seat
// and the table's poll brings it. Without this file the tiles show the time left when drawn.
(function () {
  "use strict";
  var timer = null;

  function shown(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function start() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    var clocks = Array.prototype.map.call(document.querySelectorAll("[data-seat-clock]"), function (el) {
      var left = parseInt(el.getAttribute("data-deadline"), 10) - parseInt(el.getAttribute("data-now"), 10);
      return { figure: el.querySelector("[data-left]"), left: left };
    });
    if (!clocks.length) return;
    var drawnAt = Date.now();
    function tick() {
      clocks.forEach(function (c) {
        if (c.figure && !isNaN(c.left)) c.figure.textContent = shown(c.left - (Date.now() - drawnAt));
      });
    }
    tick();
    timer = window.setInterval(tick, 1000);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "card-table") start();
  });
})();
