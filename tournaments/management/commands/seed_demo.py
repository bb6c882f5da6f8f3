"""Demo data for the README's run command: a tournament in the middle of its group phase,
played by the bots through the real services, and a sign-in for each role.

Safe to run again: an existing demo is left as it is.
"""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from accounts.services import clean_display_name
from tournaments.models import Entrant, Tournament
from tournaments.simulation import simulate_tournament

DEMO_PASSWORD = "split-uno-demo"  # noqa: S105 - printed on purpose: demo sign-ins only
DEMO_USERS = {"organiser": "Olga Organiser", "referee": "Rui Referee", "player": "Pat Player"}
DEMO_SLUG = "demo-open"
DEMO_PLAYER_ENTRY = "Ada"


class Command(BaseCommand):
    help = "Create the demo accounts and the demo tournament, stopped after round 8."

    def handle(self, *args, **options) -> None:
        users = {}
        for username, display in DEMO_USERS.items():
            user, created = get_user_model().objects.get_or_create(
                username=username, defaults={"display_name": clean_display_name(display)}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            self.stdout.write("Playing the demo tournament's first 8 rounds with the bots…")
            tournament, _ = simulate_tournament(
                players=21,
                seed="demo",
                until="round:8",
                name="Demo Open",
                organiser=users["organiser"],
                referee=users["referee"],
                report=lambda line: sys.stdout.write(f"  {line}\n"),
            )
            Entrant.objects.filter(tournament=tournament, name=DEMO_PLAYER_ENTRY).update(
                user=users["player"]
            )
        self.stdout.write(
            f"Demo tournament: /t/{tournament.slug}/ ({tournament.name}, "
            f"{tournament.get_phase_display().lower()})"
        )
        for username in DEMO_USERS:
            self.stdout.write(f"  sign in as {username:<10} password {DEMO_PASSWORD}")
