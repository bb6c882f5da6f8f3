// Push to open pages (issue 28). A page whose view named topics carries
// <meta name="push" content="<stream address>" data-renew=… data-topics=…>; its live parts
// carry data-topic. With a stream up, news arrives within a second:
// - a public topic's message holds the part itself (rendered once for every spectator):
//   it replaces the part, unless the part shows that version already or a newer one;
// - a private topic's message holds only its version: the part asks its own (checked) view,
//   as its poll does, carrying that version (X-Push-Version), so that no copy older than it
//   answers.
// The polls go on, slower (data-slow seconds), to catch anything lost. Without a stream (no
// Redis, a proxy that buffers, the server's limit reached, an error) the page polls as
// before. Works without this file: the page polls.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="push"]');
  if (!meta || !window.EventSource || !window.JSON) return;
  var SLOW = 1000 * parseFloat(meta.getAttribute("data-slow") || "30");
  // A stream that says nothing this long after opening is held back on the way (a proxy
  // that buffers): this page polls instead.
  var READY_WITHIN = 1000 * parseFloat(meta.getAttribute("data-ready") || "8");
  var topics = (meta.getAttribute("data-topics") || "").split(" ").filter(Boolean);
  var source = null;
  var up = false;
  var readyTimer = null;
  var failures = 0;
  var seen = {}; // topic → the number of the last message taken
  var fetchedAt = {}; // a live part's id → when it last asked its view

  function say(state) {
    up = state === "up";
    document.documentElement.setAttribute("data-push", state);
  }

  function parts(topic) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-topic]"), function (el) {
      return (el.getAttribute("data-topic") || "").split(" ").indexOf(topic) !== -1;
    });
  }

  function take(message) {
    if (!message || !message.t || (seen[message.t] || 0) >= message.n) return;
    seen[message.t] = message.n;
    parts(message.t).forEach(function (el) {
      if (typeof message.html === "string") {
        if (el.getAttribute("data-tag") === String(message.v)) return;
        var shown = parseInt(el.getAttribute("data-tv") || "0", 10);
        if (typeof message.tv === "number" && message.tv < shown) return;
        if (el.id) fetchedAt[el.id] = Date.now();
        window.htmx.swap(el, message.html, { swapStyle: "outerHTML" });
      } else if (el.hasAttribute("data-reload-past")) {
        reloadIfPast(el, message.v);
      } else if (el.hasAttribute("data-refresh-page")) {
        refreshPage(el, message.v);
      } else if (!holds(el, message)) {
        ask(el, message);
        // A part that says which version it shows may have a request in flight, which its
        // hx-sync keeps and this push's request it drops: asked again once that settles.
        if (el.hasAttribute("data-versions")) pending[message.t] = message;
      }
    });
  }

  function ask(el, message) {
    el.setAttribute("data-push-version", message.v === null ? "" : String(message.v));
    window.htmx.trigger(el, "push");
  }

  // News not yet shown by a part that says which version it shows (data-versions): after
  // every swap, the parts still short of it ask again; none short, the news is done.
  var pending = {};
  document.addEventListener("htmx:afterSettle", function () {
    Object.keys(pending).forEach(function (topic) {
      var message = pending[topic];
      var short = parts(topic).filter(function (el) {
        return el.hasAttribute("data-versions") && !holds(el, message);
      });
      if (!short.length) delete pending[topic];
      short.forEach(function (el) {
        ask(el, message);
      });
    });
  });

  // A part that says which version of a topic it shows (data-versions="duel:5=12"): news of
  // that version or an older one (the echo of this device's own move) asks nothing.
  function holds(el, message) {
    var pairs = (el.getAttribute("data-versions") || "").split(" ");
    for (var i = 0; i < pairs.length; i++) {
      var at = pairs[i].lastIndexOf("=");
      if (at > 0 && pairs[i].slice(0, at) === message.t) {
        return typeof message.v === "number" && message.v <= parseInt(pairs[i].slice(at + 1), 10);
      }
    }
    return false;
  }

  // A page drawn whole at a revision (a practice game's table): a newer one reloads it.
  function reloadIfPast(el, version) {
    var shown = parseInt(el.getAttribute("data-reload-past") || "0", 10);
    if (typeof version === "number" && version > shown) window.location.reload();
  }

  // After a first connection, the parts ask once: what changed between the page and its
  // stream. A stream that resumed (Last-Event-ID) was sent what it missed instead.
  // A page of forms (the organiser's): redrawn in place with the news, unless a form on it is
  // in use (a field changed or focused); then it says so and offers to, keeping the form.
  function inUse() {
    var active = document.activeElement;
    if (active && active.form && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) return true;
    return Array.prototype.some.call(document.querySelectorAll("main form"), function (form) {
      return Array.prototype.some.call(form.elements, function (field) {
        if (field.type === "hidden" || field.type === "submit" || field.type === "button") return false;
        if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
        if (field.tagName === "SELECT") {
          var marked = Array.prototype.filter.call(field.options, function (option) {
            return option.defaultSelected;
          });
          // A single select that marks none starts at its first option.
          if (!field.multiple && !marked.length) return field.selectedIndex > 0;
          return Array.prototype.some.call(field.options, function (option) {
            return option.selected !== option.defaultSelected;
          });
        }
        return field.value !== field.defaultValue;
      });
    });
  }
  function redraw() {
    window.htmx.ajax("GET", window.location.href, { target: "main", select: "main", swap: "outerHTML" });
  }
  function refreshPage(el, version) {
    var shown = parseInt(el.getAttribute("data-version") || "0", 10);
    if (typeof version !== "number" || version <= shown) return;
    if (!inUse()) {
      redraw();
      return;
    }
    var box = document.getElementById("messages");
    if (!box || box.querySelector(".push-news")) return;
    var note = document.createElement("p");
    note.className = "message info push-news";
    note.textContent = el.getAttribute("data-busy-words") + " ";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = el.getAttribute("data-refresh-words");
    button.addEventListener("click", function () {
      note.remove();
      redraw();
    });
    note.appendChild(button);
    box.appendChild(note);
  }

  function refreshAll(versions) {
    document.querySelectorAll("[data-topic]").forEach(function (el) {
      if (el.hasAttribute("data-refresh-page")) {
        refreshPage(el, versions[el.getAttribute("data-topic")]);
      } else if (el.hasAttribute("data-reload-past")) {
        reloadIfPast(el, versions[el.getAttribute("data-topic")]);
      } else if (el.hasAttribute("hx-get")) {
        window.htmx.trigger(el, "push");
      }
    });
  }

  function resumeFrom() {
    return Object.keys(seen)
      .map(function (topic) {
        return topic + "@" + seen[topic];
      })
      .join(",");
  }

  function connect(url) {
    if (source) source.close();
    var last = resumeFrom();
    source = new EventSource(last ? url + "&last=" + encodeURIComponent(last) : url);
    clearTimeout(readyTimer);
    readyTimer = setTimeout(function () {
      if (up) return;
      // Nothing came: a proxy on the way holds the stream back (or the server was slow just
      // then). Polls it is, and the stream is tried again now and then, less and less often.
      source.close();
      say("buffered");
      failures = Math.max(failures, 5); // the next try in 16–32 s, then up to a minute apart
      renew();
    }, READY_WITHIN);
    source.addEventListener("ready", function (event) {
      clearTimeout(readyTimer);
      failures = 0;
      say("up");
      var info = {};
      try {
        info = JSON.parse(event.data);
      } catch (error) {
        info = {};
      }
      if (!info.resumed) refreshAll(info.versions || {});
    });
    source.addEventListener("change", function (event) {
      try {
        take(JSON.parse(event.data));
      } catch (error) {
        // A message this page cannot read: its poll brings the news instead.
      }
    });
    source.addEventListener("bye", function () {
      say("down"); // the server ends the stream (a restart, a renewal): the browser comes back
    });
    source.onerror = function () {
      say("down");
      clearTimeout(readyTimer);
      if (source.readyState === EventSource.CLOSED) renew();
    };
  }

  // A stream refused (its token too old, the server full or without Redis): a fresh token
  // from the checked view, after a pause that grows with each failure; polls meanwhile.
  function renew() {
    failures += 1;
    var pause = Math.min(60000, 1000 * Math.pow(2, failures)) * (0.5 + Math.random() / 2);
    setTimeout(function () {
      var query = topics
        .map(function (topic) {
          return "topic=" + encodeURIComponent(topic);
        })
        .join("&");
      fetch(meta.getAttribute("data-renew") + "?" + query, { credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 403 || response.status === 404) return null; // polls only
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (stream) {
          if (stream && stream.url) connect(stream.url);
        })
        .catch(function () {
          renew();
        });
    }, pause);
  }

  // Polls: a live part asks at its interval while no stream is up, and at most every SLOW
  // milliseconds while one is (a message that was lost still arrives).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-topic")) return;
    var cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var pushed = cause && cause.type === "push";
    var key = elt.id || elt.getAttribute("data-topic");
    if (!pushed && up && Date.now() - (fetchedAt[key] || 0) < SLOW) {
      event.preventDefault();
      return;
    }
    fetchedAt[key] = Date.now();
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var cause = event.detail && event.detail.triggeringEvent;
    if (!elt || !cause || cause.type !== "push" || !elt.getAttribute) return;
    var version = elt.getAttribute("data-push-version");
    if (version) event.detail.headers["X-Push-Version"] = version;
  });

  say("down");
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      connect(meta.getAttribute("content"));
    });
  } else connect(meta.getAttribute("content"));
})();
