import factory

from accounts.models import Role, TournamentRole, User
from tournaments.models import Entrant, Tournament

PASSWORD = "a-long-test-password-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):  # noqa: N805 - factory_boy's signature
        if create:
            obj.save()


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Cup {n}")
    slug = factory.Sequence(lambda n: f"cup-{n}")
    created_by = factory.SubFactory(UserFactory)


class EntrantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entrant

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class RoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.REFEREE


def group_phase_duel(*, players=("Alice", "Bob"), round_number=1, referee=None, **tournament):
    """A tournament in its group phase with round `round_number` open and its duel ready."""
    from duels.models import Duel, DuelKind, DuelStatus
    from tournaments.models import Phase, Round, RoundStatus

    t = TournamentFactory(phase=Phase.GROUP_PHASE, **tournament)
    g1 = t.groups.create(name="Reds", order=1)
    g2 = t.groups.create(name="Blues", order=2)
    a = EntrantFactory(tournament=t, name=players[0], group=g1)
    b = EntrantFactory(tournament=t, name=players[1], group=g2)
    # Four more members each, so the split is one the group phase can start with (5–15 a
    # group: TOURNAMENT.md "Split"; round 1 refuses to start otherwise).
    for group in (g1, g2):
        for i in range(2, 6):
            EntrantFactory(tournament=t, name=f"{group.name} {i}", group=group)
    for n in range(1, 16):
        Round.objects.create(
            tournament=t,
            number=n,
            status=RoundStatus.OPEN
            if n == round_number
            else RoundStatus.DECIDED
            if n < round_number
            else RoundStatus.PENDING,
        )
    rnd = t.rounds.get(number=round_number)
    if referee is None:
        referee = RoleFactory(tournament=t, role=Role.REFEREE).user
    duel = Duel.objects.create(
        tournament=t,
        kind=DuelKind.GROUP,
        round=rnd,
        seat_a=a,
        seat_b=b,
        group_a=g1,
        group_b=g2,
        status=DuelStatus.READY,
        ruleset=t.duel_preset,
        options={"truth_dare": False},
    )
    return duel, referee
