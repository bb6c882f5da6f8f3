from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
