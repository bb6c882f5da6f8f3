"""Demo data for the README's run command: sign-ins for each role and a published tournament.

Safe to run again: it only adds what is missing.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import Role, TournamentRole
from tournaments.models import Entrant, Tournament

DEMO_PASSWORD = "split-uno-demo"  # noqa: S105 - printed on purpose: demo sign-ins only
DEMO_USERS = {"organiser": "Olga Organiser", "referee": "Rui Referee", "player": "Pat Player"}
DEMO_PLAYERS = [
    "Pat Player", "Ada", "Bao", "Cleo", "Dev", "Edda", "Farid", "Gus", "Hana", "Ivo", "Jun",
    "Kai", "Lena", "Milo", "Nia", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tove",
]


class Command(BaseCommand):
    help = "Create the demo accounts and the demo tournament (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        users = {}
        for username, display in DEMO_USERS.items():
            user, created = get_user_model().objects.get_or_create(
                username=username, defaults={"display_name": display}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        tournament, _ = Tournament.objects.get_or_create(
            slug="demo-open",
            defaults={"name": "Demo Open", "created_by": users["organiser"], "published": True},
        )
        TournamentRole.objects.get_or_create(
            tournament=tournament, user=users["referee"], role=Role.REFEREE,
            defaults={"granted_by": users["organiser"]},
        )
        for name in DEMO_PLAYERS:
            Entrant.objects.get_or_create(tournament=tournament, name=name)
        Entrant.objects.filter(tournament=tournament, name="Pat Player", user=None).update(
            user=users["player"]
        )
        self.stdout.write(f"Demo tournament: /t/{tournament.slug}/")
        for username in DEMO_USERS:
            self.stdout.write(f"  sign in as {username:<10} password {DEMO_PASSWORD}")
