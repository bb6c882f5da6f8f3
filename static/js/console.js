// The referee console, made faster: digits typed on a keyboard fill the pads (seat A, then B),
// Enter plays the round, focus stays on the pad across htmx swaps, and the time-limit clock
// counts down. The page works without this file: every form posts and redirects.
(function () {
  "use strict";

  function roundForm() { return document.getElementById("round-form"); }

  function pads() {
    var form = roundForm();
    return form ? Array.prototype.slice.call(form.querySelectorAll("fieldset.pad:not([disabled])")) : [];
  }

  function checked(pad) { return pad.querySelector("input:checked"); }

  // The words this file says, in the page's language: written into the page by the server
  // (templates/duels/console.html, #console-words), English only if the page has none.
  var ENGLISH = {
    dropped: "Someone else entered a move — the cards picked here (%(cards)s) were cleared: " +
      "check the state, then pick again.",
    unsent: "Someone else entered a move — yours was not sent: check the state, then enter " +
      "it again.",
    roundWith: "round with %(cards)s",
    noCards: "no cards",
    theMove: "the move",
    offline: "Offline — retrying…",
    back: "Back online: the console shows the duel as it is now.",
    timeUp: "time is up",
    left: "%(time)s left",
  };
  function word(key, values) {
    var box = document.getElementById("console-words");
    var text = (box && box.dataset[key]) || ENGLISH[key];
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return values && values[name] !== undefined ? values[name] : all;
    });
  }

  // An htmx answer carries each pad's keys as their digits only (issue 15: twenty keys were a
  // third of a move's answer): they are built here exactly as the whole page writes them
  // (a label wrapping its radio; the first radio of an open pad required).
  function buildKeys(root) {
    if (!root || !root.querySelectorAll) return;
    Array.prototype.forEach.call(root.querySelectorAll(".pad .keys[data-keys]"), function (box) {
      if (box.children.length) return;
      var pad = box.closest(".pad");
      box.getAttribute("data-keys").split("").forEach(function (digit, i) {
        var label = document.createElement("label");
        var input = document.createElement("input");
        input.type = "radio";
        input.name = "card_" + pad.getAttribute("data-seat");
        input.value = digit;
        input.required = i === 0 && !pad.disabled;
        label.appendChild(input);
        label.appendChild(document.createTextNode(digit));
        box.appendChild(label);
      });
    });
  }
  // htmx:load: the new content is in the page, before it is shown or settled.
  document.body.addEventListener("htmx:load", function (event) { buildKeys(event.detail.elt); });
  buildKeys(document);

  function clear(pad) {
    var input = checked(pad);
    if (input) input.checked = false;
  }

  // A digit goes to the first pad without a card; with every pad filled it starts over.
  function pick(digit) {
    var list = pads();
    if (!list.length) return false;
    var pad = list.filter(function (p) { return !checked(p); })[0];
    if (!pad) {
      list.forEach(clear);
      pad = list[0];
    }
    var input = pad.querySelector('input[value="' + digit + '"]');
    input.checked = true;
    input.focus({ preventScroll: true });
    return true;
  }

  function unpick() {
    var filled = pads().filter(checked);
    if (!filled.length) return false;
    var input = checked(filled[filled.length - 1]);
    input.checked = false;
    input.focus({ preventScroll: true });
    return true;
  }

  function playRound() {
    var form = roundForm();
    if (!form || form.classList.contains("htmx-request")) return false;
    if (!form.checkValidity()) {
      form.reportValidity(); // says which pad still needs a card
      return true;
    }
    form.requestSubmit();
    return true;
  }

  // Keys typed into a text field, or meant for another form, are left alone.
  function elsewhere(target) {
    if (!target || !target.closest) return false;
    if (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName)) return true;
    if (target.tagName === "INPUT" && !/^(radio|checkbox)$/i.test(target.type)) return true;
    var form = target.closest("form");
    return !!form && form !== roundForm();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !roundForm() || elsewhere(event.target)) return;
    var tag = event.target.tagName;
    var handled = false;
    if (/^[0-9]$/.test(event.key)) handled = pick(event.key);
    else if (event.key === "Backspace") handled = unpick();
    else if (event.key === "Escape") pads().forEach(clear);
    else if (event.key === "Enter" && !/^(BUTTON|A|SUMMARY)$/.test(tag)) handled = playRound();
    if (handled) event.preventDefault();
  });

  // Every form of the console sends the sequence number and revision the console shows (a
  // stale page is refused as a conflict). The forms of an htmx answer do not carry them, to
  // keep a move's answer small, and the ending form lives outside the swapped console: both
  // take them from #console, the state the referee is looking at.
  function keyed(elt) {
    var box = document.getElementById("console");
    var ending = document.getElementById("console-ending");
    return !!box && !!elt && elt.tagName === "FORM" &&
      (box.contains(elt) || (!!ending && ending.contains(elt)));
  }
  document.body.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    var box = document.getElementById("console");
    // Every request whose answer replaces the console (its forms, the ending form, the poll,
    // a Retry from #console) names the pads and action cards the page shows: an answer that
    // would bring them back the same leaves these in place (hx-preserve; issue 26, a quicker
    // tap: htmx neither cleans up the old ones nor builds new ones).
    if (box && elt && (keyed(elt) || elt === box || (elt.classList && elt.classList.contains("poller") && box.contains(elt)))) {
      var pads = document.getElementById("pads");
      var actions = box.querySelector(".seat-actions");
      event.detail.parameters.pads = (pads && pads.getAttribute("data-pads")) || "";
      event.detail.parameters.actions = (actions && actions.getAttribute("data-actions")) || "";
    }
    if (!keyed(elt)) return;
    event.detail.parameters.seq = box.getAttribute("data-seq");
    event.detail.parameters.rev = box.getAttribute("data-rev");
    // The console's key, new with every answer: the same form sent again (Retry after a lost
    // answer) carries it and is answered "already entered, nothing changed".
    event.detail.parameters.intent = box.getAttribute("data-intent") || "";
  });

  // Focus across swaps: after a move, to the next thing to enter (the pad, else the decision,
  // else the headline); after a poll, back where it was, and only if it was in the console.
  var after = null;
  // Cards picked on this device when a poll brings another device's move: they were meant
  // for a state that is gone, so they are not carried over; the referee is told instead.
  var dropped = [];
  // A move submitted while a poll was in flight waits for it (hx-sync on #console: one
  // request at a time); if that poll brings another device's move, the waiting move is not
  // sent (htmx drops a request whose form has left the page), and the referee is told.
  var waiting = null;
  var unsent = false;

  // Capture: noted before htmx's own handler on the form sends (or queues) the request.
  document.addEventListener("submit", function (event) {
    var box = document.getElementById("console");
    if (box && box.contains(event.target)) waiting = event.target;
  }, true);
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt === waiting) waiting = null;
  });

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    dropped = [];
    unsent = false;
    if (!event.detail.shouldSwap || !target || target.id !== "console") { after = null; return; }
    var active = document.activeElement;
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var polled = !!(elt && elt.classList && elt.classList.contains("poller"));
    var inside = !!(active && target.contains(active) && active !== document.body);
    // The console's keys have no ids (issue 15: a move's answer is small): a key is found
    // again by its pad and digit.
    after = polled ? (inside ? { id: active.id, key: keyOf(active) } : null) : { id: null };
    if (polled) {
      dropped = pads().filter(checked).map(function (pad) {
        return pad.getAttribute("data-seat") + " " + checked(pad).value;
      });
      unsent = !!waiting && target.contains(waiting);
    }
    waiting = null;
  });

  // Pads and action cards kept across the swap (hx-preserve) keep their state: the cards
  // picked were for the state before this answer, as when they came new, so none stays
  // picked, and COLOR CHANGE's colours are folded away again.
  document.body.addEventListener("htmx:afterSwap", function (event) {
    var box = event.detail.elt;
    if (!box || box.id !== "console") return;
    Array.prototype.forEach.call(box.querySelectorAll("#pads input:checked"), function (input) {
      input.checked = false;
    });
    Array.prototype.forEach.call(box.querySelectorAll("#actions details[open]"), function (details) {
      details.open = false;
    });
  });

  function tellDropped() {
    var headline = document.getElementById("console-headline");
    if ((!dropped.length && !unsent) || !headline) return;
    var note = document.createElement("p");
    note.className = "console-error";
    note.setAttribute("role", "alert");
    note.textContent = dropped.length
      ? word("dropped", { cards: dropped.join(", ") })
      : word("unsent");
    headline.parentNode.insertBefore(note, headline);
    dropped = [];
    unsent = false;
  }

  function keyOf(elt) {
    return elt.type === "radio" && elt.name ? '[name="' + elt.name + '"][value="' + elt.value + '"]' : null;
  }

  function focusNext(id, key) {
    var byId = (id && document.getElementById(id)) || (key && document.querySelector("#round-form " + key));
    var pad = pads()[0];
    var target = byId ||
      (pad && (checked(pad) || pad.querySelector("input"))) ||
      document.querySelector("#console .decision-form button") ||
      document.getElementById("console-headline");
    if (target) target.focus({ preventScroll: true });
  }

  // The pads and the decision in view after every swap (issue 16): a phone's screen holds
  // the console only just, and a longer headline or an error above them pushes them down.
  // Without reading the layout (issue 26: scrollIntoView laid the page out again on every
  // move, even with the pads in view): an IntersectionObserver looks at the new pads (and the
  // Redo just above them) once the new state has been laid out and drawn, and only if one of
  // them is not wholly on the screen does the page scroll, as "nearest" as before.
  var watcher = null;
  function keepInView() {
    var region = document.querySelector("#console .decision-form") || roundForm();
    var redo = document.querySelector("#console .redo-form"); // just above the pads
    var targets = [redo, region].filter(Boolean);
    if (watcher) watcher.disconnect();
    if (!targets.length) return;
    if (!window.IntersectionObserver) {
      targets.forEach(function (el) { el.scrollIntoView({ block: "nearest" }); });
      return;
    }
    watcher = new IntersectionObserver(function (entries, self) {
      self.disconnect(); // one look per new state
      if (self !== watcher) return;
      watcher = null;
      var hidden = entries.some(function (entry) {
        return entry.target.isConnected && entry.intersectionRatio < 0.99;
      });
      // The page is laid out already: these scroll without laying it out again.
      if (hidden) targets.forEach(function (el) { if (el.isConnected) el.scrollIntoView({ block: "nearest" }); });
    }, { threshold: 1 });
    targets.forEach(function (el) { watcher.observe(el); });
  }

  // One-hand play (issue 16), off by default and remembered on this device: a round is
  // played as soon as every open pad has its card (two taps instead of three). Only taps:
  // typed digits still wait for Enter.
  var QUICK = "split-uno.console.quick-round";
  function quick() {
    try { return window.localStorage.getItem(QUICK) === "1"; } catch (e) { return false; }
  }
  var option = document.getElementById("console-quick");
  if (option) {
    option.checked = quick();
    document.getElementById("console-quick-option").hidden = false;
    option.addEventListener("change", function () {
      try { window.localStorage.setItem(QUICK, option.checked ? "1" : "0"); } catch (e) { /* private mode */ }
    });
  }
  document.addEventListener("change", function (event) {
    var input = event.target;
    var form = roundForm();
    if (!quick() || !form || !form.contains(input) || input.type !== "radio") return;
    var list = pads();
    if (list.length && list.every(function (pad) { return !!checked(pad); })) playRound();
  });

  document.body.addEventListener("htmx:afterSettle", function () {
    tellDropped();
    if (document.getElementById("console")) keepInView();
    if (!after || !document.getElementById("console")) return;
    var id = after.id, key = after.key;
    after = null;
    // After the new state is drawn, not before (issue 26, a quicker tap): focus() needs the
    // page laid out, and called here it forced the layout the next frame does anyway; once
    // that frame is drawn the layout is done and focusing costs little.
    requestAnimationFrame(function () { setTimeout(function () { focusNext(id, key); }, 0); });
  });

  // Losing the server (issue 14). A request that gets no answer at all (htmx:sendError: no
  // network, server down) says "offline — retrying": the poll goes on every 2 seconds and is
  // the retry; the first answer after that says the page is back. A move that was not sent
  // is never sent again by itself (the table may have moved on): it stays on screen with a
  // Retry button, which sends it exactly as it was entered, with the seq and rev of the state
  // it was meant for, so that the server refuses it as a conflict if the duel moved on.
  var offline = false;
  var unsentMove = null;

  function inConsole(elt) {
    var box = document.getElementById("console");
    var ending = document.getElementById("console-ending");
    return !!elt && ((!!box && (box === elt || box.contains(elt))) || (!!ending && ending.contains(elt)));
  }

  function say(text, back) {
    var el = document.getElementById("console-connection");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
    el.classList.toggle("is-back", !!back);
  }

  function describe(values, submitter) {
    if (values.type === "round") {
      var cards = ["A", "B"].filter(function (s) { return values["card_" + s] !== undefined; })
        .map(function (s) { return s + " " + values["card_" + s]; });
      return word("roundWith", { cards: cards.length ? cards.join(", ") : word("noCards") });
    }
    var what = submitter ? submitter.textContent.trim() : (values.card || values.choice || word("theMove"));
    var seat = values.seat || (values.play ? values.play.split(":")[0] : "");
    return (seat ? seat + ": " : "") + what;
  }

  function showUnsent(move) {
    unsentMove = move;
    var box = document.getElementById("console-unsent");
    if (!box) return;
    box.hidden = !move;
    if (move) document.getElementById("console-unsent-what").textContent = move.label;
  }

  document.body.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    if (!inConsole(elt)) return;
    offline = true;
    say(word("offline"), false);
    var config = event.detail.requestConfig || {};
    if (config.verb !== "post") return;
    if (elt.id === "console") return; // a retry that failed again: the move stays as it was
    var values = {};
    if (config.formData) config.formData.forEach(function (value, key) { values[key] = value; });
    var trigger = config.triggeringEvent;
    showUnsent({
      path: config.path,
      values: values,
      label: describe(values, trigger && trigger.submitter),
    });
  });

  // An answer came: the server is back. Heard before the swap (htmx:beforeSwap, on the
  // target still on the page) and after an answer that swaps nothing (a 204 poll): an
  // element an answer replaced is off the page when htmx:afterRequest fires on it.
  function answered(event) {
    var xhr = event.detail.xhr;
    var config = event.detail.requestConfig || {};
    var elt = config.elt || event.detail.elt;
    if (!xhr || !xhr.status) return;
    var retried = !!elt && elt.id === "console";
    if (!retried && !inConsole(elt)) return;
    if (offline) {
      offline = false;
      say(word("back"), true);
    }
    // The retried move got its answer (applied, or refused as a conflict): it is settled.
    if (retried && unsentMove) showUnsent(null);
  }
  document.body.addEventListener("htmx:beforeSwap", answered);
  document.body.addEventListener("htmx:afterRequest", answered);

  // The console's answers are swapped here, not by htmx (issue 26, a quicker tap). htmx's
  // swap of the console took about 36 ms at 4x on this project's bench machine where this
  // takes 9 (bench/console_tap.py, docs/performance.md): htmx cleans up every old element
  // (two events each), keeps settle tasks and fires htmx:load per new part. Here the answer
  // is parsed once, the parts the page keeps (hx-preserve) are moved into it, the
  // out-of-band parts (the log's lines, the news, the ending form) go where they say, htmx
  // wires the new forms and poller (htmx.process), and the page hears the same htmx:load,
  // htmx:afterSwap and htmx:afterSettle on the new console as before. The old console's
  // poller stops at its next tick (htmx polls only an element on the page). Registered after
  // this file's other beforeSwap handlers, which read the console before it is replaced. An
  // answer of any other shape is left to htmx.
  var OOB = /^(true|outerHTML|innerHTML|afterbegin:#[\w-]+|beforeend:#[\w-]+)$/;

  function parseAnswer(html) {
    if (typeof html !== "string") return null;
    var template = document.createElement("template");
    template.innerHTML = html;
    var fresh = null, oob = [];
    var nodes = template.content.childNodes;
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i];
      if (node.nodeType === 3 && !node.data.trim()) continue;
      if (node.nodeType !== 1) return null;
      var how = node.getAttribute("hx-swap-oob");
      if (how === null && node.id === "console" && !fresh) fresh = node;
      else if (how !== null && OOB.test(how)) oob.push(node);
      else return null;
    }
    if (!fresh || fresh.querySelector("[hx-swap-oob]")) return null;
    return { fresh: fresh, oob: oob };
  }

  function placeOob(el) {
    var how = el.getAttribute("hx-swap-oob");
    el.removeAttribute("hx-swap-oob");
    var nodes = Array.prototype.slice.call(el.childNodes);
    if (how === "true" || how === "outerHTML") {
      var old = document.getElementById(el.id);
      if (old) old.replaceWith(el);
      return old ? el : null;
    }
    if (how === "innerHTML") {
      var box = document.getElementById(el.id);
      if (box) box.replaceChildren.apply(box, nodes);
      return box;
    }
    var where = how.split(":");
    var target = document.querySelector(where[1]);
    if (!target) return null;
    if (where[0] === "afterbegin") target.prepend.apply(target, nodes);
    else target.append.apply(target, nodes);
    return target;
  }

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail;
    var old = d.target;
    var elt = d.requestConfig && d.requestConfig.elt;
    if (!d.shouldSwap || !old || old.id !== "console" || !old.isConnected || !window.htmx) return;
    if (d.swapOverride || d.selectOverride || !elt || !elt.closest) return;
    var swapping = elt.closest("[hx-swap]");
    if (!swapping || swapping.getAttribute("hx-swap").split(" ")[0] !== "outerHTML") return;
    var answer = parseAnswer(d.serverResponse);
    if (!answer) return;
    d.shouldSwap = false; // htmx goes on as after any answer: its events, the buttons re-enabled
    var fresh = answer.fresh;
    old.replaceWith(fresh);
    Array.prototype.forEach.call(fresh.querySelectorAll("[hx-preserve][id]"), function (slot) {
      var kept = old.querySelector("#" + CSS.escape(slot.id));
      if (kept) slot.replaceWith(kept);
    });
    var placed = answer.oob.map(placeOob).filter(Boolean);
    window.htmx.process(fresh);
    placed.forEach(function (part) { if (part.querySelector("[hx-post], [hx-get]")) window.htmx.process(part); });
    var info = {
      xhr: d.xhr, target: fresh, requestConfig: d.requestConfig, pathInfo: d.pathInfo,
      etc: d.etc, boosted: d.boosted, successful: !d.isError, failed: !!d.isError,
    };
    window.htmx.trigger(fresh, "htmx:load", {});
    window.htmx.trigger(fresh, "htmx:afterSwap", info);
    window.htmx.trigger(fresh, "htmx:afterSettle", info);
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#console-retry") || !unsentMove) return;
    var box = document.getElementById("console");
    if (!box || !window.htmx) return;
    // From #console: it queues behind a request in flight (hx-sync), and configRequest leaves
    // the move's own seq and rev alone (only forms take them from the console).
    window.htmx.ajax("POST", unsentMove.path, {
      source: box, target: box, swap: "outerHTML", values: unsentMove.values,
    });
  });

  // The clock of a duel with a time limit: minutes and seconds left, flagged when close.
  function tick() {
    var clocks = document.querySelectorAll("[data-deadline]");
    Array.prototype.forEach.call(clocks, function (el) {
      var left = Math.round((Date.parse(el.getAttribute("data-deadline")) - Date.now()) / 1000);
      if (isNaN(left)) return;
      var box = el.closest(".clock");
      if (left <= 0) {
        el.textContent = word("timeUp");
        if (box) box.classList.add("is-over");
        return;
      }
      var minutes = Math.floor(left / 60), seconds = left % 60;
      el.textContent = word("left", { time: minutes + ":" + (seconds < 10 ? "0" : "") + seconds });
      if (box) box.classList.toggle("is-soon", left <= 300);
    });
  }
  tick();
  setInterval(tick, 1000);
})();
