"""The dealt Split UNO adapter (issue 27, ONLINE.md): real cards held by a dealer, sealed bids.

The engine (``games.split_uno``) stays the authority on counts and decisions; this adapter owns
the card identities, as ONLINE.md section 1 says. Every card of both pools has an identity, a
string ``"n17"`` (a number card) or ``"a5"`` (an action card), given by the dealer's shuffle:
card ``n17`` is the 18th card of the shuffled number pool, so an identity says nothing of its
value. Identities live only in the events' private parts; no view ever shows one.

Commands (``Command.name``; ``args`` as a form or JSON gives them, checked here):

- ``seal`` ``{"card": 0–9, "target": letter}``: a seat the round involves seals a number card it
  holds (the target of a 0 or 7 at more than two seats). Others see only that it has sealed.
  When the last seat involved seals, the cards are revealed together and the round is applied
  (an event by ``"dealer"``). With no seat to reveal (every seat blocked) the dealer plays the
  round with no cards at once.
- ``play`` ``{"card": name, "target": letter, "color": colour}``: an action card the seat holds,
  whenever the engine waits for no decision and no card is being chosen; it returns every seal.
- ``answer`` ``{"choice": …}``: the decision the engine asks of that seat; a counter, BLOCK
  counter or challenge is offered only with a card of that name in hand, and ``pass`` always.
- ``choose`` ``{"card": value or name}``: the number card a COLOR CHANGE or BLOCK battle sheds,
  or the action card a REVERSE actor gives up under ``reverse_discard: "after"``. The choices of
  one event are all asked at once and nothing else happens until they are made.
- ``resign``: the seat forfeits (its side leaves; RULES.md 11.7), with the reason the config's
  ``resign_reason`` names ("resigned"; a tournament's online duel says "abandoned", ONLINE.md
  4). Refused while cards are being chosen.
- ``forfeit`` ``{"reason": …}``: a product's ruling (a tournament's withdrawal, no-show or an
  organiser's forfeit: ONLINE.md 6, "as TOURNAMENT.md says for any duel"): the seat forfeits at
  once; every seal goes back to its owner (refused while cards are being chosen). Sent by the
  product only (``FORFEIT``; its policy says who may).
- ``adjudicate`` ``{"reason": …}``: a referee's ruling (ONLINE.md 6: the endings RULES.md gives
  a referee): the seat wins at once (RULES.md 7's ``adjudicate``). Sent by the product only.

Both abandon (``config["both_abandon"] == "stop"``, a tournament's online duel: ONLINE.md 6):
when one seat of a two-person game reaches its third clock-out in a row while the other is
asked something with two of its own, the game waits for that seat; its own move makes the
first seat abandon as usual, its third clock-out stops the game (a ``stop`` event by the
clock): no result, nothing asked of anyone, no clock — the product rules (a ``forfeit`` or an
``adjudicate``, or it abandons the game).

Truth and dare (ONLINE.md 2) are off unless ``config["truth_dare"] is True`` (refused for rules
that have no TRUTH or DARE cards; an ``options`` switch never turns them on). When on, ``play``
of a TRUTH or DARE carries the actor's words, ``{"text": …}`` (``said_text``: white space
collapsed, 1 to ``MAX_SAID`` characters), kept in the event's public part as ``said`` with the
seat it is said to: everyone at the table reads it, as at a real table, in the log and with the
decision (``view``'s ``said``). A bot says one of ``BOT_SAYINGS``, a key the table core puts in
words; a bot asked a truth or dare answers it ("completed", as the seat clock does).

Bots (``config["bots"]``) act inside ``start`` and ``apply`` until a person is asked: each
decides through the engine's own bots, fed a Simulator whose hands hold only that seat's cards
(its view), with its own random stream.

Random streams: the seed (at least 16 bytes) is never stored in an event. The dealer shuffles
with ``Random(sha256(seed + b"dealer"))``; a 0's steal picks its card with
``Random(sha256(seed + b"dealer:<n>:<k>"))`` (``n`` the event's index in the log, ``k`` the
steal's place among its moves), bot ``B``'s decision at event ``n`` with
``Random(sha256(seed + b"bot:B:<n>"))``: streams of their own, which a restored table picks up
where the live one would have. Each event records what it moved
(``private[DEALER]["moves"]``), so ``restore`` replays them without any stream or bot.
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from games.split_uno import BOTS, CARDS, COLORS, DECISIONS, Duel, EngineError, Simulator
from games.split_uno.effects import build
from games.split_uno.hands import KIND as KIND_INDEX
from games.split_uno.hands import Hands, action_composition, number_composition
from games.split_uno.rules import PRESETS, resolve_rules
from games.split_uno.simulate import CAP_REASON, DEFAULT_MAX_EVENTS

from .base import DEALER, Adapter, Await, Command, Event, Refused, Viewer, gettext_noop, refused
from .split_uno_refereed import log_lines

#: Sheds of the card a seat revealed (its seal); any other shed is the seat's choice.
_REVEALED_SHEDS = frozenset({"round_won", "tie", "revealed_discarded"})
#: Answers that spend the card they name (RULES.md 4 and 6).
_SPENDING = frozenset({"counter", "challenge"})
#: A seat's words for its choice.
_CHOOSE_WHAT = {"shed": "a number card to shed", "discard": "an action card to give up"}
#: The worker's command at a table whose bots think in the worker (``bots_in_worker``).
BOTS_COMMAND = "bots"
#: The most events one command may bring about (the bots' answers included): a bug guard.
_MAX_STEP_EVENTS = 50_000
#: Minimum seed length (ONLINE.md 1: at least 128 bits).
MIN_SEED_BYTES = 16
#: The ``by`` of the clock's events (``play.clock.CLOCK``: the adapter imports no Django).
CLOCK = "clock"
#: The ``by`` of a take-over a product asks (``take_over``: a person left the table).
TABLE = "table"
#: The clock's command for a seat whose time ran out (sent by ``play.clock`` only).
TIMEOUT = "timeout"
#: A product's command: a bot takes the seat for the rest of the game
#: (``play.services.hand_seat_to_bot`` only).
TAKE_OVER = "take_over"
#: A product's command: the seat forfeits by the product's ruling, with its reason.
FORFEIT = "forfeit"
#: A product's command: a referee rules that the seat wins, with a reason.
ADJUDICATE = "adjudicate"
#: The ``by`` of a product's forfeit.
RULING = "ruling"
#: The reasons a resignation may be recorded with (``config["resign_reason"]``).
RESIGN_REASONS = ("resigned", "abandoned")
#: The longest reason a product's ruling may carry (a referee's note: the console's 200).
MAX_REASON = 200
#: The seat clock's bounds in seconds (ONLINE.md 3).
SEAT_CLOCK = (10, 120)
#: Clock-outs in a row that are an abandonment (ONLINE.md 3).
ABANDON_AFTER = 3
#: What an abandonment does (``config["on_abandon"]``): the seat forfeits (reason
#: ``abandoned``), or a bot of the table's level takes it (ONLINE.md 4).
ON_ABANDON = ("forfeit", "bot")
#: What both persons of a two-person game abandoning does (``config["both_abandon"]``): the
#: first to reach three clock-outs forfeits ("forfeit"), or the game stops for its product to
#: rule ("stop": ONLINE.md 6, "if neither player is ready, or both abandon, the duel stops").
BOTH_ABANDON = ("forfeit", "stop")
#: The public type of the event that stops a game both persons abandoned.
STOP = "stop"
#: The longest truth question or dare a person may write (ONLINE.md 2).
MAX_SAID = 200
#: The action cards that carry the actor's words.
SAYING_CARDS = ("truth", "dare")
#: What a bot says with a TRUTH or DARE: keys the table core puts in words
#: (``play.effect_words.BOT_SAYINGS``), so each reader reads them in their language.
BOT_SAYINGS: dict[str, tuple[str, ...]] = {
    "truth": ("truth:1", "truth:2", "truth:3", "truth:4", "truth:5"),
    "dare": ("dare:1", "dare:2", "dare:3", "dare:4", "dare:5"),
}
#: Decisions the clock passes (ONLINE.md 3); any other takes its first choice.
_PASSED = frozenset({"counter", "block_counter", "challenge"})

Card = list[Any]  # [identity, value or name]


#: Every word this adapter says to a person: its refusals (``%(…)s`` filled in where said),
#: marked for play's catalogue: the edge says them in the reader's language (``base.Refused``). The
#: log lines it adds to the engine's are data (``_log``), put in words by play.effect_words.
WORDS: dict[str, str] = {
    "seats": gettext_noop("A dealt table has 2 to 6 seats lettered A, B, … in order."),
    "ruleset": gettext_noop("Choose one of the rule sets: %(choices)s."),
    "truth_dare": gettext_noop("These rules have no TRUTH or DARE cards."),
    "truth_dare_option": gettext_noop("Truth and dare are switched on by the table's setting."),
    "said": gettext_noop(
        "Write the question or the dare for your target: 1 to %(most)s characters."
    ),
    "bot_seats": gettext_noop("Bots may hold only seats of the table, each once."),
    "no_person": gettext_noop("A dealt table needs at least one person."),
    "bot": gettext_noop("Choose a bot from: %(choices)s."),
    "malformed": gettext_noop("This table cannot be dealt: %(why)s."),
    "not_a_seat": gettext_noop("A dealt game takes commands from its seats only."),
    "bot_seat": gettext_noop("A bot plays that seat."),
    "no_bot_asked": gettext_noop("No bot is asked anything now."),
    "unknown": gettext_noop("Unknown command: seal, play, answer, choose or resign."),
    "sealed_already": gettext_noop("You have sealed your card for this round."),
    "nothing_to_seal": gettext_noop("You have no card to seal now."),
    "seal_held": gettext_noop("Seal a number card you hold."),
    "seal_target": gettext_noop("Name whom your %(value)s targets: %(choices)s."),
    "play_held": gettext_noop("Play an action card you hold, when no decision is asked."),
    "colour": gettext_noop("Name a colour: %(choices)s."),
    "play_target": gettext_noop("Name whom it targets: %(choices)s."),
    "nothing_asked": gettext_noop("Nothing is asked of you now."),
    "choose_one": gettext_noop("Choose one of: %(choices)s."),
    "nothing_to_choose": gettext_noop("You have no card to choose now."),
    "choose_first": gettext_noop("The cards being chosen come first: resign once they are."),
    "not_in_play": gettext_noop("You are no longer in play."),
    "resign_reason": gettext_noop("A resignation's reason is one of: %(choices)s."),
    "reason": gettext_noop("A forfeit needs its reason, at most %(most)s characters."),
    "seat_clock": gettext_noop("A seat clock runs %(low)s to %(high)s seconds, or none (0)."),
    "on_abandon": gettext_noop("When a seat abandons, choose one of: %(choices)s."),
    "both_abandon": gettext_noop("When both seats abandon, choose one of: %(choices)s."),
    "stopped": gettext_noop("Both players abandoned this game: it waits for a ruling."),
    "no_clock": gettext_noop("No seat clock runs at this table."),
}


def _say(key: str, **fill: Any) -> Refused:
    """The refusal ``WORDS[key]`` says, filled in."""
    return refused(WORDS[key], **fill)


# -- configuration -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealtConfig:
    """A dealt table's settings, read from the stored config (``start`` and ``restore``)."""

    ruleset: str
    variants: tuple[str, ...]
    options: dict[str, Any]
    teams: tuple[tuple[str, ...], ...]
    bots: tuple[str, ...]
    bot: str
    spread: str
    names: dict[str, str]
    #: The bots think in the worker (issue 30: a searching bot never inside a web request):
    #: a person's command stops where a bot must decide, and the ``bots`` command (the
    #: worker's) makes one bot decision at a time.
    in_worker: bool = False
    #: Each pending seal or decision of a person's seat has this many seconds (ONLINE.md 3);
    #: None: no seat clock (practice).
    seat_clock: int | None = None
    #: What three clock-outs in a row do: "forfeit" or "bot" (``ON_ABANDON``).
    on_abandon: str = "forfeit"
    #: The reason a resignation is recorded with (``RESIGN_REASONS``).
    resign_reason: str = "resigned"
    #: What both persons abandoning does: "forfeit" or "stop" (``BOTH_ABANDON``).
    both_abandon: str = "forfeit"
    #: TRUTH and DARE are in the action deck (the host switched them on: ONLINE.md 2).
    truth_dare: bool = False


def read_config(config: Mapping[str, Any], seats: Sequence[str]) -> DealtConfig:
    """The settings of ``config`` for ``seats`` (letters A, B, … in order); Refused if the
    table cannot be dealt."""
    seats = tuple(seats)
    if not 2 <= len(seats) <= 6 or seats != tuple("ABCDEF"[: len(seats)]):
        raise _say("seats")
    ruleset = config.get("ruleset", "tournament")
    if ruleset not in PRESETS:
        raise _say("ruleset", choices=", ".join(PRESETS))
    variants = tuple(config.get("variants", ()))
    options = dict(config.get("options", {}))
    if options.get("truth_dare") is True:
        raise _say("truth_dare_option")
    truth_dare = config.get("truth_dare", False)
    if type(truth_dare) is not bool:
        raise _say("malformed", why="truth_dare is true or false")
    # Off unless the config says on (ONLINE.md 2); the decks then hold no TRUTH or DARE.
    options["truth_dare"] = truth_dare
    if len(seats) > PRESETS[ruleset]["max_seats"] and "max_seats" not in options:  # type: ignore[operator]
        options["max_seats"] = len(seats)
    if truth_dare:
        # The rule set and variants without the switch: do they have the cards at all?
        plain = {k: v for k, v in options.items() if k != "truth_dare"}
        try:
            allowed = resolve_rules(ruleset, list(variants), plain).truth_dare
        except (EngineError, ValueError) as malformed:
            raise _say("malformed", why=malformed) from None
        if not allowed:
            raise _say("truth_dare")
    teams = tuple(tuple(team) for team in config.get("teams", ()) or ())
    bots = tuple(config.get("bots", ()))
    if any(seat not in seats for seat in bots) or len(set(bots)) != len(bots):
        raise _say("bot_seats")
    if len(bots) == len(seats):
        raise _say("no_person")
    bot = config.get("bot", "heuristic")
    if bot not in BOTS:
        raise _say("bot", choices=", ".join(BOTS))
    spread = config.get("spread", "uniform")
    names = {seat: str(config.get("names", {}).get(seat, seat)) for seat in seats}
    in_worker = config.get("bots_in_worker", False) is True
    seat_clock = config.get("seat_clock") or None
    low, high = SEAT_CLOCK
    if seat_clock is not None and (type(seat_clock) is not int or not low <= seat_clock <= high):
        raise _say("seat_clock", low=low, high=high)
    on_abandon = config.get("on_abandon", "forfeit")
    if on_abandon not in ON_ABANDON:
        raise _say("on_abandon", choices=", ".join(ON_ABANDON))
    resign_reason = config.get("resign_reason", "resigned")
    if resign_reason not in RESIGN_REASONS:
        raise _say("resign_reason", choices=", ".join(RESIGN_REASONS))
    both_abandon = config.get("both_abandon", "forfeit")
    if both_abandon not in BOTH_ABANDON:
        raise _say("both_abandon", choices=", ".join(BOTH_ABANDON))
    cfg = DealtConfig(
        ruleset,
        variants,
        options,
        teams,
        bots,
        bot,
        spread,
        names,
        in_worker,
        seat_clock=seat_clock,
        on_abandon=on_abandon,
        resign_reason=resign_reason,
        both_abandon=both_abandon,
        truth_dare=truth_dare,
    )
    try:
        resolve_rules(ruleset, list(variants), options)
        _new_duel(cfg, seats)
        number_composition(1, spread)
    except (EngineError, ValueError) as malformed:
        raise _say("malformed", why=malformed) from None
    return cfg


def _new_duel(cfg: DealtConfig, seats: Sequence[str]) -> Duel:
    return Duel.new(
        cfg.ruleset,
        {seat: cfg.names[seat] for seat in seats},
        list(cfg.variants),
        cfg.options,
        [list(team) for team in cfg.teams] or None,
    )


# -- the concrete state ------------------------------------------------------------------------


def _nid(i: int) -> str:
    return f"n{i}"


def _aid(i: int) -> str:
    return f"a{i}"


def _num(card_id: str) -> int:
    return int(card_id[1:])


class _State:
    """The engine's duel and every card's place: hands, decks (top first), discard piles, the
    seals on the table and the choices asked. Cards are held as integers (``n``/``a`` dropped)."""

    __slots__ = (
        "duel",
        "nval",
        "akind",
        "hand_n",
        "hand_a",
        "deck_n",
        "deck_a",
        "disc_n",
        "disc_a",
        "seals",
        "chooses",
        "taken",
        "clock_outs",
        "stopped",
        "said",
    )

    def __init__(self, duel: Duel) -> None:
        self.duel = duel
        self.nval: list[int] = []
        self.akind: list[str] = []
        self.hand_n: dict[str, list[int]] = {}
        self.hand_a: dict[str, list[int]] = {}
        self.deck_n: list[int] = []
        self.deck_a: list[int] = []
        self.disc_n: list[int] = []
        self.disc_a: list[int] = []
        #: seat -> (number card, target or None), until revealed or returned.
        self.seals: dict[str, tuple[int, str | None]] = {}
        #: [seat, "shed" | "discard", cause] in the order the event asked them.
        self.chooses: list[list[str]] = []
        #: The seats a bot took over during the game (``take_over`` events), in that order.
        self.taken: list[str] = []
        #: seat -> the clock's moves for it in a row since its own last move (ONLINE.md 3).
        self.clock_outs: dict[str, int] = {}
        #: Both persons abandoned (a ``stop`` event): the game waits for its product's ruling.
        self.stopped = False
        #: The last TRUTH or DARE's words: {"seat", "to", "card", "text" | "bot"}.
        self.said: dict[str, Any] | None = None

    def copy(self) -> _State:
        other = _State(self.duel.copy())
        other.nval = self.nval
        other.akind = self.akind
        other.hand_n = {s: h[:] for s, h in self.hand_n.items()}
        other.hand_a = {s: h[:] for s, h in self.hand_a.items()}
        other.deck_n = self.deck_n[:]
        other.deck_a = self.deck_a[:]
        other.disc_n = self.disc_n[:]
        other.disc_a = self.disc_a[:]
        other.seals = dict(self.seals)
        other.chooses = [c[:] for c in self.chooses]
        other.taken = self.taken[:]
        other.clock_outs = dict(self.clock_outs)
        other.stopped = self.stopped
        other.said = self.said
        return other

    def bots(self, cfg: DealtConfig) -> frozenset[str]:
        """The seats bots play now: the table's from the start and those taken over."""
        return frozenset(cfg.bots).union(self.taken)


def _do(st: _State, move: Sequence[Any]) -> None:
    """Apply one recorded card move (an event's ``private[DEALER]["moves"]``)."""
    kind = move[0]
    if kind == "draw_n":
        card = _num(move[2])
        st.deck_n.remove(card)
        st.hand_n[move[1]].append(card)
    elif kind == "draw_a":
        card = _num(move[2])
        st.deck_a.remove(card)
        st.hand_a[move[1]].append(card)
    elif kind == "shed_n":
        card = _num(move[2])
        st.hand_n[move[1]].remove(card)
        st.disc_n.append(card)
    elif kind == "spend_a":
        card = _num(move[2])
        st.hand_a[move[1]].remove(card)
        st.disc_a.append(card)
    elif kind == "steal":
        card = _num(move[3])
        st.hand_n[move[2]].remove(card)
        st.hand_n[move[1]].append(card)
    elif kind == "swap":
        a, b = move[1], move[2]
        st.hand_n[a], st.hand_n[b] = st.hand_n[b], st.hand_n[a]
        st.hand_a[a], st.hand_a[b] = st.hand_a[b], st.hand_a[a]
    elif kind == "seal":
        st.seals[move[1]] = (_num(move[2]), move[3])
    elif kind == "clear_seals":
        st.seals = {}
    elif kind == "ask":
        st.chooses.append([move[1], move[2], move[3]])
    elif kind == "answered":
        for k, asked in enumerate(st.chooses):
            if asked[0] == move[1]:
                del st.chooses[k]
                break
    else:  # pragma: no cover - a stored event this code did not write
        raise ValueError(f"unknown card move {kind!r}")


def _absorb(st: _State, event: Event) -> None:
    """Follow one stored event: the engine's event, then the recorded card moves. The one
    path for ``apply`` and ``restore``: nothing here draws a random number or asks a bot."""
    public = event.public
    if public["type"] == "deal":
        _absorb_deal(st, event)
        return
    _count_clock_outs(st, event)
    if public["type"] == TAKE_OVER:
        st.taken.append(public["seat"])
    if public["type"] == STOP:
        st.stopped = True
    if "said" in public:
        st.said = {"seat": public["seat"], "card": public["engine"]["card"], **public["said"]}
    engine = public.get("engine")
    if engine is not None:
        st.duel._apply(engine)
    for move in event.private.get(DEALER, {}).get("moves", ()):
        _do(st, move)


def _count_clock_outs(st: _State, event: Event) -> None:
    """A seat's own move resets its count of clock-outs in a row; the clock's move for it
    adds one (a state rebuilt from the events: ``restore`` counts the same)."""
    if event.by == CLOCK and event.public["type"] in ("seal", "answer", "choose"):
        seat = str(event.public["seat"])
        st.clock_outs[seat] = st.clock_outs.get(seat, 0) + 1
    elif event.by in st.hand_n:
        st.clock_outs.pop(event.by, None)


def _absorb_deal(st: _State, event: Event) -> None:
    dealer = event.private[DEALER]
    cards_n: dict[int, int] = {}
    cards_a: dict[int, str] = {}
    for card_id, value in dealer["number_deck"]:
        cards_n[_num(card_id)] = value
        st.deck_n.append(_num(card_id))
    for card_id, kind in dealer["action_deck"]:
        cards_a[_num(card_id)] = kind
        st.deck_a.append(_num(card_id))
    for seat in st.duel.seats:
        mine = event.private[seat]
        st.hand_n[seat] = []
        st.hand_a[seat] = []
        for card_id, value in mine["numbers"]:
            cards_n[_num(card_id)] = value
            st.hand_n[seat].append(_num(card_id))
        for card_id, kind in mine["actions"]:
            cards_a[_num(card_id)] = kind
            st.hand_a[seat].append(_num(card_id))
    st.nval = [cards_n[i] for i in range(len(cards_n))]
    st.akind = [cards_a[i] for i in range(len(cards_a))]


# -- the table ---------------------------------------------------------------------------------


@dataclass(eq=False)
class DealtTable:
    """One dealt game: its settings, seed (kept for the dealer's and bots' later draws), the
    concrete state and every event applied so far."""

    cfg: DealtConfig
    seats: tuple[str, ...]
    seed: bytes
    st: _State
    events: list[Event] = field(default_factory=list)


def _stream(seed: bytes, label: str) -> random.Random:
    """A random stream of its own for ``label`` ("dealer", "dealer:12", "bot:B:12")."""
    return random.Random(hashlib.sha256(seed + label.encode()).digest())


class _Step:
    """Builds the events of one command on a working copy of the table's state."""

    def __init__(self, table: DealtTable) -> None:
        self.table = table
        self.cfg = table.cfg
        self.seats = table.seats
        self.seed = table.seed
        self.st = table.st.copy()
        self.events: list[Event] = []
        self.base = len(table.events)
        #: How many bot decisions this step may make (None: as many as come; a table whose
        #: bots think in the worker allows none to a person's command, one to the worker's).
        self.bot_budget: int | None = 0 if table.cfg.in_worker else None

    def bot_may_decide(self) -> bool:
        """Whether a bot may decide now."""
        return self.bot_budget is None or self.bot_budget > 0

    def bot_decided(self) -> None:
        """A bot's decision became a move (one that made none, a blocked bot keeping its
        cards, costs nothing: the bots after it are asked in the same turn, as inline)."""
        if self.bot_budget is not None:
            self.bot_budget -= 1

    @property
    def index(self) -> int:
        """The index the next event will have in the table's log."""
        return self.base + len(self.events)

    def emit(
        self,
        by: str,
        public: dict[str, Any],
        private: dict[str, dict[str, Any]],
        moves: list[list[Any]],
        shown: Sequence[str] = (),
    ) -> None:
        """Record an event and absorb it into the working state through the restore path."""
        private = {seat: facts for seat, facts in private.items() if facts}
        private[DEALER] = {"moves": moves, "shown": list(shown)}
        event = Event(by=by, public=public, private=private)
        # The working state follows the event exactly as ``restore`` will read it.
        self.events.append(event)
        _absorb(self.st, event)
        if len(self.events) > _MAX_STEP_EVENTS:
            raise RuntimeError("a dealt game's step brought about too many events")

    # -- engine events with their card moves --------------------------------------------------

    def engine(
        self,
        by: str,
        public: dict[str, Any],
        engine_event: dict[str, Any],
        first: Sequence[list[Any]] = (),
        played: int = -1,
    ) -> None:
        """Apply ``engine_event`` on a scratch copy, follow its effects with real cards
        (``first``: moves made before it, e.g. returning the seals), then emit it."""
        scratch = self.st.copy()
        moves: list[list[Any]] = []
        for early in first:
            _do(scratch, early)
            moves.append(list(early))
        try:
            fx = scratch.duel._apply(engine_event)
        except EngineError as err:
            raise Refused(str(err), engine=True) from None
        private: dict[str, dict[str, Any]] = {}
        shown: list[str] = []
        seals = dict(scratch.seals)
        cards = engine_event.get("cards", {}) if engine_event["type"] == "round" else None
        if cards is not None:
            shown.extend(_nid(seals[seat][0]) for seat in cards)

        def mine(seat: str) -> dict[str, Any]:
            return private.setdefault(seat, {})

        def do(m: list[Any]) -> None:
            _do(scratch, m)
            moves.append(m)

        for e in fx:
            kind = e[0]
            if kind == "draw":
                seat = e[1]
                for _ in range(e[3]):
                    card = scratch.deck_n[0]
                    do(["draw_n", seat, _nid(card)])
                    mine(seat).setdefault("drew", []).append([_nid(card), scratch.nval[card]])
                for _ in range(e[4]):
                    card = scratch.deck_a[0]
                    do(["draw_a", seat, _aid(card)])
                    mine(seat).setdefault("drew", []).append([_aid(card), scratch.akind[card]])
            elif kind == "shed" and e[3]:
                seat = e[1]
                if cards is not None and e[6] in _REVEALED_SHEDS:
                    do(["shed_n", seat, _nid(seals[seat][0])])
                else:
                    do(["ask", seat, "shed", e[6]])
            elif kind == "steal" and e[3]:
                thief, victim = e[1], e[2]
                on_table = seals[victim][0] if cards is not None and victim in cards else -1
                candidates = sorted(c for c in scratch.hand_n[victim] if c != on_table)
                rng = _stream(self.seed, f"dealer:{self.index}:{len(moves)}")
                card = candidates[int(rng.random() * len(candidates))]
                do(["steal", thief, victim, _nid(card)])
                pair = [_nid(card), scratch.nval[card]]
                mine(thief).setdefault("stole", []).append([victim, pair])
                mine(victim).setdefault("lost", []).append([thief, pair])
            elif kind == "play":
                shown.append(_aid(played))
                after = self.st.duel.rules.reverse_discard == "after"
                if not (after and e[5] == "reverse"):
                    do(["spend_a", e[1], _aid(played)])
            elif kind == "respond" and e[6] in _SPENDING and e[5] in KIND_INDEX:
                card = _lowest_of(scratch, e[1], e[5])
                shown.append(_aid(card))
                do(["spend_a", e[1], _aid(card)])
            elif kind == "one_card_challenge":
                # The lone card named stays in hand, but everyone now knows what it is.
                shown.append(_aid(_lowest_of(scratch, e[1], e[5])))
            elif kind == "swap":
                a, b = e[1], e[2]
                do(["swap", a, b])
                for seat in (a, b):
                    mine(seat)["hand"] = _cards_of(scratch, seat)
            elif kind == "reverse_discard" and len(e) > 4 and e[4]:
                do(["ask", e[1], "discard", "reverse"])
        if cards is not None:
            do(["clear_seals"])
        public = dict(public)
        public["engine"] = engine_event
        public["effects"] = [list(e) for e in fx]
        self.emit(by, public, private, moves, shown)


def said_text(raw: object) -> str:
    """A person's truth question or dare as it is kept: white space collapsed to single
    spaces; refused in words when it is empty, longer than ``MAX_SAID`` or holds a control
    character (ONLINE.md 2: the actor types it; every input bounded)."""
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if (
        not text
        or len(text) > MAX_SAID
        or any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)
    ):
        raise _say("said", most=MAX_SAID)
    return text


def _lowest_of(st: _State, seat: str, kind: str) -> int:
    """The first card of ``kind`` in ``seat``'s hand (which copy goes changes nothing)."""
    return min(c for c in st.hand_a[seat] if st.akind[c] == kind)


def _cards_of(st: _State, seat: str) -> dict[str, list[Card]]:
    """``seat``'s hand as recorded in its private facts: identities with values."""
    return {
        "numbers": [[_nid(c), st.nval[c]] for c in sorted(st.hand_n[seat])],
        "actions": [[_aid(c), st.akind[c]] for c in sorted(st.hand_a[seat])],
    }


def _values(st: _State, seat: str) -> list[int]:
    return sorted(st.nval[c] for c in st.hand_n[seat])


def _kinds(st: _State, seat: str) -> list[str]:
    return sorted((st.akind[c] for c in st.hand_a[seat]), key=KIND_INDEX.__getitem__)


# -- what is asked and what is legal -----------------------------------------------------------


def _phase(st: _State) -> str:
    if st.chooses:
        return "choosing"
    if st.duel.finished:
        return "finished"
    if st.stopped:
        return "stopped"
    return "deciding" if st.duel._table.pending is not None else "sealing"


def _said_now(st: _State) -> dict[str, Any] | None:
    """The words of the TRUTH or DARE whose answer is asked now (public), else None."""
    pending = st.duel._table.pending
    if _phase(st) != "deciding" or pending is None or pending.decision not in SAYING_CARDS:
        return None
    return dict(st.said) if st.said is not None else None


def _answer_choices(st: _State, seat: str, decision: str) -> tuple[str, ...]:
    """The engine's choices that the seat's real cards allow (``pass`` always)."""
    if decision in ("counter", "block_counter", "challenge"):
        # Each of these choices but ``pass`` names the card it spends (RULES.md 4, 6).
        held = set(_kinds(st, seat))
        return tuple(c for c in DECISIONS[decision] if c == "pass" or c in held)
    return DECISIONS[decision]


def commands(table: DealtTable, seat: str) -> dict[str, Any]:
    """What ``seat`` may do now (the ``commands`` of its view): each command's name with the
    cards, targets, colours or choices it takes. Empty for a seat with nothing to do."""
    return _commands(table.st, seat)


def _commands(st: _State, seat: str) -> dict[str, Any]:
    """What ``seat`` may do now, from its own hand and the public state."""
    duel = st.duel
    t = duel._table
    i = duel._setup.index[seat]
    phase = _phase(st)
    out: dict[str, Any] = {}
    if phase in ("finished", "stopped") or t.out[i]:
        return out
    if phase == "choosing":
        for asked in st.chooses:
            if asked[0] == seat:
                if asked[1] == "shed":
                    out["choose"] = {"what": "shed", "cards": sorted(set(_values(st, seat)))}
                else:
                    kinds = _kinds(st, seat)
                    out["choose"] = {"what": "discard", "cards": list(dict.fromkeys(kinds))}
                break
        return out
    many = len(duel.seats) > 2
    legal = duel.legal()
    if phase == "deciding":
        pending = t.pending
        if pending is not None and duel._setup.seats[pending.seat] == seat:
            seats = duel._setup.seats
            # Whom the decision is about and the card that raised it: public once played (the
            # player of the card answered, the refuser a penalty falls on; None for a bonus).
            out["answer"] = {
                "decision": pending.decision,
                "choices": list(_answer_choices(st, seat, pending.decision)),
                "other": seats[pending.other] if pending.other >= 0 else None,
                "card": pending.card or None,
            }
            said = _said_now(st)
            if said is not None:
                out["answer"]["said"] = said
    else:
        targets = list(legal.targets.get(seat, ())) if many else []
        if seat in legal.round_seats and seat not in st.seals:
            out["seal"] = {"cards": sorted(set(_values(st, seat))), "targets": targets}
        allowed = legal.actions.get(seat, ())
        playable = [k for k in dict.fromkeys(_kinds(st, seat)) if k in allowed]
        if playable:
            out["play"] = {"cards": playable, "targets": targets, "colors": list(COLORS)}
    out["resign"] = {}
    return out


# -- bots ----------------------------------------------------------------------------------------


def _bot_sim(table: DealtTable, st: _State, seat: str, n: int) -> tuple[Simulator, int]:
    """A Simulator for the bot of ``seat`` that holds only what the seat may see: the engine's
    duel (counts, streaks, blocks and revealed cards are public) and this seat's own cards;
    every other hand is empty to it. Its random stream is the bot's own for event ``n``."""
    rng = _stream(table.seed, f"bot:{seat}:{n}")
    duel = st.duel
    seats = duel._setup.seats
    i = seats.index(seat)
    hands = Hands(seats, rng, duel.rules.reverse_discard == "after", False)
    for value in _values(st, seat):
        hands.num[i][value] += 1
    for kind in _kinds(st, seat):
        hands.act[i][KIND_INDEX[kind]] += 1
    specs: list[str | None] = [None] * len(seats)
    specs[i] = table.cfg.bot
    return Simulator(duel, specs, rng, hands=hands), i


# -- the adapter -------------------------------------------------------------------------------


class SplitUnoDealt:
    """ONLINE.md's dealt Split UNO over ``games.split_uno``: see the module docstring."""

    kind: ClassVar[str] = "split_uno_dealt"

    # -- making tables ---------------------------------------------------------------------

    def start(
        self, config: Mapping[str, Any], seats: Sequence[str], seed: bytes
    ) -> tuple[DealtTable, list[Event]]:
        """Shuffle and deal from ``seed``; the bots then seal (and act) at once."""
        if not isinstance(seed, bytes) or len(seed) < MIN_SEED_BYTES:
            raise ValueError(f"a dealt game needs a seed of at least {MIN_SEED_BYTES} bytes")
        cfg = read_config(config, seats)
        seats = tuple(seats)
        duel = _new_duel(cfg, seats)
        rules = duel.rules
        rng = _stream(seed, "dealer")
        numbers = [
            v for v, k in enumerate(number_composition(rules.number_pool, cfg.spread))
            for _ in range(k)
        ]  # fmt: skip
        composition = action_composition(rules.action_pool, rules.truth_dare)
        actions = [kind for kind in CARDS for _ in range(composition.get(kind, 0))]
        rng.shuffle(numbers)
        rng.shuffle(actions)
        private: dict[str, dict[str, Any]] = {}
        top_n = top_a = 0
        for seat in seats:
            dealt = range(top_n, top_n + rules.starting_number_cards)
            private[seat] = {"numbers": [[_nid(c), numbers[c]] for c in dealt], "actions": []}
            top_n += rules.starting_number_cards
        for seat, count in rules.starting_action_cards:
            given = range(top_a, top_a + count)
            private[seat]["actions"] = [[_aid(c), actions[c]] for c in given]
            top_a += count
        private[DEALER] = {
            "number_deck": [[_nid(c), numbers[c]] for c in range(top_n, len(numbers))],
            "action_deck": [[_aid(c), actions[c]] for c in range(top_a, len(actions))],
        }
        public = {
            "type": "deal",
            "number_cards": rules.starting_number_cards,
            "action_cards": dict(rules.starting_action_cards),
        }
        deal = Event(by="dealer", public=public, private=private)
        st = _State(duel)
        _absorb_deal(st, deal)
        table = DealtTable(cfg, seats, seed, st, [deal])
        step = _Step(table)
        self._answers(step)
        table.st = step.st
        table.events.extend(step.events)
        return table, [deal, *step.events]

    def restore(
        self,
        config: Mapping[str, Any],
        seats: Sequence[str],
        seed: bytes,
        events: Sequence[Event],
    ) -> DealtTable:
        """The table after ``events``, rebuilt from them alone (no stream, no bot)."""
        cfg = read_config(config, seats)
        seats = tuple(seats)
        st = _State(_new_duel(cfg, seats))
        for event in events:
            _absorb(st, event)
        return DealtTable(cfg, seats, seed, st, list(events))

    # -- playing ---------------------------------------------------------------------------

    def apply(self, table: DealtTable, command: Command) -> list[Event]:
        """Apply a seat's command and the bots' answers until a person is asked."""
        seat = command.seat
        if command.name == BOTS_COMMAND and seat is None and table.cfg.in_worker:
            return self._bots_turn(table)
        if seat is None or seat not in table.seats:
            raise _say("not_a_seat")
        if seat in table.st.bots(table.cfg) and command.name not in (FORFEIT, ADJUDICATE):
            raise _say("bot_seat")
        step = _Step(table)
        handler = {
            "seal": self._seal,
            "play": self._play,
            "answer": self._answer,
            "choose": self._choose,
            "resign": self._resign,
            TIMEOUT: self._timeout,
            TAKE_OVER: self._take_over,
            FORFEIT: self._forfeit,
            ADJUDICATE: self._forfeit,
        }.get(command.name)
        if handler is None:
            raise _say("unknown")
        # A product's ruling says which (the one handler words the engine's event by it).
        handler(step, seat, command.args, command.name if handler == self._forfeit else seat)
        self._answers(step)
        table.st = step.st
        table.events.extend(step.events)
        return step.events

    def _seal(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        st = step.st
        allowed = _commands(st, seat).get("seal")
        if allowed is None:
            if seat in st.seals:
                raise _say("sealed_already")
            raise _say("nothing_to_seal")
        value = args.get("card")
        if type(value) is not int or value not in allowed["cards"]:
            raise _say("seal_held")
        target = None
        if len(step.seats) > 2 and value in (0, 7):
            target = args.get("target")
            if target not in allowed["targets"]:
                raise _say("seal_target", value=value, choices=", ".join(allowed["targets"]))
        card = min(c for c in st.hand_n[seat] if st.nval[c] == value)
        step.emit(
            by,
            {"type": "seal", "seat": seat},
            {seat: {"sealed": [_nid(card), value], "target": target}},
            [["seal", seat, _nid(card), target]],
        )
        self._maybe_round(step)

    def _maybe_round(self, step: _Step) -> bool:
        """When every seat the round involves has sealed, reveal and play it."""
        st = step.st
        if _phase(st) != "sealing":
            return False
        legal = st.duel.legal()
        if any(seat not in st.seals for seat in legal.round_seats):
            return False
        cards = {seat: st.nval[st.seals[seat][0]] for seat in legal.round_seats}
        engine: dict[str, Any] = {"type": "round", "cards": cards}
        if len(step.seats) > 2:
            targets = {s: st.seals[s][1] for s in legal.round_seats if cards[s] in (0, 7)}
            if targets:
                engine["targets"] = targets
        step.engine("dealer", {"type": "round"}, engine)
        return True

    def _returned(self, st: _State) -> list[list[Any]]:
        return [["clear_seals"]] if st.seals else []

    def _play(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        st = step.st
        allowed = _commands(st, seat).get("play")
        card = args.get("card")
        if allowed is None or card not in allowed["cards"]:
            raise _say("play_held")
        engine: dict[str, Any] = {"type": "action", "seat": seat, "card": card}
        if card == "color_change":
            color = args.get("color", COLORS[0])
            if color not in COLORS:
                raise _say("colour", choices=", ".join(COLORS))
            engine["color"] = color
        elif len(step.seats) > 2:
            target = args.get("target")
            if target not in allowed["targets"]:
                raise _say("play_target", choices=", ".join(allowed["targets"]))
            engine["target"] = target
        public: dict[str, Any] = {"type": "play", "seat": seat, "returned": sorted(st.seals)}
        if card in SAYING_CARDS:
            to = engine.get("target") or next(s for s in step.seats if s != seat)
            key = args.get("say")
            if by.startswith("bot:") and key in BOT_SAYINGS[str(card)]:
                public["said"] = {"to": to, "bot": key}
            else:
                public["said"] = {"to": to, "text": said_text(args.get("text"))}
        played = _lowest_of(st, seat, str(card))
        step.engine(by, public, engine, self._returned(st), played)

    def _answer(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        allowed = _commands(step.st, seat).get("answer")
        if allowed is None:
            raise _say("nothing_asked")
        choice = args.get("choice")
        if choice not in allowed["choices"]:
            raise _say("choose_one", choices=", ".join(allowed["choices"]))
        engine = {"type": "respond", "seat": seat, "choice": choice}
        step.engine(by, {"type": "answer", "seat": seat}, engine)

    def _choose(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        st = step.st
        allowed = _commands(st, seat).get("choose")
        if allowed is None:
            raise _say("nothing_to_choose")
        card = args.get("card")
        if card not in allowed["cards"] or type(card) is bool:
            raise _say("choose_one", choices=", ".join(map(str, allowed["cards"])))
        self._give_up(step, seat, allowed["what"], card, by)

    def _give_up(self, step: _Step, seat: str, what: str, card: Any, by: str) -> None:
        st = step.st
        if what == "shed":
            chosen = _nid(min(c for c in st.hand_n[seat] if st.nval[c] == card))
            move = ["shed_n", seat, chosen]
        else:
            chosen = _aid(_lowest_of(st, seat, card))
            move = ["spend_a", seat, chosen]
        step.emit(
            by,
            {"type": "choose", "seat": seat, "what": what, "card": card},
            {},
            [move, ["answered", seat]],
            [chosen],
        )

    def _resign(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        st = step.st
        if "resign" not in _commands(st, seat):
            if st.chooses:
                raise _say("choose_first")
            raise _say("not_in_play")
        engine = {"type": "forfeit", "seat": seat, "reason": step.cfg.resign_reason}
        public = {"type": "resign", "seat": seat, "returned": sorted(st.seals)}
        step.engine(by, public, engine, self._returned(st))

    def _forfeit(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        """A product's ruling: ``seat`` forfeits now with ``args["reason"]``; every seal goes
        back to its owner. Refused while cards are being chosen (the engine already counted
        them shed): the ruling waits for those seconds."""
        st = step.st
        if _phase(st) == "finished":
            raise _say("not_in_play")
        if st.chooses:
            raise _say("choose_first")
        reason = args.get("reason", "")
        if not isinstance(reason, str) or not reason or len(reason) > MAX_REASON:
            raise _say("reason", most=MAX_REASON)
        if by == ADJUDICATE:
            engine = {"type": "adjudicate", "winner": seat, "reason": reason}
            public = {"type": "adjudicate", "seat": seat, "returned": sorted(st.seals)}
        else:
            engine = {"type": "forfeit", "seat": seat, "reason": reason}
            public = {"type": "resign", "seat": seat, "returned": sorted(st.seals)}
        step.engine(RULING, public, engine, self._returned(st))

    def _timeout(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        """The clock's move for ``seat`` (ONLINE.md 3: ``clock_move``), by ``clock``; its
        ``args`` are not read: the table says what the clock plays."""
        if step.cfg.seat_clock is None:
            raise _say("no_clock")
        move = _clock_move(step.st, step.seats, seat)
        if move is None:
            raise _say("nothing_asked")
        name, chosen = move
        handler = {"seal": self._seal, "answer": self._answer, "choose": self._choose}[name]
        handler(step, seat, chosen, CLOCK)

    def _take_over(self, step: _Step, seat: str, args: Mapping[str, Any], by: str) -> None:
        """A product's take-over (a person left a table of more sides): a bot of the table's
        level plays the seat for the rest of the game."""
        st = step.st
        if _phase(st) == "finished" or st.duel._table.out[st.duel._setup.index[seat]]:
            raise _say("not_in_play")
        self._hand_over(step, seat, TABLE)

    def _hand_over(self, step: _Step, seat: str, by: str) -> None:
        """The seat becomes a bot's; every seal goes back to its owner (ONLINE.md 2)."""
        st = step.st
        public = {"type": TAKE_OVER, "seat": seat, "returned": sorted(st.seals)}
        step.emit(by, public, {}, self._returned(st))

    def _abandon(self, step: _Step, seat: str) -> None:
        """Three clock-outs in a row (ONLINE.md 3 and 4): the seat forfeits, reason
        ``abandoned``, or a bot takes it, as the config's ``on_abandon`` says."""
        st = step.st
        if step.cfg.on_abandon == "bot":
            self._hand_over(step, seat, CLOCK)
            return
        engine = {"type": "forfeit", "seat": seat, "reason": "abandoned"}
        public = {"type": "abandon", "seat": seat, "returned": sorted(st.seals)}
        step.engine(CLOCK, public, engine, self._returned(st))

    def _stop(self, step: _Step, seats: Sequence[str]) -> None:
        """Both persons abandoned (``both_abandon: "stop"``): the game stops without a result,
        every seal back to its owner; only the product's ruling moves it on."""
        public = {"type": STOP, "seats": list(seats), "returned": sorted(step.st.seals)}
        step.emit(CLOCK, public, {}, self._returned(step.st))

    def _bots_turn(self, table: DealtTable) -> list[Event]:
        """The worker's command: one bot decision (and the dealer's moves it brings about),
        then stop where the next bot must decide. Refused when no bot is asked anything, so a
        repeated or late task changes nothing."""
        if not self.bots_to_move(table):
            raise _say("no_bot_asked")
        step = _Step(table)
        step.bot_budget = 1
        self._answers(step)
        table.st = step.st
        table.events.extend(step.events)
        return step.events

    def bots_to_move(self, table: DealtTable) -> list[str]:
        """The bot seats the game waits for (a table whose bots think in the worker)."""
        bots = table.st.bots(table.cfg)
        if _waiting_for_the_product(table.st, table.cfg, table.seats):
            return []
        return [a.seat for a in self.awaiting(table) if a.seat in bots]

    # -- the bots, the dealer's own moves --------------------------------------------------

    def _answers(self, step: _Step) -> None:
        """``_run``; a refusal there is a bot's or the dealer's move, a bug, not the person's."""
        try:
            self._run(step)
        except Refused as bug:
            raise RuntimeError(f"a bot or the dealer made a move the table refused: {bug}") from bug

    def _run(self, step: _Step) -> None:
        """Bots act, and the dealer plays what nobody chooses, until a person is asked. A
        seat with three clock-outs in a row abandons first, once no card is being chosen.
        Once a bot has taken over the last person's seat in play, the bots wait: a table in
        which no person is left ends without a result, as its product decides (ONLINE.md 4)."""
        while True:
            st = step.st
            bots = st.bots(step.cfg)
            phase = _phase(st)
            t = st.duel._table
            if phase in ("finished", "stopped"):
                return
            if phase != "choosing":
                both = _both_abandoned(st, step.cfg, step.seats)
                if both:
                    self._stop(step, both)
                    return
                gone = _abandoning(st, step.cfg, step.seats)
                if gone is not None and not _other_may_abandon(st, step.cfg, step.seats, gone):
                    self._abandon(step, gone)
                    continue
            if _waiting_for_the_product(st, step.cfg, step.seats):
                return
            if phase == "choosing":
                if st.duel.finished:
                    # The game is over: nothing rides on the card, the dealer sheds the
                    # lowest (ONLINE.md 3's clock rule).
                    seat, what = st.chooses[0][0], st.chooses[0][1]
                    options = _commands_after_end(st, seat, what)
                    self._give_up(step, seat, what, options[0], "dealer")
                    continue
                asked = next((c for c in st.chooses if c[0] in bots), None)
                if asked is None or not step.bot_may_decide():
                    return
                seat, what = asked[0], asked[1]
                sim, i = _bot_sim(step.table, st, seat, step.index)
                bot = sim.bots[i]
                assert bot is not None
                if what == "shed":
                    card: Any = bot.shed(sim, i)
                else:
                    card = CARDS[bot.discard_action(sim, i)]
                self._give_up(step, seat, what, card, f"bot:{seat}")
                step.bot_decided()
                continue
            if phase == "deciding":
                pending = t.pending
                assert pending is not None
                seat = st.duel._setup.seats[pending.seat]
                if seat not in bots or not step.bot_may_decide():
                    return
                choices = _answer_choices(st, seat, pending.decision)
                if pending.decision in SAYING_CARDS:
                    # A bot cannot answer a question or do a dare: it says it did (ONLINE.md
                    # 2, as the seat clock does: "completed").
                    choice = choices[0]
                else:
                    sim, i = _bot_sim(step.table, st, seat, step.index)
                    bot = sim.bots[i]
                    assert bot is not None
                    choice = bot.respond(sim, i, pending.decision, choices)
                self._answer(step, seat, {"choice": choice}, f"bot:{seat}")
                step.bot_decided()
                continue
            # Sealing.
            if self._maybe_round(step):
                continue
            persons = [s for k, s in enumerate(step.seats) if s not in bots and not t.out[k]]
            if not persons and t.events >= DEFAULT_MAX_EVENTS - 1:
                engine = {"type": "time_limit", "reason": CAP_REASON}
                step.engine("dealer", {"type": "time_limit"}, engine, self._returned(st))
                continue
            if not self._bots_free(step):
                return

    def _bots_free(self, step: _Step) -> bool:
        """Every bot in play without a seal says what it does now, in seat order: the first
        action card wanted is played; values are sealed. Whether any event came of it."""
        st = step.st
        t = st.duel._table
        legal = st.duel.legal()
        many = len(step.seats) > 2
        acted = False
        bots = st.bots(step.cfg)
        for k, seat in enumerate(step.seats):
            if seat not in bots or t.out[k] or seat in st.seals:
                continue
            if not step.bot_may_decide():
                return acted
            sim, i = _bot_sim(step.table, st, seat, step.index)
            bot = sim.bots[i]
            assert bot is not None
            move = bot.free(sim, i)
            offer = _commands(st, seat).get("play", {"cards": ()})
            if isinstance(move, dict) and move.get("card") in offer["cards"]:
                args: dict[str, Any] = {
                    key: move[key] for key in ("card", "color", "target") if key in move
                }
                if args["card"] in SAYING_CARDS:
                    sayings = BOT_SAYINGS[args["card"]]
                    pick = _stream(step.seed, f"bot:{seat}:{step.index}:say").random()
                    args["say"] = sayings[int(pick * len(sayings))]
                self._play(step, seat, args, f"bot:{seat}")
                step.bot_decided()
                return True
            if seat in legal.round_seats:
                if type(move) is not int:
                    # The engine's bots always reveal when they can; a seat the round
                    # involves must seal, so the lowest card goes if one ever would not.
                    move = _values(st, seat)[0]
                args = {"card": move}
                if many and move in (0, 7):
                    why = "zero" if move == 0 else "seven"
                    args["target"] = step.seats[bot.target(sim, i, why)]
                self._seal(step, seat, args, f"bot:{seat}")
                step.bot_decided()
                acted = True
                st = step.st
                if _phase(st) != "sealing" or not st.seals:
                    return True  # the round was played
        return acted

    # -- reading ---------------------------------------------------------------------------

    def awaiting(self, table: DealtTable) -> list[Await]:
        """Who is asked what; a person's seat with the table's seat clock (a bot's none)."""
        st = table.st
        asked_now = _asked_now(st)
        bots = st.bots(table.cfg)
        seconds = table.cfg.seat_clock
        return [Await(s, what, None if s in bots else seconds) for s, what in asked_now]

    def on_deadline(self, table: DealtTable, seat: str | None) -> Command | None:
        """The clock's command when ``seat``'s time has run out (``play.clock``): ``timeout``
        for a seat asked something with a clock, its ``args`` the move ``clock_move`` names
        (for the reader; the adapter plays the move the table prescribes when it applies
        it). None for the game's own deadline (a dealt game has none) or a seat not asked."""
        if seat is None or table.cfg.seat_clock is None:
            return None
        if not any(a.seat == seat and a.seconds for a in self.awaiting(table)):
            return None
        move = clock_move(table, seat)
        if move is None:
            return None
        return Command(TIMEOUT, seat, {"command": move.name, **move.args})

    def taken_over(self, events: Sequence[Event], cfg: Mapping[str, Any]) -> dict[str, str]:
        """The seats ``events`` hand to a bot, each with the bot's level (the table's
        ``bot``): the table core updates their ``Seat`` rows (``play.services``)."""
        level = str(cfg.get("bot", "heuristic"))
        return {e.public["seat"]: level for e in events if e.public.get("type") == TAKE_OVER}

    def persons_in_play(self, table: DealtTable) -> list[str]:
        """The seats in play that a person holds (no bot): none left, the table's product
        ends the game without a result (ONLINE.md 4)."""
        return _persons_in_play(table.st, table.cfg, table.seats)

    def finished(self, table: DealtTable) -> bool:
        return _phase(table.st) == "finished"

    def view(self, table: DealtTable, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` may see, as JSON-able data (ONLINE.md section 5)."""
        st = table.st
        state = st.duel.state()
        over = self.finished(table)
        me = viewer.seat if viewer.kind == "seat" and viewer.seat in table.seats else None
        everything = over and (viewer.kind == "owner" or me is not None)
        legal = st.duel.legal()
        pile = [0] * 10
        for c in st.disc_n:
            pile[st.nval[c]] += 1
        out: dict[str, Any] = {
            "kind": self.kind,
            "viewer": {"kind": viewer.kind, "seat": me},
            "ruleset": table.cfg.ruleset,
            "variants": list(table.cfg.variants),
            "teams": [list(team) for team in table.cfg.teams],
            "bots": [s for s in table.seats if s in st.bots(table.cfg)],
            "seat_clock": table.cfg.seat_clock,
            "clock_outs": {s: n for s, n in sorted(st.clock_outs.items()) if n},
            "phase": _phase(st),
            "state": state,
            "round_seats": list(legal.round_seats) if _phase(st) == "sealing" else [],
            "sealed": sorted(st.seals),
            "choosing": [{"seat": c[0], "what": c[1]} for c in st.chooses],
            "discard_pile": {
                "numbers": pile,
                "actions": {
                    kind: n
                    for kind in CARDS
                    if (n := sum(1 for c in st.disc_a if st.akind[c] == kind))
                },
            },
            "awaiting": [
                {"seat": a.seat, "what": a.what, "seconds": a.seconds} for a in self.awaiting(table)
            ],
            "names": dict(table.cfg.names),
            "truth_dare": table.cfg.truth_dare,
            # The TRUTH or DARE being answered, its words for everyone (said aloud at a table).
            "said": _said_now(st),
            "log": _log(table, None if everything else me, everything),
        }
        if me is not None:
            seal = st.seals.get(me)
            out["hand"] = {"numbers": _values(st, me), "actions": _kinds(st, me)}
            out["my_seal"] = None if seal is None else {"card": st.nval[seal[0]], "target": seal[1]}
            out["commands"] = _commands(st, me)
        if everything:
            deal = self.whole_deal(table)
            out["hands"] = deal["hands"]
            out["decks_left"] = deal["decks_left"]
        return out

    def whole_deal(self, table: DealtTable) -> dict[str, Any]:
        """Every seat's hand, the cards sealed and the decks' order at this point of the game,
        whoever looks: what the replay shows at each step once the game is over (ONLINE.md 5,
        "after the end"). Only the table core's ``play.selectors.whole_deal`` calls it, and
        only for a finished game; ``view`` gives the same to a seat after the end."""
        st = table.st
        return {
            "hands": {
                s: {"numbers": _values(st, s), "actions": _kinds(st, s)} for s in table.seats
            },
            "sealed": {s: st.nval[card] for s, (card, _) in sorted(st.seals.items())},
            "decks_left": {
                "numbers": [st.nval[c] for c in st.deck_n],
                "actions": [st.akind[c] for c in st.deck_a],
            },
        }


def _persons_in_play(st: _State, cfg: DealtConfig, seats: Sequence[str]) -> list[str]:
    bots = st.bots(cfg)
    out = st.duel._table.out
    return [s for k, s in enumerate(seats) if s not in bots and not out[k]]


def _waiting_for_the_product(st: _State, cfg: DealtConfig, seats: Sequence[str]) -> bool:
    """A bot took over a seat and no person is left in play: the bots do not play on."""
    return bool(st.taken) and not st.duel.finished and not _persons_in_play(st, cfg, seats)


def _both_abandoned(st: _State, cfg: DealtConfig, seats: Sequence[str]) -> list[str]:
    """The two persons' seats of a game that stops when both abandon, when both have three
    clock-outs in a row; else []."""
    persons = _persons_in_play(st, cfg, seats)
    if cfg.both_abandon != "stop" or len(persons) != 2:
        return []
    if all(st.clock_outs.get(s, 0) >= ABANDON_AFTER for s in persons):
        return persons
    return []


def _other_may_abandon(st: _State, cfg: DealtConfig, seats: Sequence[str], gone: str) -> bool:
    """Whether ``gone``'s abandonment waits (``both_abandon: "stop"``): the other person is
    asked something now with two clock-outs in a row, so their own move (``gone`` abandons)
    or their third clock-out (both abandon) decides which it is."""
    persons = _persons_in_play(st, cfg, seats)
    if cfg.both_abandon != "stop" or len(persons) != 2:
        return False
    other = persons[0] if persons[1] == gone else persons[1]
    if st.clock_outs.get(other, 0) != ABANDON_AFTER - 1:
        return False
    return any(seat == other for seat, _ in _asked_now(st))


def _asked_now(st: _State) -> list[tuple[str, str]]:
    """Who is asked what now: (seat, "choose" | "decide" | "seal")."""
    phase = _phase(st)
    if phase == "choosing":
        seen: dict[str, None] = {}
        for asked in st.chooses:
            seen[asked[0]] = None
        return [(seat, "choose") for seat in seen]
    if phase == "deciding":
        pending = st.duel._table.pending
        assert pending is not None
        return [(st.duel._setup.seats[pending.seat], "decide")]
    if phase == "sealing":
        legal = st.duel.legal()
        return [(s, "seal") for s in legal.round_seats if s not in st.seals]
    return []


def _abandoning(st: _State, cfg: DealtConfig, seats: Sequence[str]) -> str | None:
    """The first person's seat in play with three clock-outs in a row, if any."""
    for seat in _persons_in_play(st, cfg, seats):
        if st.clock_outs.get(seat, 0) >= ABANDON_AFTER:
            return seat
    return None


def clock_move(table: DealtTable, seat: str) -> Command | None:
    """What the clock plays for ``seat`` when its time runs out (ONLINE.md 3), as the seat's
    own command would say it; None when the seat is asked nothing."""
    move = _clock_move(table.st, table.seats, seat)
    return None if move is None else Command(move[0], seat, move[1])


def _clock_move(st: _State, seats: Sequence[str], seat: str) -> tuple[str, dict[str, Any]] | None:
    """ONLINE.md 3: a card to choose, the lowest number card (for a REVERSE discard, the
    first action card in RULES.md 4's order: ``_kinds``'s); a counter, BLOCK counter or
    challenge passed, any other decision its first choice in RULES.md 7's order (truth and
    dare "completed"); a seal, the lowest number card (the target of a 0 or 7, the first
    opponent after the seat in seat order)."""
    offer = _commands(st, seat)
    if "choose" in offer:
        return "choose", {"card": offer["choose"]["cards"][0]}
    if "answer" in offer:
        asked = offer["answer"]
        choice = "pass" if asked["decision"] in _PASSED else asked["choices"][0]
        return "answer", {"choice": choice}
    seal = offer.get("seal")
    if not seal or not seal["cards"]:
        return None
    cards = seal["cards"]
    many = len(seats) > 2
    if many and not seal["targets"]:  # no one to aim a 0 or 7 at: another card if held
        cards = [c for c in cards if c not in (0, 7)] or cards
    args: dict[str, Any] = {"card": cards[0]}
    if many and cards[0] in (0, 7):
        i = seats.index(seat)
        after = [*seats[i + 1 :], *seats[:i]]
        args["target"] = next((s for s in after if s in seal["targets"]), None)
    return "seal", args


def _commands_after_end(st: _State, seat: str, what: str) -> list[Any]:
    if what == "shed":
        return _values(st, seat)
    return _kinds(st, seat)


def _plain(cards: Iterable[Card]) -> list[Any]:
    """Cards as a viewer reads them: values and names, never identities."""
    return [card[1] for card in cards]


def _facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's private facts of one event without card identities."""
    out: dict[str, Any] = {}
    for key, value in facts.items():
        if key in ("numbers", "actions", "drew"):
            out[key] = _plain(value)
        elif key == "sealed":
            out[key] = value[1]
        elif key in ("stole", "lost"):
            out[key] = [[other, card[1]] for other, card in value]
        elif key == "hand":
            out[key] = {
                "numbers": sorted(_plain(value["numbers"])),
                "actions": _plain(value["actions"]),
            }
        else:
            out[key] = value
    return out


def _log(table: DealtTable, seat: str | None, everything: bool) -> list[dict[str, Any]]:
    """Every event as ``seat`` may read it: its public lines and, for that seat (or, after the
    end, for the owner and every seat, for all), the private facts. The lines are data (an
    engine effect, ``split_uno_refereed.compact``, or ``{"say": …}`` for this adapter's own),
    put in words by the table core (``play.effect_words.localised_view``) by the view's
    ``names``."""
    out = []
    for n, event in enumerate(table.events):
        public = event.public
        kind = public["type"]
        lines: list[dict[str, Any]]
        if kind == "deal":
            lines = [{"say": "deal", "count": public["number_cards"]}]
        elif kind == "seal":
            lines = [{"say": "sealed", "seat": public["seat"]}]
        elif kind == "choose":
            said = "shed" if public["what"] == "shed" else "gives_up"
            lines = [{"say": said, "seat": public["seat"], "card": public["card"]}]
        elif kind == TAKE_OVER:
            lines = [{"say": "taken_over", "seat": public["seat"]}]
        elif kind == STOP:
            lines = [{"say": "both_abandoned", "seats": list(public["seats"])}]
        else:
            lines = log_lines(build([tuple(e) for e in public["effects"]]))
        if kind == "resign" and event.by == public["seat"]:
            lines = _resigned(lines)
        if "said" in public:
            # The actor's words right after the card's line (the lines that follow say the
            # sheds and the decision asked).
            said = {"say": "said", "seat": public["seat"], "card": public["engine"]["card"]}
            lines.insert(1 if lines else 0, {**said, **public["said"]})
        if public.get("returned"):
            lines.append({"say": "returned"})
        if event.by == CLOCK and kind != STOP:
            # The clock's own moves say so first (ONLINE.md 3: "time: the clock played …").
            said = "clock" if kind in ("seal", "answer", "choose") else "abandoned"
            lines.insert(0, {"say": said, "seat": public["seat"]})
        entry: dict[str, Any] = {"n": n, "by": event.by, "type": kind, "lines": lines}
        # Each line's kind, cause and seat beside its words: a table view sorts the lines
        # (the round's winner, a seat's draws) without reading the words.
        entry["facets"] = [_facet(line) for line in lines]
        if kind == "round":
            entry["cards"] = dict(public["engine"]["cards"])
            entry["targets"] = dict(public["engine"].get("targets", {}))
        if kind in ("play", "answer", "resign", "time_limit", "abandon", "adjudicate"):
            entry["move"] = {k: v for k, v in public["engine"].items() if k != "type"}
        if everything:
            entry["private"] = {
                s: _facts(f) for s, f in sorted(event.private.items()) if s != DEALER
            }
        elif seat is not None and seat in event.private:
            entry["mine"] = _facts(event.private[seat])
        out.append(entry)
    return out


def _resigned(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A seat's own resignation, as the log says it: "resigned", whatever reason the record
    keeps. A tournament's online duel records it as reason ``abandoned`` (ONLINE.md 4: one
    forfeit reason for resigning and abandoning, the record's contract), but the person
    resigned: the words say what happened, the record stays as it is."""
    return [
        {**line, "card": "resigned"}
        if line.get("kind") == "finish" and line.get("cause") == "forfeit" and "card" in line
        else line
        for line in lines
    ]


def _facet(line: Mapping[str, Any]) -> list[Any]:
    """A stored line's kind (an adapter line's ``say``), cause and seat."""
    if "say" in line:
        return [line["say"], None, line.get("seat")]
    return [line.get("kind"), line.get("cause"), line.get("seat")]


def record(table: DealtTable) -> dict[str, Any]:
    """The game as an ordinary ``split-uno-duel`` record (RULES.md section 8, ONLINE.md 6):
    the engine's events only, every one of them public, so that it replays with
    ``python -m duels.engine replay``."""
    return table.st.duel.record()


def conservation_problems(table: DealtTable) -> list[str]:
    """What breaks ONLINE.md's conservation now (empty when none): every card of both pools in
    exactly one place, and every place the size the engine counts (a card being chosen is
    still in its owner's hand, though the engine has already counted it shed)."""
    st = table.st
    t = st.duel._table
    problems = []
    number_places = [c for h in st.hand_n.values() for c in h] + st.deck_n + st.disc_n
    action_places = [c for h in st.hand_a.values() for c in h] + st.deck_a + st.disc_a
    if sorted(number_places) != list(range(len(st.nval))):
        problems.append("a number card is missing or in two places")
    if sorted(action_places) != list(range(len(st.akind))):
        problems.append("an action card is missing or in two places")
    sheds = {s: 0 for s in table.seats}
    gives = {s: 0 for s in table.seats}
    for seat, what, _ in st.chooses:
        (sheds if what == "shed" else gives)[seat] += 1
    for i, seat in enumerate(table.seats):
        if len(st.hand_n[seat]) != t.num[i] + sheds[seat]:
            problems.append(f"{seat} holds {len(st.hand_n[seat])} number cards")
        if len(st.hand_a[seat]) != t.act[i] + gives[seat]:
            problems.append(f"{seat} holds {len(st.hand_a[seat])} action cards")
    if (len(st.deck_n), len(st.deck_a)) != (t.deck_n, t.deck_a):
        problems.append("a deck is not the size the engine counts")
    if len(st.disc_n) + sum(sheds.values()) != t.disc_n:
        problems.append("the number discard pile is not the size the engine counts")
    if len(st.disc_a) + sum(gives.values()) != t.disc_a:
        problems.append("the action discard pile is not the size the engine counts")
    for seat, (card, _) in st.seals.items():
        if card not in st.hand_n[seat]:
            problems.append(f"{seat} sealed a card it does not hold")
    return problems


#: The adapter the table core registers under ``kind``.
ADAPTER: Adapter = SplitUnoDealt()
