from django.apps import AppConfig


class PracticeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice"
    verbose_name = "Practice against the bot"

    def ready(self) -> None:
        # The core's clock ends a Trois game at its 25 minutes, and must lock, check and
        # settle it as practice does for any write (practice.game_services.clock_keeper).
        from core import push
        from play import clock

        from . import online
        from .game_services import clock_keeper, may_follow_game

        clock.keep(clock_keeper)
        # An online table's seat clocks (issue 31): the table's row first, then settled.
        clock.keep(online.clock_keeper)
        # A practice game's news (issue 28: its clock), for the person who plays it; an
        # online table's game's (issue 31), for the people at the table.
        push.register("game", may_follow_game)
        push.register("game", online.may_follow_game)
        # An online table's own changes (its lobby, a rematch), for its people.
        push.register("onlinetable", online.may_follow_table)
