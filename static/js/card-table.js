// The practice card table (templates/cardtable/table.html, issue 30). The page works without
// this: the cards are radios and one button plays the chosen one. Here the button says which
// card it plays (and at whom), and after a move the focus goes to the headline, which says
// whose turn it is, rather than being lost with the swapped-out button.
(function () {
  "use strict";
  function label() {
    var hand = document.getElementById("hand");
    if (!hand) return;
    var button = hand.querySelector(".play-button");
    var card = hand.querySelector('input[name="play"]:checked');
    if (!button) return;
    if (!card) {
      button.textContent = button.getAttribute("data-idle");
      return;
    }
    var target = document.querySelector('input[name="target"]:checked');
    var words = card.getAttribute("data-say");
    if (target && card.hasAttribute("data-say-target")) {
      words = card.getAttribute("data-say-target").replace("{target}", target.getAttribute("data-name"));
    }
    button.textContent = words;
  }
  // TRUTH or DARE selected: the words it carries are required (the server refuses it
  // without them too); any other card needs none.
  function said() {
    var field = document.getElementById("said-text");
    if (!field) return;
    var card = document.querySelector('#hand input[name="play"]:checked');
    var wanted = (field.getAttribute("data-for") || "").split(" ");
    field.required = !!card && wanted.indexOf(card.value) >= 0;
  }
  document.addEventListener("change", function (event) {
    var name = event.target && event.target.getAttribute("name");
    if (name === "play" || name === "target") label();
    if (name === "play") said();
  });
  // The target the person chose stays chosen from move to move (issue 30). The server keeps
  // the last target a move recorded; a number card other than a 0 or a 7 records none, so the
  // page carries the choice across its own swap (when that seat can still be aimed at).
  var aimed = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "card-table") return;
    var chosen = document.querySelector('#card-table input[name="target"]:checked');
    aimed = chosen ? chosen.value : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "card-table") return;
    if (aimed !== null) {
      var again = document.querySelector('#card-table input[name="target"][value="' + aimed + '"]');
      if (again) again.checked = true;
      aimed = null;
    }
    var table = document.getElementById("card-table");
    var headline = document.getElementById("practice-headline");
    if (table && headline) headline.focus();
    label();
    said();
  });
  // An online table polls for the others' moves (issue 31): while a card is selected, a
  // polled table is not swapped in (the selection would be lost under the finger); the
  // next poll, still at the page's revision, brings it once the card is played or let go.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail && event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!elt || !elt.classList || !elt.classList.contains("poller")) return;
    if (document.querySelector('#hand input[name="play"]:checked')) event.detail.shouldSwap = false;
  });
  document.addEventListener("DOMContentLoaded", label);
})();
