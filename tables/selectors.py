"""Reads for the casual tables: who may see a table, and its console and replay in words.

The state and the moves the referee may enter come from the table core's view of the game
(`play`: the refereed adapter restoring the active events, never a cache); the log from the
game's stored events, undone ones too. A console costs a fixed number of queries whatever the
length of the game.
"""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext, pgettext

from duels import words as duel_words
from duels.selectors import Choice, LogEntry, LogUpdate, ReplayView, Row, log_entry, log_update
from games.split_uno import CARDS, resolve_rules, state_after
from games.split_uno.constants import CARD_LABELS
from play import selectors as play_selectors
from play.adapters.base import Refused, Viewer
from play.models import Game
from play.selectors import StoredEvent
from play.services import Outcome

from . import services, words
from .models import CasualTable, CoReferee

#: A casual table's view is the referee's (nothing is hidden at a refereed table).
REFEREE = Viewer("referee")


def refereed_table(user: Any, table_id: int) -> CasualTable:
    """The table, for its owner or an accepted co-referee; anyone else gets a 404 (a table's
    existence is nobody else's business)."""
    table = CasualTable.objects.filter(pk=table_id).select_related("owner", "game").first()
    if table is None or not services.may_referee(user, table):
        raise Http404(gettext(words.NO_SUCH_TABLE))
    return table


def revision_of(table_id: int) -> int | None:
    """The table's revision: its game's (every move and every undo adds one)."""
    return CasualTable.objects.filter(pk=table_id).values_list("game__revision", flat=True).first()


def tables_of(user: Any) -> QuerySet[CasualTable]:
    """The tables a person owns or co-referees, newest first."""
    co = CoReferee.objects.filter(user=user, accepted_at__isnull=False, revoked_at=None)
    return (
        CasualTable.objects.filter(Q(owner=user) | Q(pk__in=co.values("table")))
        .select_related("owner", "game")
        .order_by("-created_at", "-pk")
    )


def co_referees(table: CasualTable) -> list[CoReferee]:
    return list(table.co_referees.filter(revoked_at=None).select_related("user"))


@dataclass(frozen=True)
class Shown:
    """A card face-up in front of a seat since the last round began (issue 30): the number it
    revealed in that round or an action card it played after, with the seat it named."""

    kind: str  # "number" or "action"
    label: str  # as printed: "7", "+4", "BLOCK"
    target: str = ""  # the named seat's name
    short: str = ""  # its letter, as a tile has room for it


def shown_since_last_round(active: list[dict], names: dict[str, str]) -> dict[str, list[Shown]]:
    """Each seat's cards face-up on the table from the active events: what it revealed in the
    latest round and the action cards it played since (a refereed table's events are public)."""
    start = next(
        (i for i in range(len(active) - 1, -1, -1) if active[i].get("type") == "round"), None
    )
    out: dict[str, list[Shown]] = {}
    if start is not None:
        aims = active[start].get("targets") or {}
        for seat, value in (active[start].get("cards") or {}).items():
            aim = aims.get(seat) or ""
            out.setdefault(seat, []).append(Shown("number", str(value), names.get(aim, ""), aim))
    for event in active[(start + 1) if start is not None else 0 :]:
        if event.get("type") == "action" and event.get("seat"):
            card, aim = str(event.get("card")), event.get("target") or ""
            out.setdefault(event["seat"], []).append(
                Shown("action", CARD_LABELS.get(card, card), names.get(aim, ""), aim)
            )
    return out


@dataclass
class SeatView:
    letter: str
    name: str
    number_cards: int
    action_cards: int
    streak: int
    blocked: bool
    out: bool
    team: str
    reveals: bool
    actions: list[Choice]
    color_change: bool
    targets: list[Choice]
    shown: list[Shown] = field(default_factory=list)


@dataclass
class Decision:
    seat: str
    name: str
    text: str
    choices: list[Choice]


@dataclass
class TableView:
    table: CasualTable
    revision: int
    seq: int
    state: dict[str, Any] | None
    many: bool  # more than two seats: targets are named
    rows: list[Row] = field(default_factory=list, repr=False)
    seats: list[SeatView] = field(default_factory=list)
    headline: str = ""
    subline: str = ""
    decision: Decision | None = None
    can_play_round: bool = False
    pads: list[SeatView] = field(default_factory=list)
    in_play: list[SeatView] = field(default_factory=list)
    playing: bool = False
    finished: bool = False
    winner_seat: str | None = None
    deck_note: str = ""

    @property
    def team_totals(self) -> list[tuple[str, int]]:
        """Each team's number cards together (RULES.md 11.9: a team wins when all its seats
        are at 0), in the order of the teams' labels; empty without teams."""
        totals: dict[str, int] = {}
        for seat in self.seats:
            if seat.team:
                totals[seat.team] = totals.get(seat.team, 0) + seat.number_cards
        return sorted(totals.items())

    @property
    def round_number(self) -> int:
        return (self.state or {}).get("rounds", 0) + 1

    @property
    def can_undo(self) -> bool:
        return self.seq > 0

    # The whole log in words only for a whole page: an htmx answer sends the lines the page
    # lacks (`log_since`), as the duel console's does (issue 27).
    @cached_property
    def log(self) -> list[LogEntry]:
        """Every line of the log, latest first, undone ones too."""
        return [log_entry(row) for row in reversed(self.rows)]

    @cached_property
    def last_move(self) -> LogEntry | None:
        """The latest move still standing."""
        return next((log_entry(r) for r in reversed(self.rows) if r[5] is None), None)

    @property
    def last_undone(self) -> LogEntry | None:
        """The latest move undone (an undo's answer says which)."""
        return next((log_entry(r) for r in reversed(self.rows) if r[5] is not None), None)

    def log_since(self, since: int | None) -> LogUpdate:
        """What a page that showed revision `since` lacks of the log (a page too far behind,
        or that names no revision, gets its latest lines instead: `reset`)."""
        return log_update(self.rows, since)

    @property
    def endings(self) -> list[Choice]:
        """A referee ending for every seat in play (RULES.md 6 and 11.7)."""
        out = [
            Choice(f"forfeit_{s.letter}", gettext("%(name)s forfeits") % {"name": s.name})
            for s in self.in_play
        ]
        out.append(
            Choice("time_limit", gettext("Time limit: fewest number cards wins (equal: drawn)"))
        )
        out += [
            Choice(f"adjudicate_{s.letter}", gettext("Adjudicate to %(name)s") % {"name": s.name})
            for s in self.in_play
        ]
        return out


def _rows(stored: list[StoredEvent]) -> list[Row]:
    """The game's moves (not its opening) in the duel log's row shape, so that one helper
    (`log_update`) says what a page lacks on both consoles: numbered from 1 as the moves of
    the record are (the core numbers the opening 1). One row per move and one undo each, so
    rows + undone rows is the game's revision, the timeline `log_update` reads."""
    return [
        (pk, seq - 1, public.get("event", {}), public.get("log", []), created, undone)
        for pk, seq, _, _, public, created, undone in stored
        if "header" not in public
    ]


def _team_labels(table: CasualTable) -> dict[str, str]:
    if not table.teams:
        return {}
    names = table.names
    ordered = sorted((sorted(team) for team in table.teams), key=lambda team: team[0])
    return {
        letter: words.team_label(i, [names[s] for s in team])
        for i, team in enumerate(ordered, start=1)
        for letter in team
    }


def _deck_note(table: CasualTable) -> str:
    if "number_pool" not in table.options:
        return ""
    rules = resolve_rules(table.ruleset, list(table.variants), dict(table.options))
    return words.deck_note(rules.number_pool, len(table.seats), rules.starting_number_cards)


def _view(game: Game, stored: list[StoredEvent]) -> dict | None:
    """The core's view of the game for its referee; None if its record no longer replays."""
    try:
        restored = play_selectors.restore(game, stored)
        return play_selectors.seen(restored, REFEREE)
    except Refused:
        return None


def console(table: CasualTable, after: Outcome | None = None) -> TableView:
    """The console of `table` (from `refereed_table`: its game joined): its events in one
    query, the game restored in two more. `after`: the outcome of the write this console
    answers, whose view is used as it is (no second restore) if no one moved since."""
    stored = play_selectors.events_of(table.game_id)
    rows = _rows(stored)
    revision = len(rows) + sum(1 for row in rows if row[5] is not None)
    active = [row[2] for row in rows if row[5] is None]
    view = TableView(
        table=table,
        revision=revision,
        seq=len(active),
        state=None,
        many=len(table.seats) > 2,
        rows=rows,
    )
    view.deck_note = _deck_note(table)
    if after is not None and after.view is not None and after.revision == revision:
        shown: dict | None = after.view
    else:
        shown = _view(table.game, stored)
    if shown is None:
        view.headline = gettext("This table's record cannot be replayed")
        return view
    view.state = shown["state"]
    after = shown["next"] or {}
    view.finished = shown["finished"]
    view.playing = not view.finished
    view.seats = _seats(table, view.state, after, view.playing)
    face_up = shown_since_last_round(active, table.names)
    for seat in view.seats:
        seat.shown = face_up.get(seat.letter, [])
    view.in_play = [seat for seat in view.seats if not seat.out]
    view.pads = [seat for seat in view.seats if seat.reveals]
    view.can_play_round = view.playing and after.get("round") is not None
    if view.playing and shown["decision"]:
        view.decision = _decision(table, shown["decision"], view.seats, active)
    _headline(view)
    return view


def _seats(table: CasualTable, state: dict, after: dict, playing: bool) -> list[SeatView]:
    """Each seat with what the referee may enter for it (`after`: the view's `next`)."""
    teams = _team_labels(table)
    names = table.names
    round_ = after.get("round") or {}
    in_play = [s for s in table.letters if not state["seats"][s].get("out")]
    out = []
    for letter in table.letters:
        seat = state["seats"][letter]
        cards = after.get("actions", {}).get(letter, ()) if playing else ()
        # With two seats the view names no targets (there is one): a decision's words still
        # name the other seat.
        targets = after.get("targets", {}).get(letter) or [s for s in in_play if s != letter]
        out.append(
            SeatView(
                letter=letter,
                name=seat["name"],
                number_cards=seat["number_cards"],
                action_cards=seat["action_cards"],
                streak=seat["streak"],
                blocked=seat["blocked"],
                out=bool(seat.get("out")),
                team=teams.get(letter, ""),
                reveals=playing and letter in round_.get("seats", ()),
                actions=[
                    Choice(c, CARD_LABELS[c]) for c in CARDS if c in cards and c != "color_change"
                ],
                color_change="color_change" in cards,
                targets=[Choice(t, names[t]) for t in targets],
            )
        )
    return out


def _last_action(active: list[dict]) -> dict:
    return next((ev for ev in reversed(active) if ev.get("type") == "action"), {})


def _potential_winner(table: CasualTable, seats: list[SeatView]) -> SeatView | None:
    """The seat at 0 whose window is open; in a team game, its team's first seat (11.6)."""
    by_letter = {s.letter: s for s in seats}
    for team in sorted(sorted(t) for t in table.teams or []):
        playing = [by_letter[s] for s in team if not by_letter[s].out]
        if playing and all(s.number_cards == 0 for s in playing):
            return by_letter[team[0]]
    return next((s for s in seats if not s.out and s.number_cards == 0), None)


def _decision(table: CasualTable, awaiting: dict, seats: list[SeatView], active: list) -> Decision:
    by_letter = {s.letter: s for s in seats}
    me = by_letter[awaiting["seat"]]
    kind = awaiting["decision"]  # the view's `decision`: its seat, kind and choices
    action = _last_action(active)
    other: SeatView | None = None
    if kind == "challenge":
        other = _potential_winner(table, seats)
    elif kind != "bonus":
        actor = action.get("seat")
        target = action.get("target") or next((s for s in by_letter if s != actor), None)
        other = by_letter.get(actor if actor != me.letter else target)
    if other is None:
        opponents = [s for s in me.targets]
        other_name = opponents[0].label if len(opponents) == 1 else gettext("Every opponent")
    else:
        other_name = other.name
    # Translators: the card a decision answers, where the page cannot name it.
    card = CARD_LABELS.get(action.get("card", ""), pgettext("the card a decision answers", "card"))
    return Decision(
        seat=me.letter,
        name=me.name,
        text=duel_words.decision_text(kind, me.name, other_name, card),
        choices=[
            Choice(c, duel_words.choice_label(kind, c, me.name, other_name))
            for c in awaiting["choices"]
        ],
    )


def _headline(view: TableView) -> None:
    state = view.state or {}
    if view.decision:
        view.headline = view.decision.text
        view.subline = gettext("Only these choices, or ending the game, are possible now.")
    elif view.playing:
        view.headline = words.round_headline(
            view.round_number,
            [s.name for s in view.pads],
            [s.name for s in view.in_play if s.blocked and not s.reveals],
            len(view.seats),
        )
        view.subline = gettext("Or play an action card.")
    else:
        winner = state.get("winner")
        view.winner_seat = winner
        name = None
        if winner:
            seat = next(s for s in view.seats if s.letter == winner)
            name = seat.team or seat.name
        view.headline = words.result_headline(name, state.get("finish"), len(view.seats))


@dataclass
class TableReplay(ReplayView):
    """The duel's replay view, with a team game's winner named as its team."""

    teams: dict[str, str] = field(default_factory=dict)

    @property
    def status_text(self) -> str:
        state = self.state
        if state["status"] == "finished":
            winner = state["winner"]
            name = (self.teams.get(winner) or state["seats"][winner]["name"]) if winner else None
            return words.result_headline(name, state["finish"], len(state["seats"]))
        return super().status_text


def replay(table: CasualTable, step: int | None) -> ReplayView:
    """The state after the first `step` active moves, beside the moves (two queries)."""
    record = services.record_of(table)
    moves = [row for row in _rows(play_selectors.events_of(table.game_id)) if row[5] is None]
    total = len(moves)
    step = total if step is None else max(0, min(step, total))
    return TableReplay(
        duel=table,  # type: ignore[arg-type]  # the view reads only the state and the moves
        step=step,
        total=total,
        state=state_after(record, step),
        moves=[LogEntry(seq, list(summary), False) for _, seq, _, summary, _, _ in moves],
        teams=_team_labels(table),
    )


def may_follow_game(request: Any, key: str) -> bool:
    """May this viewer follow the news of game `key` (push, issue 28)? A table's owner and
    its accepted co-referees, as its console."""
    table = CasualTable.objects.filter(game_id=int(key)).first()
    return table is not None and services.may_referee(request.user, table)
