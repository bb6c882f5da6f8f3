"""python manage.py simulate_tournament --players N --seed S [--until round:K|tie_breaks|…]"""

import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments import read_models
from tournaments.simulation import parse_until, simulate_tournament


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

    def handle(self, *args, players, seed, until, name, private, chaos=False, **options):
        try:
            parse_until(until)
        except ValueError as err:
            raise CommandError(str(err)) from None
        if not 10 <= players <= 30:
            raise CommandError("--players must be between 10 and 30")
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
        )
        out = self.stdout
        out.write(
            f"{tournament.name} ({tournament.slug}): phase {tournament.phase}, "
            f"{progress.duels} duels, {progress.moves} moves, {progress.transfers} "
            f"transfers, {progress.gifts} shared cards, {progress.forfeits} forfeits"
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
