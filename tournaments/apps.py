from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from accounts.ratelimit import register_invite_check

        from .invites import claim_link_in_signup

        # A sign-up on its way to claiming an entry is not rate-limited.
        register_invite_check(claim_link_in_signup)
        from . import signals  # noqa: F401 - connects the receivers
