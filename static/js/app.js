// Shows the person what went wrong with an htmx request that swapped nothing
// (server errors, lost connection): 4xx answers carry their own message and are swapped.
(function () {
  "use strict";
  // These words in the page's language: base.html writes them, translated, on #app-words
  // (issue 29); as written here where a page has none.
  function gettext(text, name) {
    var words = document.getElementById("app-words");
    return (words && name && words.getAttribute("data-" + name)) || text;
  }
  function interpolate(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, name) { return values[name]; });
  }
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
    say(interpolate(
      gettext(
        "The server could not complete this (error {status}). Nothing was changed; try again.",
        "server-error"
      ),
      { status: status }
    ));
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (polled(event)) return;
    say(gettext(
      "No connection to the server: nothing was sent. Check the network and try again.",
      "no-connection"
    ));
  });
})();

// Live parts poll at the page's interval ("every 5s"), each browser at its own pace around it
// (issue 15): a crowd that opened the page together, or was served a result together, does
// not keep polling in step. Every time htmx takes in a polling element (the page, each
// swapped fragment) its interval is redrawn between 0.85 and 1.15 times the page's.
(function () {
  "use strict";
  var EVERY = /^every (\d+(?:\.\d+)?)s(,.*)?$/; // ", push": news by push (live.js)
  document.addEventListener("htmx:beforeProcessNode", function (event) {
    var elt = event.target;
    // The public pages' live parts and the big screen's panels (not the referee's console).
    if (!elt || !elt.id || !(elt.id === "live" || elt.id.indexOf("panel-") === 0)) return;
    var found = EVERY.exec(elt.getAttribute("hx-trigger") || "");
    if (!found || elt.hasAttribute("data-poll-base")) return;
    var base = parseFloat(found[1]);
    elt.setAttribute("data-poll-base", String(base));
    var seconds = base * (0.85 + Math.random() * 0.3);
    elt.setAttribute("hx-trigger", "every " + seconds.toFixed(2) + "s" + (found[2] || ""));
  });
})();

// A form sent back with its errors (a 422 page) may hold them far below the top of the page:
// the first field in error takes the focus and comes into view, so a person sees at once what
// to correct (a screen reader reads its label and error). Nothing moves when the page already
// chose where focus goes (autofocus), nor on a page without errors.
(function () {
  "use strict";
  function firstError() {
    var field = document.querySelector('main [aria-invalid="true"]');
    if (field) return field;
    var box = document.querySelector("main form .errors, main form .error");
    if (box && !box.hasAttribute("tabindex")) box.setAttribute("tabindex", "-1");
    return box;
  }
  function show() {
    if (document.querySelector("[autofocus]")) return;
    var target = firstError();
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "center" });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();

// A control that its own request swapped away (the Undo of the only move, a form replaced by
// its answer) leaves the focus on the page's body, and a keyboard or screen-reader user
// starts again from the top. The focus goes instead to what took its place: the new part's
// first control. Polls never move the focus, nor does a swap that left it somewhere, or one
// whose page already placed it (autofocus), or places it itself (`data-own-focus`: the
// referee console).
(function () {
  "use strict";
  var CONTROL =
    '[autofocus], input:not([type="hidden"]):not([disabled]), select:not([disabled]), ' +
    'textarea:not([disabled]), button:not([disabled]), a[href]';
  document.addEventListener("htmx:afterSettle", function (event) {
    var active = document.activeElement;
    if (active && active !== document.body) return;
    var detail = event.detail || {};
    var asking = detail.requestConfig && detail.requestConfig.elt;
    if (!asking || asking.isConnected) return;
    var trigger = asking.getAttribute && asking.getAttribute("hx-trigger");
    if (trigger && trigger.indexOf("every") !== -1) return;
    var part = event.target;
    if (!part || !part.isConnected || !part.querySelector) return;
    // A part whose page places the focus itself, once the new state is drawn (the referee
    // console, console.js): focusing here would lay the page out at once (issue 26).
    if (part.closest && part.closest("[data-own-focus]")) return;
    var control = part.querySelector(CONTROL);
    if (control) control.focus();
  });
})();

// "Copy the link" beside a link shown only once (a claim, an invitation, a replay link): the
// button shows where the browser offers a clipboard; elsewhere the link stays selectable text
// in its read-only field, copied by hand. The result is said in words beside the button.
(function () {
  "use strict";
  function offer(root) {
    if (!navigator.clipboard || !root.querySelectorAll) return;
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector(".copy-status");
    if (!field) return;
    function say(text) {
      if (status) status.textContent = text;
    }
    navigator.clipboard.writeText(field.value).then(
      function () {
        say(button.getAttribute("data-copied") || "Copied.");
      },
      function () {
        field.focus();
        field.select();
        say(
          button.getAttribute("data-copy-failed") ||
          "The browser did not let this page copy: the link is selected, copy it with Ctrl+C (⌘C)."
        );
      }
    );
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      offer(document);
    });
  } else offer(document);
  document.addEventListener("htmx:load", function (event) {
    offer(event.detail.elt);
  });
})();

// The create page's time zone (issue 26): the select starts at the site's default, and moves
// to this device's own zone when the list has it. A device may report an older name of its
// zone ("Asia/Calcutta"): the page lists those with the name the list uses. Only a form not
// yet sent carries `data-browser-zone`: a form sent back keeps what the person chose.
(function () {
  "use strict";
  var select = document.querySelector("select[data-browser-zone]");
  if (!select || !window.Intl) return;
  var zone, aliases = {};
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    aliases = JSON.parse(select.getAttribute("data-zone-aliases") || "{}");
  } catch (error) {
    return;
  }
  zone = aliases[zone] || zone;
  for (var i = 0; i < select.options.length; i++) {
    if (select.options[i].value === zone) {
      select.value = zone;
      return;
    }
  }
})();

// A live part that becomes another page by itself (`HX-Redirect`: the ready screen of an
// online duel once both players are ready, ONLINE.md 6) says where the focus goes on the page
// it leads to (`data-focus-after-redirect`: the card table's headline), as a part swapped in
// place moves it (card-table.js): a keyboard or screen-reader user is not left at the top of
// a page they did not ask for. Remembered for that one address in this tab only, and
// forgotten once used (a later visit or a reload of the page does not move the focus).
(function () {
  "use strict";
  var KEY = "split-uno:focus-after-redirect";
  document.addEventListener("htmx:beforeOnLoad", function (event) {
    var detail = event.detail || {};
    var to = detail.xhr && detail.xhr.getResponseHeader("HX-Redirect");
    var part = detail.elt && detail.elt.closest && detail.elt.closest("[data-focus-after-redirect]");
    if (!to || !part) return;
    try {
      var path = new URL(to, window.location.href).pathname;
      var wanted = part.getAttribute("data-focus-after-redirect");
      window.sessionStorage.setItem(KEY, JSON.stringify({ path: path, target: wanted }));
    } catch (error) {
      // No storage (a private window's quota): the page opens as any other.
    }
  });
  function land() {
    var kept;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(KEY) || "null");
      if (kept) window.sessionStorage.removeItem(KEY);
    } catch (error) {
      return;
    }
    if (!kept || kept.path !== window.location.pathname) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    var target = document.querySelector(kept.target);
    if (target) target.focus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", land);
  else land();
})();
