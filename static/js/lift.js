// A move's button sends when the finger lifts (issue 26, a quicker tap): the referee console
// (templates/duels/console.html) loads this with the buttons that send a move in its
// data-sends (a selector). A phone's browser
// makes the click of a tap only after the touch's end has gone through its input pipeline
// and a frame (press and focus styles): 20-50 ms at 4x, measured, before any script of the
// page may send. The lift is the up-event WCAG 2.5.2 asks for, so a finger slid off the
// button, a scroll (pointercancel) or a long press still sends nothing. The tap's own click,
// when it comes, is swallowed: by its pointerId where the click is a PointerEvent (Chromium,
// Firefox, Safari 17+), else the first click within a second. A mouse, a pen's hover, the
// keyboard and a screen reader's activation (no pointer lifted) click as before. Without
// this file every button clicks as the browser does.
(function () {
  "use strict";
  var script = document.currentScript;
  var SENDS = script && script.getAttribute("data-sends");
  if (!SENDS) return;
  var pressed = null;
  var lifted = []; // { id, at }: taps whose move was sent at the lift, until their click
  document.addEventListener("pointerdown", function (event) {
    pressed = null;
    if (event.pointerType === "mouse" || !event.isPrimary || event.button !== 0) return;
    var button = event.target.closest && event.target.closest(SENDS);
    if (button) pressed = { id: event.pointerId, button: button, x: event.clientX, y: event.clientY, t: event.timeStamp };
  }, true);
  document.addEventListener("pointercancel", function () { pressed = null; }, true);
  document.addEventListener("pointerup", function (event) {
    var p = pressed;
    pressed = null;
    if (!p || p.id !== event.pointerId || !p.button.isConnected || p.button.disabled) return;
    // A tap, not a long press or a slide (Chromium's touch slop is about 10 px).
    if (event.timeStamp - p.t > 450 || Math.abs(event.clientX - p.x) > 10 || Math.abs(event.clientY - p.y) > 10) return;
    lifted.push({ id: event.pointerId, at: event.timeStamp });
    p.button.click(); // the button's own activation: its form, its value, validation, htmx
  }, true);
  window.addEventListener("click", function (event) {
    if (!event.isTrusted || !lifted.length) return;
    var now = event.timeStamp;
    lifted = lifted.filter(function (tap) { return now - tap.at < 2000; });
    var own = window.PointerEvent && event instanceof window.PointerEvent
      ? lifted.filter(function (tap) { return tap.id === event.pointerId; })[0]
      : lifted.filter(function (tap) { return now - tap.at < 1000; })[0];
    if (!own) return;
    lifted.splice(lifted.indexOf(own), 1);
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
})();
