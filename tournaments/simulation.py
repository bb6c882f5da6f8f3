"""Whole simulated tournaments, played by the bots through the same services a referee uses.

Used by `manage.py simulate_tournament`, the demo of `./dev run`, tests and benchmarks. Every
move goes through `duels.services.append_event`, so a simulated tournament exercises the real
locks, checks, results, standings and automation.

`online` (ONLINE.md 6, issue 31): the tournament's duels are played online instead, through
the players' own services (`tournaments.services.online`): each entrant's account says it is
ready, the app deals, and a bot in every seat chooses each move from that seat's own view (what
the player's page is drawn from) and sends it as the player's move.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from accounts.models import Role, TournamentRole
from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus
from games.split_uno.simulate import play_duel
from play.adapters.base import Command, Viewer
from play.errors import Stale
from play.models import Game
from play.selectors import restore
from tournaments.services import online as online_duels
from tournaments.services import refereeing as duel_services
from tournaments.services.shared_cards import start_options

from . import format as fmt
from . import services
from .models import EntrantStatus, Phase, RoundStatus, Tournament
from .services import corrections
from .services.progression import start_playoffs

UNTIL = ("complete", "playoffs", "tie_breaks")
FORFEIT_RATE = 0.05  # a no-show now and then, as at a real event
TRANSFER_RATE = 0.3
GIFT_RATE = 0.5
BOTS = ("heuristic", "heuristic")
# --chaos: what organisers and players do to a real event, now and then (rates per chance).
CHAOS_PLAYING_WITHDRAWAL = 0.04  # a player leaves in the middle of their duel
CHAOS_WITHDRAWAL = 0.08  # a player who is not playing leaves
CHAOS_CORRECTION = 0.12
CHAOS_VOID = 0.08
CHAOS_ELIMINATION = 0.04  # a whole group sinks (confirmed), once
# --online: how often a seat's bot plays an action card it may play instead of sealing, and
# the most steps one online duel may take (each step, every seat asked something moves).
ONLINE_ACTION_RATE = 0.3
ONLINE_MAX_STEPS = 2000


@dataclass
class Progress:
    """What the simulation did, for the command's report."""

    duels: int = 0
    moves: int = 0
    transfers: int = 0
    gifts: int = 0
    forfeits: int = 0
    withdrawals: int = 0
    eliminations: int = 0
    corrections: int = 0
    voids: int = 0
    stale: int = 0  # --online: a move from a page another move overtook, drawn again
    log: list[str] = field(default_factory=list)


def parse_until(until: str) -> tuple[str, int | None]:
    """`round:K`, `tie_breaks`, `playoffs` or `complete`."""
    if until.startswith("round:"):
        number = int(until.split(":", 1)[1])
        if not 1 <= number <= 15:
            raise ValueError("round:K needs K from 1 to 15")
        return "round", number
    if until not in UNTIL:
        raise ValueError("--until is round:K, tie_breaks, playoffs or complete")
    return until, None


class TournamentSimulation:
    def __init__(
        self,
        tournament: Tournament,
        organiser,
        referee,
        rng: random.Random,
        report: Callable[[str], None] = lambda line: None,
        wait_for_automation: float = 0,
        chaos: bool = False,
        online: bool = False,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.wait_for_automation = wait_for_automation
        self.chaos = chaos
        self.online = online
        self.options = options or {}
        self.tournament = tournament
        self.organiser = organiser
        self.referee = referee
        self.rng = rng
        self.report = report
        self.progress = Progress()

    # -- one duel --------------------------------------------------------------------------

    def play(self, duel: Duel) -> None:
        """Play a duel to its end (and any replay it needs) through the services."""
        while duel is not None:
            duel.refresh_from_db()
            if self.online:
                self.play_online(duel)
            else:
                self.play_at_table(duel)
            self.progress.duels += 1
            duel.refresh_from_db()
            duel = Duel.objects.filter(replay_of=duel, status=DuelStatus.READY).first()

    def play_at_table(self, duel: Duel) -> None:
        """A refereed duel: the bots' moves entered as a referee enters them."""
        if self.rng.random() < FORFEIT_RATE:
            seat = self.rng.choice("AB")
            duel_services.append_event(
                duel,
                self.referee,
                {"type": "forfeit", "seat": seat, "reason": "no_show"},
                duel.seq,
            )
            self.progress.forfeits += 1
            return
        simulated = play_duel(
            duel.ruleset,
            {"A": duel.seat_a.name, "B": duel.seat_b.name},
            BOTS,
            random.Random(self.rng.random()),
            duel.variants,
            start_options(duel),
        )
        leave_at = (
            self.rng.randrange(1, len(simulated.events) + 1)
            if self.chaos and self.rng.random() < CHAOS_PLAYING_WITHDRAWAL
            else None
        )
        for seq, event in enumerate(simulated.events):
            if seq == leave_at and self.withdraw(self.rng.choice((duel.seat_a, duel.seat_b))):
                break  # they forfeited the duel first (TOURNAMENT.md "Withdrawals")
            duel_services.append_event(duel, self.referee, event, seq)
            self.progress.moves += 1

    def play_online(self, duel: Duel) -> None:
        """An online duel (ONLINE.md 6): both players say they are ready (in either order),
        the app deals, and each step every seat asked something moves from its own view, all
        from pages of the same revision (as two phones would: a seal overtaken only by the
        other's seal still counts; any other overtaken move is drawn again). Now and then a
        player resigns; with chaos, a player withdraws in the middle."""
        players = {"A": duel.seat_a.user, "B": duel.seat_b.user}
        if self.options and duel.game_id is None:
            Duel.objects.filter(pk=duel.pk).update(options={**duel.options, **self.options})
        for seat in self.rng.sample("AB", 2):
            online_duels.ready(duel_id=duel.pk, user=players[seat])
        duel.refresh_from_db()
        if duel.game_id is None:
            raise RuntimeError(f"duel {duel.pk} was not dealt when both players were ready")
        bot = random.Random(self.rng.random())
        resign_at = self.rng.randrange(40) if self.rng.random() < FORFEIT_RATE else None
        leave_at = (
            self.rng.randrange(1, 60)
            if self.chaos and self.rng.random() < CHAOS_PLAYING_WITHDRAWAL
            else None
        )
        for step in range(ONLINE_MAX_STEPS):
            if step == leave_at and self.withdraw(self.rng.choice((duel.seat_a, duel.seat_b))):
                return  # they forfeited the duel first (TOURNAMENT.md "Withdrawals")
            if Duel.objects.get(pk=duel.pk).status != DuelStatus.RUNNING:
                return
            game = Game.objects.get(pk=duel.game_id)
            # Each seat's own view (what `play.selectors.view_of` gives its page, before the
            # log is put in words: the bot reads no words), both from the same revision.
            restored = restore(game)
            views = {
                seat: restored.adapter.view(restored.table, Viewer("seat", seat)) for seat in "AB"
            }
            moves = {seat: online_move(views[seat], bot) for seat in "AB"}
            if not any(moves.values()):
                # Nobody is asked anything: an action card someone may play moves it on.
                moves = {seat: online_move(views[seat], bot, must=True) for seat in "AB"}
            if not any(moves.values()):
                raise RuntimeError(f"online duel {duel.pk}: nobody can move ({views['A']})")
            if step == resign_at:
                seat = self.rng.choice("AB")
                moves = {seat: Command("resign", seat, {})}
                self.progress.forfeits += 1
            for seat in self.rng.sample("AB", 2):
                if moves.get(seat) is None:
                    continue
                try:
                    played = online_duels.play_move(
                        duel_id=duel.pk,
                        user=players[seat],
                        command=moves[seat],
                        revision=game.revision,
                        intent=f"sim-{duel.pk}-{seat}-{step}",
                    )
                except Stale:
                    self.progress.stale += 1  # the page is drawn again next step
                    continue
                self.progress.moves += 1
                if played.finished:
                    return
        raise RuntimeError(f"online duel {duel.pk} did not end in {ONLINE_MAX_STEPS} steps")

    # -- the group phase -------------------------------------------------------------------

    def _active(self, group):
        return list(group.members.filter(status=EntrantStatus.ACTIVE).order_by("pk"))

    def play_round(self, number: int) -> None:
        first, second = self.tournament.groups.order_by("order")
        duel = services.name_representatives(
            self.tournament,
            self.referee,
            number,
            self.rng.choice(self._active(first)).pk,
            self.rng.choice(self._active(second)).pk,
            table=str(self.rng.randint(1, 4)),
        )
        self.play(duel)
        self.maybe_gift(duel)

    def maybe_transfer(self) -> None:
        """Now and then a player defects to the smaller group, within the limits."""
        if self.rng.random() >= TRANSFER_RATE:
            return
        groups = sorted(self.tournament.groups.all(), key=lambda g: len(self._active(g)))
        small, large = groups
        movers = self._active(large)
        if len(movers) <= 5 or len(self._active(small)) >= 15:
            return
        try:
            services.change_groups(
                self.tournament,
                self.organiser,
                {self.rng.choice(movers).pk: small.order},
                reason="defects",
            )
            self.progress.transfers += 1
        except ServiceError:
            pass  # the window closed or the limits refused: a real organiser would move on

    def maybe_gift(self, duel: Duel) -> None:
        duel.refresh_from_db()
        if (
            not self.tournament.shared_cards
            or duel.status != DuelStatus.FINISHED
            or self.rng.random() >= GIFT_RATE
        ):
            return
        for seat, giver in (("A", duel.seat_a), ("B", duel.seat_b)):
            giver.refresh_from_db()
            mates = (
                [e for e in self._active(giver.group) if e.pk != giver.pk]
                if giver.group_id and giver.status == EntrantStatus.ACTIVE
                else []
            )
            if duel.state["seats"][seat]["action_cards"] and mates:
                try:
                    services.record_shared_card(
                        self.tournament, self.referee, giver.pk, self.rng.choice(mates).pk
                    )
                    self.progress.gifts += 1
                except ServiceError:
                    continue  # the receiver already holds a gift
                return

    # -- the whole event -------------------------------------------------------------------

    def open_duels(self, kind: str) -> list[Duel]:
        return list(
            Duel.objects.filter(
                tournament=self.tournament, kind=kind, status=DuelStatus.READY
            ).order_by("pk")
        )

    def run(self, until: str = "complete") -> Progress:
        goal, last_round = parse_until(until)
        t = self.tournament
        for _ in range(4 * fmt.ROUNDS):  # a voided round is played again: bounded anyway
            t.refresh_from_db()
            if t.phase != Phase.GROUP_PHASE or t.group_phase_ended_at:
                break
            for replay in self.open_duels(DuelKind.REPLAY):
                self.play(replay)  # a void with replay (chaos): the same two play again
            rnd = t.rounds.filter(status=RoundStatus.OPEN).order_by("number").first()
            if rnd is None:
                continue
            number = rnd.number
            if goal == "round" and number > last_round:
                return self.progress
            self.play_round(number)
            self.report(f"round {number:2d} decided")
            if number < 15:
                self.maybe_transfer()
                if self.chaos:
                    self.group_chaos(number)
        self._settle_tiebreaks(goal)
        t.refresh_from_db()
        if goal in ("round", "tie_breaks") or t.phase != Phase.TIE_BREAKS:
            return self.progress
        start_playoffs(t, self.organiser)
        self.advance()
        self.report("playoffs started")
        if goal == "playoffs":
            return self.progress
        t.refresh_from_db()
        qualifiers = list(
            t.entrants.filter(
                pk__in=[p for p in t.playoff_seeding if p], status=EntrantStatus.ACTIVE
            ).order_by("pk")
        )
        if self.chaos and qualifiers and self.rng.random() < 0.3:
            # A qualifier leaves after the start: they lose every later duel by walkover.
            self.withdraw(self.rng.choice(qualifiers))
            self.advance()
        self._play_playoffs()
        if self.chaos:
            # A wrong result found after the Grand Final: the bracket re-opens, is replayed.
            finished = list(
                Duel.objects.filter(
                    tournament=t, kind=DuelKind.PLAYOFF, status=DuelStatus.FINISHED
                ).order_by("pk")
            )
            if finished and self.correct(self.rng.choice(finished), playoff=True):
                self.advance()
                self._play_playoffs()
        self.tournament.refresh_from_db()
        return self.progress

    def _play_playoffs(self) -> None:
        for _ in range(8):
            duels = self.open_duels(DuelKind.PLAYOFF)
            if not duels:
                break
            for duel in duels:
                self.play(duel)
                self.report(f"playoff {duel.stage} decided")
            self.advance()

    # -- chaos -------------------------------------------------------------------------------

    def withdraw(self, entrant) -> bool:
        """A player leaves (an elimination it causes is confirmed now and then)."""
        try:
            services.withdraw(
                self.tournament,
                self.organiser,
                entrant.pk,
                reason="chaos",
                confirm=self.rng.random() < 0.5,
            )
        except ServiceError:
            return False
        self.progress.withdrawals += 1
        self.report(f"{entrant.name} withdrew")
        return True

    def correct(self, duel: Duel, playoff: bool = False) -> bool:
        winner = (
            ("B" if duel.result.winner_id == duel.seat_a_id else "A")
            if playoff
            else self.rng.choice(["A", "B", None])
        )
        try:
            corrections.correct_result(
                self.tournament,
                self.organiser,
                duel,
                winner,
                "chaos: the score sheet said otherwise",
            )
        except ServiceError:
            return False
        self.progress.corrections += 1
        self.report(f"{duel.kind} duel {duel.pk} corrected to {winner or 'no winner'}")
        return True

    def void(self, duel: Duel) -> bool:
        replay = self.rng.random() < 0.6
        try:
            corrections.void_result(
                self.tournament, self.organiser, duel, "chaos: void", replay=replay
            )
        except ServiceError:
            return False
        self.progress.voids += 1
        self.report(f"round {duel.round.number} voided{' (replay)' if replay else ''}")
        return True

    def _finished(self, *kinds: str) -> list[Duel]:
        return list(
            Duel.objects.filter(
                tournament=self.tournament, kind__in=kinds, status=DuelStatus.FINISHED
            )
            .select_related("result", "round")
            .order_by("pk")
        )

    def group_chaos(self, number: int) -> None:
        """Between rounds: a withdrawal, a correction, a void, or a group sinking."""
        roll = self.rng.random()
        finished = self._finished(DuelKind.GROUP, DuelKind.REPLAY)
        if roll < CHAOS_WITHDRAWAL:
            self.withdraw(
                self.rng.choice(
                    list(
                        self.tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("pk")
                    )
                )
            )
        elif roll < CHAOS_WITHDRAWAL + CHAOS_CORRECTION and finished:
            self.correct(self.rng.choice(finished))
        elif roll < CHAOS_WITHDRAWAL + CHAOS_CORRECTION + CHAOS_VOID and finished:
            self.void(self.rng.choice(finished))
        elif (
            roll < (CHAOS_WITHDRAWAL + CHAOS_CORRECTION + CHAOS_VOID + CHAOS_ELIMINATION)
            and number >= 5
        ):
            self.sink_a_group()

    def sink_a_group(self) -> None:
        """One change leaving the smaller group at 4: moves while the other has room, then
        withdrawals; confirmed, so that group is eliminated at once."""
        small, large = sorted(
            self.tournament.groups.order_by("order"), key=lambda g: len(self._active(g))
        )
        leaving = self._active(small)
        self.rng.shuffle(leaving)
        room = max(0, 15 - len(self._active(large)))
        changes = {e.pk: (large.order if i < room else None) for i, e in enumerate(leaving[4:])}
        try:
            services.change_groups(
                self.tournament,
                self.organiser,
                changes,
                confirm=True,
                reason="chaos: the group breaks up",
            )
        except ServiceError:
            return
        self.progress.eliminations += 1
        self.report(f"{small.name} eliminated")

    def tiebreak_chaos(self) -> None:
        """During the tie-breaks: a withdrawal, a tie-break correction, or a group round
        voided with a replay (played now, holding the plan)."""
        roll = self.rng.random()
        if roll < CHAOS_WITHDRAWAL:
            self.withdraw(
                self.rng.choice(
                    list(
                        self.tournament.entrants.filter(status=EntrantStatus.ACTIVE).order_by("pk")
                    )
                )
            )
        elif roll < CHAOS_WITHDRAWAL + CHAOS_CORRECTION:
            finished = self._finished(DuelKind.TIE_BREAK, DuelKind.GROUP)
            if finished:
                self.correct(self.rng.choice(finished))
        elif roll < CHAOS_WITHDRAWAL + CHAOS_CORRECTION + CHAOS_VOID:
            finished = self._finished(DuelKind.GROUP, DuelKind.REPLAY)
            if finished:
                self.void(self.rng.choice(finished))

    def advance(self) -> None:
        """Let the automation take its step. With `wait_for_automation` (a real worker), wait
        for it to do so; otherwise take it here (in eager mode it already ran after commit,
        and the step is idempotent)."""
        from .services.progression import pending, sync

        if not self.wait_for_automation:
            sync(self.tournament)
            return
        deadline = time.monotonic() + self.wait_for_automation
        while pending(self.tournament):
            if time.monotonic() > deadline:
                raise RuntimeError("the automation did not take its next step in time")
            # A step takes the worker a few milliseconds: a tenth of a second between looks
            # was most of a simulated evening through the worker (hundreds of steps).
            time.sleep(0.02)

    def _settle_tiebreaks(self, goal: str) -> None:
        self.advance()
        self.tournament.refresh_from_db()
        if goal == "round" or self.tournament.phase != Phase.TIE_BREAKS:
            return
        for _ in range(64):
            # A group replay due after round 15 (a void, a win corrected to none) is played
            # during the tie-breaks like any other duel.
            duels = self.open_duels(DuelKind.REPLAY) + self.open_duels(DuelKind.TIE_BREAK)
            if not duels:
                break
            for duel in duels:
                self.play(duel)
            self.advance()
            if self.chaos:
                self.tiebreak_chaos()
                self.advance()
        self.report("tie-breaks settled")


def simulate_tournament(
    *,
    players: int,
    seed: int | str,
    until: str = "complete",
    name: str | None = None,
    organiser=None,
    referee=None,
    publish: bool = True,
    report: Callable[[str], None] = lambda _: None,
    wait_for_automation: float = 0,
    chaos: bool = False,
    online: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[Tournament, Progress]:
    """Create a tournament of `players` bots and play it, through the services, to `until`.

    `chaos` adds, seeded like everything else, withdrawals (playing and not), an elimination,
    corrections and voids (with and without replay) in every phase, through the services.
    `online` plays its duels online (ONLINE.md 6): every entrant holds an account of its own
    (``sim-<name>``), and a bot in each seat plays from that seat's view through the players'
    services. The app deals an online duel (a fresh random deal), so only the choices, not
    the cards, follow the seed. `options` (the duels' rule options, e.g.
    ``{"starting_number_cards": 3}`` for a short deal) are added to every duel's."""
    parse_until(until)
    if not 10 <= players <= 30:
        raise ValueError("a tournament has 10 to 30 players")
    rng = random.Random(f"tournament:{seed}")
    users = get_user_model().objects
    organiser = organiser or users.get_or_create(username="sim-organiser")[0]
    referee = referee or users.get_or_create(username="sim-referee")[0]
    tournament = services.create_tournament(
        name=name or f"Simulated Cup {seed}", created_by=organiser
    )
    TournamentRole.objects.get_or_create(
        tournament=tournament, user=referee, role=Role.REFEREE, defaults={"granted_by": organiser}
    )
    services.register_list(tournament, "\n".join(PLAYER_NAMES[:players]), organiser)
    if online:
        # ONLINE.md 6: online duels, each entry held by its player's account.
        Tournament.objects.filter(pk=tournament.pk).update(online_duels=True)
        tournament.refresh_from_db()
        for entrant in tournament.entrants.all():
            entrant.user = users.get_or_create(username=f"sim-{entrant.name.lower()}")[0]
            entrant.save(update_fields=["user"])
    # Everything random comes from the simulation's seed, by name rather than by database id,
    # so the same seed plays the same tournament in any database.
    entrants = sorted(tournament.entrants.all(), key=lambda e: e.name)
    rng.shuffle(entrants)
    services.split_groups(
        tournament, organiser, "hand", {e.pk: 1 + i % 2 for i, e in enumerate(entrants)}
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        tiebreak_seed=fmt.derive_seed(seed, "tiebreaks", [])
    )
    services.start_group_phase(tournament, organiser)
    if publish:
        services.set_published(tournament, True, organiser)
    simulation = TournamentSimulation(
        tournament,
        organiser,
        referee,
        rng,
        report,
        wait_for_automation,
        chaos=chaos,
        online=online,
        options=options,
    )
    progress = simulation.run(until)
    tournament.refresh_from_db()
    return tournament, progress


def online_move(view: dict[str, Any], bot: random.Random, must: bool = False) -> Command | None:
    """A seat's bot: its move from its own view's ``commands`` (what the player's page
    offers), or None when it waits. A card to choose or a decision asked is answered at
    random; a seal is a random card of the hand, or, now and then, an action card the seat
    may play instead; an action card alone (the seat sealed, or sits the round out) is
    played only when ``must`` (nobody is asked anything else)."""
    commands = view.get("commands") or {}
    seat = view["viewer"]["seat"]
    if "choose" in commands:
        return Command("choose", seat, {"card": bot.choice(commands["choose"]["cards"])})
    if "answer" in commands:
        return Command("answer", seat, {"choice": bot.choice(commands["answer"]["choices"])})
    play = commands.get("play")
    rather_act = "seal" in commands and bot.random() < ONLINE_ACTION_RATE
    if play and play["cards"] and (must or rather_act):
        args: dict[str, Any] = {
            "card": bot.choice(play["cards"]),
            "color": bot.choice(play["colors"]),
        }
        if play.get("targets"):
            args["target"] = bot.choice(play["targets"])
        return Command("play", seat, args)
    seal = commands.get("seal")
    if seal and seal["cards"]:
        args = {"card": bot.choice(seal["cards"])}
        if seal.get("targets"):
            args["target"] = bot.choice(seal["targets"])
        return Command("seal", seat, args)
    return None


PLAYER_NAMES = [
    "Ada",
    "Bao",
    "Cleo",
    "Dev",
    "Edda",
    "Farid",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kai",
    "Lena",
    "Milo",
    "Nia",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sami",
    "Tove",
    "Uma",
    "Vik",
    "Wren",
    "Xiu",
    "Yara",
    "Zeno",
    "Amir",
    "Bea",
    "Cato",
    "Dara",
]
