"""Whole simulated tournaments, played by the bots through the same services a referee uses.

Used by `manage.py simulate_tournament`, the demo of `./dev run`, tests and benchmarks. Every
move goes through `duels.services.append_event`, so a simulated tournament exercises the real
locks, checks, results, standings and automation.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from accounts.models import Role, TournamentRole
from core.errors import ServiceError
from duels.models import Duel, DuelKind, DuelStatus
from games.split_uno.simulate import play_duel
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
    ) -> None:
        self.wait_for_automation = wait_for_automation
        self.chaos = chaos
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
            if self.rng.random() < FORFEIT_RATE:
                seat = self.rng.choice("AB")
                duel_services.append_event(
                    duel,
                    self.referee,
                    {"type": "forfeit", "seat": seat, "reason": "no_show"},
                    duel.seq,
                )
                self.progress.forfeits += 1
            else:
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
                    if seq == leave_at and self.withdraw(
                        self.rng.choice((duel.seat_a, duel.seat_b))
                    ):
                        break  # they forfeited the duel first (TOURNAMENT.md "Withdrawals")
                    duel_services.append_event(duel, self.referee, event, seq)
                    self.progress.moves += 1
            self.progress.duels += 1
            duel.refresh_from_db()
            duel = Duel.objects.filter(replay_of=duel, status=DuelStatus.READY).first()

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
) -> tuple[Tournament, Progress]:
    """Create a tournament of `players` bots and play it, through the services, to `until`.

    `chaos` adds, seeded like everything else, withdrawals (playing and not), an elimination,
    corrections and voids (with and without replay) in every phase, through the services."""
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
        tournament, organiser, referee, rng, report, wait_for_automation, chaos=chaos
    )
    progress = simulation.run(until)
    tournament.refresh_from_db()
    return tournament, progress


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
