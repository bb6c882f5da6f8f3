from django.apps import AppConfig


class PracticeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice"
    verbose_name = "Practice against the bot"

    def ready(self) -> None:
        # The core's clock ends a Trois game at its 25 minutes, and must lock, check and
        # settle it as practice does for any write (practice.game_services.clock_keeper).
        from play import clock

        from .game_services import clock_keeper

        clock.keep(clock_keeper)
