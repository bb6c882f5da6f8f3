// Organiser boards (the split and the transfers): drag a player to the other group.
// Dragging only sets that player's select, the way a keyboard or a phone user does it, then
// fires the select's "change": htmx sends the board for a check and the sizes and verdict
// come back in words. Without JavaScript the selects and the submit button do everything.
(function () {
  "use strict";

  function columnOf(board, value) {
    return board.querySelector('[data-column="' + value + '"]');
  }

  function recount(board) {
    board.querySelectorAll("[data-column]").forEach(function (column) {
      var count = column.querySelector("[data-count]");
      if (count) count.textContent = "(" + column.querySelectorAll("[data-member]").length + ")";
    });
  }

  // Put the player's row in the column its select names (a withdrawal stays where it is).
  function place(board, member) {
    var select = member.querySelector("select");
    var column = select && columnOf(board, select.value);
    var home = member.getAttribute("data-home");
    if (home !== null) {
      member.classList.toggle("is-moving", select.value !== home);
      member.classList.toggle("is-withdrawing", !column);
    }
    if (!column) return;
    var list = column.querySelector("ul");
    if (list && member.parentNode !== list) {
      var hadFocus = document.activeElement === select;
      list.appendChild(member);
      if (hadFocus) select.focus(); // moving a focused element drops its focus
      recount(board);
    }
  }

  function setUp(board) {
    var dragged = null;
    board.querySelectorAll("[data-member]").forEach(function (member) {
      member.setAttribute("draggable", "true");
    });
    board.addEventListener("change", function (event) {
      var member = event.target.closest("[data-member]");
      if (member) place(board, member);
    });
    board.addEventListener("dragstart", function (event) {
      dragged = event.target.closest && event.target.closest("[data-member]");
      if (!dragged) return;
      dragged.classList.add("is-dragging");
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", dragged.querySelector("select").id);
    });
    board.addEventListener("dragend", function () {
      if (dragged) dragged.classList.remove("is-dragging");
      dragged = null;
      board.querySelectorAll(".is-drop-target").forEach(function (c) {
        c.classList.remove("is-drop-target");
      });
    });
    board.addEventListener("dragover", function (event) {
      var column = event.target.closest("[data-column]");
      if (!dragged || !column) return;
      event.preventDefault(); // allows the drop
      board.querySelectorAll(".is-drop-target").forEach(function (c) {
        if (c !== column) c.classList.remove("is-drop-target");
      });
      column.classList.add("is-drop-target");
    });
    board.addEventListener("drop", function (event) {
      var column = event.target.closest("[data-column]");
      if (!dragged || !column) return;
      event.preventDefault();
      column.classList.remove("is-drop-target");
      var select = dragged.querySelector("select");
      var value = column.getAttribute("data-column");
      if (select.value === value) return;
      select.value = value;
      // Bubbles to the board: the row moves and htmx asks the server for the verdict.
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  function init(root) {
    root.querySelectorAll("[data-board]").forEach(function (board) {
      if (board.dataset.ready) return;
      board.dataset.ready = "1";
      setUp(board);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  // A board swapped in by htmx (after applying a change) is set up again.
  document.addEventListener("htmx:load", function (event) { init(event.target); });
})();
