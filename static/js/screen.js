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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
