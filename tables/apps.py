from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Casual tables"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
