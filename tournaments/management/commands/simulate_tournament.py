"""python manage.py simulate_tournament --players N --seed S [--until round:K|tie_breaks|…]
[--chaos] [--online [--short]]"""

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments import read_models
from tournaments.simulation import parse_until, simulate_tournament

#: --short: a short deal, for a quick online run (the preset's option).
SHORT = {"starting_number_cards": 2}


class Command(BaseCommand):
    help = (
        "Create a tournament of bot players and play it through the same services a "
        "referee uses, then print the standings and the placings."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=20, help="10 to 30 (default 20)")
        parser.add_argument("--seed", default="1", help="the same seed plays the same event")
        parser.add_argument(
            "--until",
            default="complete",
            help="round:K, tie_breaks, playoffs or complete (default)",
        )
        parser.add_argument("--name", default=None)
        parser.add_argument("--private", action="store_true", help="do not publish it")
        parser.add_argument(
            "--chaos",
            action="store_true",
            help="add withdrawals, transfers, an elimination, corrections and "
            "voids in every phase (seeded too)",
        )
        parser.add_argument(
            "--online",
            action="store_true",
            help="play the duels online: every player's account says ready, the app deals, "
            "and a bot in each seat plays from that seat's own view",
        )
        parser.add_argument(
            "--short",
            action="store_true",
            help="with --online: a short deal (2 number cards a seat) for a quick run",
        )

    def handle(
        self,
        *args,
        players,
        seed,
        until,
        name,
        private,
        chaos=False,
        online=False,
        short=False,
        **options,
    ):
        try:
            parse_until(until)
        except ValueError as err:
            raise CommandError(str(err)) from None
        if not 10 <= players <= 30:
            raise CommandError("--players must be between 10 and 30")
        if short and not online:
            raise CommandError("--short goes with --online")
        err = sys.stderr

        def report(line: str) -> None:
            err.write(f"  {line}\n")
            err.flush()

        tournament, progress = simulate_tournament(
            players=players,
            seed=seed,
            until=until,
            name=name,
            publish=not private,
            report=report,
            chaos=chaos,
            online=online,
            options=SHORT if short else None,
        )
        out = self.stdout
        out.write(
            f"{tournament.name} ({tournament.slug}): phase {tournament.phase}, "
            f"{progress.duels} duels, {progress.moves} moves, {progress.transfers} "
            f"transfers, {progress.gifts} shared cards, {progress.forfeits} forfeits"
        )
        if online:
            out.write(
                f"Online: every duel played from the seats' own views, {progress.stale} "
                "moves drawn again after another move overtook their page"
            )
        if chaos:
            out.write(
                f"Chaos: {progress.withdrawals} withdrawals, {progress.eliminations} "
                f"eliminations, {progress.corrections} corrections, {progress.voids} "
                "voids"
            )
        out.write("\nStandings")
        for row in read_models.standings(tournament):
            rank = ("T" if row["shared"] else "") + str(row["rank"]) if row["rank"] else "—"
            out.write(
                f"  {rank:>4}  {row['name']:<10} {row['points']:>4} pts  "
                f"{row['won']}-{row['lost']}  {row['status']}"
            )
        placings = read_models.summary(tournament)["placings"]
        if placings:
            names = dict(tournament.entrants.values_list("pk", "name"))
            out.write("\nPlacings")
            for player, place in sorted(placings.items(), key=lambda item: item[1]):
                out.write(f"  {place}. {names[player]}")
