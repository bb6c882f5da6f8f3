"""What the card table's forms post, read: the move of a hand's button, a decision, a choice;
the page's revision and the form's idempotency key; and the clocks the page counts down. Every
field is bounded here; the adapter checks the move when it is applied."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from core.numbers import read_int
from play import clock
from play.adapters.base import Command

#: The longest field read (a seat letter, a number, a card's name is at most a few times this).
MAX_FIELD = 10
#: The longest idempotency key kept (play.models.Intent.key).
MAX_INTENT = 64
#: The most of a TRUTH's or DARE's ``text`` read: the adapter collapses its white space and
#: refuses past 200 characters (``split_uno_dealt.MAX_SAID``); this bounds what it reads.
MAX_TEXT = 1000


def command_of(post: Mapping[str, str], *, seat: str) -> Command:
    """The dealt adapter's command of ``seat`` from a submitted card table's form (checked by the
    adapter when applied). The hand's buttons say their move as ``play``: "seal:3",
    "play:block", "play:color_change:red" (the target, where one is named, in ``target``; a
    TRUTH's question or a DARE's dare in ``text``);
    the other forms say ``kind``: "answer" (``choice``), "choose" (``card``) or "resign"."""
    move = post.get("play", "")[: MAX_FIELD * 4]
    target = post.get("target", "")[:MAX_FIELD]
    args: dict[str, object] = {}
    if move:
        name, _, rest = move.partition(":")
        if name == "seal":
            args["card"] = _card(rest)
        elif name == "play":
            card, _, color = rest.partition(":")
            args["card"] = card
            if not color and card == "color_change":
                # The card table names the colour in a field of its own (select, then play).
                color = post.get("color", "")[:MAX_FIELD]
            if color:
                args["color"] = color
            if card in ("truth", "dare"):
                # The question or the dare the card carries (ONLINE.md 2).
                args["text"] = post.get("text", "")[:MAX_TEXT]
        else:
            name = "?"  # decisions, choices and resigning have forms of their own
        if target:
            args["target"] = target
        return Command(name, seat, args)
    name = post.get("kind", "")[:MAX_FIELD]
    if name == "answer":
        args["choice"] = post.get("choice", "")[: MAX_FIELD * 3]
    elif name == "choose":
        args["card"] = _card(post.get("card", "")[: MAX_FIELD * 3])
    return Command(name, seat, args)


def _card(text: str) -> object:
    """A number card's value as a number; any other text (an action card's name) as it is."""
    value = read_int(text, hi=9)
    return text if value is None else value


def form_keys(post: Mapping[str, str]) -> tuple[int | None, str]:
    """The game's revision the page was drawn at and the form's idempotency key, bounded."""
    return read_int(post.get("revision", "")[:MAX_FIELD]), post.get("intent", "")[:MAX_INTENT]


def countdown(deadline: datetime | None) -> dict[str, Any] | None:
    """A clock a page shows by the server's time (Trois's 25 minutes, an online table's seat
    clock): the time left, and the deadline and the server's now in ms, from which
    static/js/countdown.js counts down; at zero it asks the server, which acts. None without
    a deadline."""
    if deadline is None:
        return None
    now = clock.now()
    seconds = max(0, int((deadline - now).total_seconds()))
    return {
        "left": f"{seconds // 60}:{seconds % 60:02d}",
        "deadline": int(deadline.timestamp() * 1000),
        "now": int(now.timestamp() * 1000),
    }
