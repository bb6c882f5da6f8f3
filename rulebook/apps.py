from django.apps import AppConfig


class RulebookConfig(AppConfig):
    """The rules, written for players: /rules/ (Split UNO), /rules/trois/, /rules/cpt113/."""

    name = "rulebook"
