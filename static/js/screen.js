// The big screen's turns (templates/public/screen.html). The turn is one attribute,
// data-turn on .screen-panels, naming the panel that shows; this timer is its only writer
// and the stylesheet shows that panel alone, so exactly one panel shows at any time whatever
// the order of turns and poll swaps (a poll swaps only the inside of its panel). The pause
// box (WCAG 2.2.2) holds the turn where it is.
(function () {
  "use strict";
  var SECONDS = 12;

  function start() {
    var box = document.querySelector(".screen.is-cycling .screen-panels");
    if (!box) return;
    var names = Array.prototype.map.call(box.querySelectorAll(":scope > [data-panel]"),
      function (panel) { return panel.getAttribute("data-panel"); });
    var pause = document.getElementById("screen-pause");
    setInterval(function () {
      if (pause && pause.checked) return;
      var next = (names.indexOf(box.getAttribute("data-turn")) + 1) % names.length;
      box.setAttribute("data-turn", names[next]);
    }, SECONDS * 1000);
  }

  // The venue clock (issue 16), in the tournament's time zone whatever the projector's own:
  // Intl formats the browser's time in the zone the page names, in the page's language. It writes only the clock,
  // never data-turn.
  function tickClock() {
    var clock = document.getElementById("screen-clock");
    if (!clock) return;
    var zone = clock.getAttribute("data-time-zone") || "UTC";
    // The page's language (the tournament's, on the big screen) says 12 or 24 hours.
    var locale = clock.getAttribute("data-locale") || document.documentElement.lang || "en-GB";
    var format;
    try {
      format = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: "2-digit", minute: "2-digit" });
    } catch (e) {
      return; // an unknown zone: keep the server's reading
    }
    function tick() {
      var now = new Date();
      var text = format.format(now);
      if (clock.textContent !== text) {
        clock.textContent = text;
        clock.setAttribute("datetime", now.toISOString());
      }
    }
    tick();
    setInterval(tick, 1000);
  }

  function ready() {
    start();
    tickClock();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
