from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Casual tables"

    def ready(self) -> None:
        from core import push

        from . import signals  # noqa: F401 - connects the receivers
        from .selectors import may_follow_game

        # A table's game, for its referees' consoles (issue 28; core.push).
        push.register("game", may_follow_game)
