// Shows the person what went wrong with an htmx request that swapped nothing
// (server errors, lost connection): 4xx answers carry their own message and are swapped.
(function () {
  "use strict";
  function say(text, kind) {
    var box = document.getElementById("messages");
    if (!box) return;
    var p = document.createElement("p");
    p.className = "message " + (kind || "error");
    p.textContent = text;
    box.appendChild(p);
  }
  // A live poll that fails is retried at its next tick: saying so every few seconds would
  // bury the page in messages, so only requests a person made are reported.
  function polled(event) {
    var trigger = event.detail && event.detail.elt && event.detail.elt.getAttribute("hx-trigger");
    return Boolean(trigger && trigger.indexOf("every") !== -1);
  }
  document.addEventListener("htmx:responseError", function (event) {
    if (polled(event)) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    say("The server could not complete this (error " + status + "). Nothing was changed; try again.");
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (polled(event)) return;
    say("No connection to the server: nothing was sent. Check the network and try again.");
  });
})();
