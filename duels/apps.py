from django.apps import AppConfig


class DuelsConfig(AppConfig):
    name = "duels"
