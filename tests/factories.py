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
